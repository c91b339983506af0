import { join } from 'node:path';
import { z } from 'zod';
import { beSchoolsFwbSource } from '../../datasets/be/schools/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBeSchools } from './schools.ts';

export const beSchoolsJob = defineJob({
  id: 'be.schools',
  summary: "The Fédération Wallonie-Bruxelles's school sites (signaletique-fase.csv, ODWB's export with field names) -> be/places by site and stage (partition be.schools-fwb); the Flemish Community's schools are not read yet",
  sources: [beSchoolsFwbSource],
  options: z.object({ input: option.path('signaletique-fase.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/schools/signaletique-fase.csv')]],
  run: (ctx, o) => ingestBeSchools(ctx, { path: o.input }),
});
