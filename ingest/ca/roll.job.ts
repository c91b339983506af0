import { join } from 'node:path';
import { z } from 'zod';
import { montrealRollSource } from '../../datasets/ca/sources.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestMontrealRoll } from './roll.ts';

export const montrealRollJob = defineJob({
  id: 'ca.montreal-roll',
  summary: "Montreal's assessment roll units (uniteevaluationfonciere.csv): civic numbers the official addresses lack, placed along their street, zipcode null -> ca/addresses",
  sources: [montrealRollSource],
  options: z.object({ input: option.path('<uniteevaluationfonciere.csv>') }),
  // The official addresses (ca.adresses-quebec or the addresses job) place the roll's numbers along their streets.
  reads: ['addresses'],
  writes: ['addresses'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/role-montreal/uniteevaluationfonciere.csv')]],
  run: (ctx, o) => ingestMontrealRoll(ctx, { path: o.input }),
});
