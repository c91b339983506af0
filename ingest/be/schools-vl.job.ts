import { join } from 'node:path';
import { z } from 'zod';
import { beSchoolsVlSource } from '../../datasets/be/schools-vl/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBeSchoolsVl } from './schools-vl.ts';

export const beSchoolsVlJob = defineJob({
  id: 'be.schools-vl',
  summary: "The Flemish Community's school sites (the onderwijsaanbod list of vestigingsplaatsen, CSV) -> be/places by school and site (partition be.schools-vl)",
  sources: [beSchoolsVlSource],
  options: z.object({ input: option.path('vestigingsplaatsen.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/schools-vl/vestigingsplaatsen-van-scholen.csv')]],
  run: (ctx, o) => ingestBeSchoolsVl(ctx, { path: o.input }),
});
