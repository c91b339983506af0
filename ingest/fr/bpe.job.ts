import { join } from 'node:path';
import { z } from 'zod';
import { bpeSource } from '../../datasets/fr/bpe/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBpe } from './bpe.ts';

export const bpeJob = defineJob({
  id: 'fr.bpe',
  summary: "INSEE's BPE geolocated file (Lambert-93 and overseas UTM by DEP, Windows-1252) -> fr/places: schools, health, shops of the taxonomy, one place per category and position (partition fr.bpe)",
  sources: [bpeSource],
  options: z.object({
    input: option.path('bpe_ensemble_xy.csv'),
    encoding: option.oneOf('encoding', z.enum(['windows-1252', 'utf-8'])).optional(),
  }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/bpe/bpe_ensemble_xy.csv')]],
  run: (ctx, o) => ingestBpe(ctx, { path: o.input }, o.encoding ?? 'windows-1252'),
});
