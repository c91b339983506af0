import { join } from 'node:path';
import { z } from 'zod';
import { caCensusSource } from '../../datasets/ca/census/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestCaCensus } from './census.ts';

export const caCensusJob = defineJob({
  id: 'ca.census',
  summary: "Statistics Canada Census Profile by forward sortation area (98-401-X2021013_English_CSV_data.csv, Latin-1): average total income of recipients of Quebec's FSAs -> ca/zone_values (one partition per census)",
  sources: [caCensusSource],
  options: z.object({ input: option.path('<98-401-X2021013_English_CSV_data.csv>'), encoding: option.text('<latin1>').optional(), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/census/98-401-X2021013_English_CSV_data.csv'), '--published-on', '2026-11-24']],
  run: (ctx, o) => ingestCaCensus(ctx, { path: o.input, encoding: o.encoding, publishedAt: o['published-on'] }),
});
