import { join } from 'node:path';
import { z } from 'zod';
import { caAssessmentSource, caFinancialProfileSource, caTaxRatesSource } from '../../datasets/ca/assessment/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestCaAssessment } from './assessment.ts';

export const caAssessmentJob = defineJob({
  id: 'ca.assessment',
  summary: "MAMH's richesse foncière uniformisée (the roll's comparative factor CSALX02163), données prévisionnelles (the residential tax rate CPALB01726) or profil financier (the standardized average values of one-dwelling residences FIALX02009 and per dwelling FIALX02010) by municipal body (CSV) -> ca/zone_values (one partition per file kind and year: --year for the first two, the file's an_donnee for the profile)",
  sources: [caAssessmentSource, caTaxRatesSource, caFinancialProfileSource],
  options: z.object({
    input: option.path('<RFU .csv | données prévisionnelles .csv | PF-<edition>-<year>.csv>'),
    year: z.string().regex(/^20\d\d$/, { error: '--year must be the fiscal year, e.g. 2026 (the RFU and the données prévisionnelles do not say it)' }).describe('<YYYY>').optional(),
    'published-on': publishedOnOption,
  }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv'), '--year', '2026', '--published-on', '2026-11-24'], ['--input', join(REPO_ROOT, 'datasets/ca/assessment/previsionnelles-2026.csv'), '--year', '2026', '--published-on', '2026-11-25'], ['--input', join(REPO_ROOT, 'datasets/ca/assessment/PF-2024-2025.csv'), '--published-on', '2026-11-25']],
  run: (ctx, o) => ingestCaAssessment(ctx, { path: o.input, year: o.year === undefined ? null : Number(o.year), publishedAt: o['published-on'] }),
});
