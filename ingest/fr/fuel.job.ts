import { join } from 'node:path';
import { z } from 'zod';
import { fuelSource } from '../../datasets/fr/fuel/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestFuel } from './fuel.ts';

export const fuelJob = defineJob({
  id: 'fr.fuel',
  summary: 'The fuel-price flow (PrixCarburants_instantane.xml or its .zip, ISO-8859-1, positions x 100,000) -> fr/places as fuel stations (partition fr.fuel)',
  sources: [fuelSource],
  options: z.object({ input: option.path('PrixCarburants_instantane.zip|.xml') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/fuel/PrixCarburants_instantane.xml')]],
  run: (ctx, o) => ingestFuel(ctx, { path: o.input }),
});
