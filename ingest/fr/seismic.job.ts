import { join } from 'node:path';
import { z } from 'zod';
import { seismicSource } from '../../datasets/fr/seismic/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestSeismic } from './seismic.ts';

export const seismicJob = defineJob({
  id: 'fr.seismic',
  summary: 'Regulatory seismic zoning by commune (code_insee;nom_commune;zone_sismicite, zones 1-5) -> fr/zone_values (partition fr.seismic)',
  sources: [seismicSource],
  options: z.object({ input: option.path('<zonage_sismique_communes.csv>'), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/seismic/zonage_sismique_communes.csv'), '--published-on', '2026-11-24']],
  run: (ctx, o) => ingestSeismic(ctx, { path: o.input, publishedAt: o['published-on'] }),
});
