import { join } from 'node:path';
import { z } from 'zod';
import { beHealthAfmpsSource } from '../../datasets/be/health/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBeHealth } from './health.ts';

export const beHealthJob = defineJob({
  id: 'be.health',
  summary: "Belgium's pharmacies open to the public (the AFMPS/FAGG's Lst_Pharmacies_pub_Extended.xlsx) -> be/places as health.pharmacy (partition be.health-afmps)",
  sources: [beHealthAfmpsSource],
  options: z.object({ input: option.path('Lst_Pharmacies_pub_Extended.xlsx') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/health/Lst_Pharmacies_pub_Extended.xlsx')]],
  run: (ctx, o) => ingestBeHealth(ctx, { path: o.input }),
});
