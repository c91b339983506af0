import { join } from 'node:path';
import { z } from 'zod';
import { caAssessmentSource, caTaxRatesSource } from '../../datasets/ca/assessment/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestCaAssessment } from './assessment.ts';

export const caAssessmentJob = defineJob({
  id: 'ca.assessment',
  summary: "MAMH's richesse foncière uniformisée (the roll's comparative factor CSALX02163) or données prévisionnelles (the residential tax rate CPALB01726) by municipal body (CSV) -> ca/zone_values (one partition per file kind and fiscal year, given with --year)",
  sources: [caAssessmentSource, caTaxRatesSource],
  options: z.object({
    input: option.path('<RFU .csv | données prévisionnelles .csv>'),
    year: z.string().regex(/^20\d\d$/, { error: '--year must be the fiscal year, e.g. 2026 (the file does not say it)' }).describe('<YYYY>'),
    'published-on': publishedOnOption.optional(),
  }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv'), '--year', '2026'], ['--input', join(REPO_ROOT, 'datasets/ca/assessment/previsionnelles-2026.csv'), '--year', '2026']],
  run: (ctx, o) => ingestCaAssessment(ctx, { path: o.input, year: Number(o.year), publishedOn: o['published-on'] ?? null }),
});
