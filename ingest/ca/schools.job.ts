import { join } from 'node:path';
import { z } from 'zod';
import { caSchoolsSource } from '../../datasets/ca/schools/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCaSchools } from './schools.ts';

export const caSchoolsJob = defineJob({
  id: 'ca.schools',
  summary: "Quebec's public schools (pps_public_ecole.geojson, or the PPS_Public_Ecole layer of a zip or folder) -> ca/places by school and building (partition ca.schools)",
  sources: [caSchoolsSource],
  options: z.object({ input: option.path('pps_public_ecole.geojson') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/schools/pps_public_ecole.geojson')]],
  run: (ctx, o) => ingestCaSchools(ctx, { path: o.input }),
});
