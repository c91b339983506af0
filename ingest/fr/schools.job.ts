import { join } from 'node:path';
import { z } from 'zod';
import { schoolsSource } from '../../datasets/fr/schools/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestSchools } from './schools.ts';

export const schoolsJob = defineJob({
  id: 'fr.schools',
  summary: "The education directory (fr-en-annuaire-education.csv, the portal's semicolon export) -> fr/places: écoles, collèges, lycées by UAI (partition fr.schools)",
  sources: [schoolsSource],
  options: z.object({ input: option.path('fr-en-annuaire-education.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/schools/fr-en-annuaire-education.csv')]],
  run: (ctx, o) => ingestSchools(ctx, { path: o.input }),
});
