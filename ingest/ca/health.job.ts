import { join } from 'node:path';
import { z } from 'zod';
import { caHealthSource } from '../../datasets/ca/health/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCaHealth } from './health.ts';

export const caHealthJob = defineJob({
  id: 'ca.health',
  summary: "Quebec's health and social services installations (the MSSS's M02 installationscsv.csv) -> ca/places: hospitals (CHSGS, CHPSY) and CLSCs (partition ca.health)",
  sources: [caHealthSource],
  options: z.object({ input: option.path('installationscsv.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/health/installationscsv.csv')]],
  run: (ctx, o) => ingestCaHealth(ctx, { path: o.input }),
});
