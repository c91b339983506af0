import { join } from 'node:path';
import { z } from 'zod';
import { chargingSource } from '../../datasets/fr/charging/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCharging } from './charging.ts';

export const chargingJob = defineJob({
  id: 'fr.charging',
  summary: 'The consolidated IRVE charging points file (static schema 2.x, coordonneesXY) -> fr/places: one charging station per station id with its points (partition fr.charging)',
  sources: [chargingSource],
  options: z.object({ input: option.path('consolidation-etalab-schema-irve-statique-v-2.x.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/charging/consolidation-etalab-schema-irve-statique.csv')]],
  run: (ctx, o) => ingestCharging(ctx, { path: o.input }),
});
