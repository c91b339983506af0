import { join } from 'node:path';
import { z } from 'zod';
import { statbelIncomeSectorsSource, statbelIncomeSource } from '../../datasets/be/statbel-income/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestStatbelIncome } from './statbel-income.ts';

export const statbelIncomeJob = defineJob({
  id: 'be.statbel-income',
  summary: 'Statbel fiscal income by municipality (TF_PSNL_INC_TAX_MUNTY.txt): mean net taxable income per tax return; or by statistical sector (TF_PSNL_INC_TAX_SECTOR.txt): the median per return -> be/zone_values (one partition per file kind and income year, from the rows)',
  sources: [statbelIncomeSource, statbelIncomeSectorsSource],
  options: z.object({ input: option.path('<TF_PSNL_INC_TAX_MUNTY.txt | TF_PSNL_INC_TAX_SECTOR.txt>'), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-income/TF_PSNL_INC_TAX_MUNTY.txt'), '--published-on', '2026-11-24'], ['--input', join(REPO_ROOT, 'datasets/be/statbel-income/TF_PSNL_INC_TAX_SECTOR.txt'), '--published-on', '2026-11-25']],
  run: (ctx, o) => ingestStatbelIncome(ctx, { path: o.input, publishedAt: o['published-on'] }),
});
