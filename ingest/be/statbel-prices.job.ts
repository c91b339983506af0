import { join } from 'node:path';
import { z } from 'zod';
import { statbelPricesSource } from '../../datasets/be/statbel-prices/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestStatbelPrices } from './statbel-prices.ts';

export const statbelPricesJob = defineJob({
  id: 'be.statbel-prices',
  summary: "Statbel real-estate sales by municipality (pipe-separated open data): the year's median sale price of apartments and of all houses, quartiles and sales -> be/zone_values (one partition per year, from the rows)",
  sources: [statbelPricesSource],
  options: z.object({ input: option.path('<Statbel real-estate sales .txt>'), 'published-on': publishedOnOption.optional() }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-prices/TF_IMMO_MUNTY.txt')]],
  run: (ctx, o) => ingestStatbelPrices(ctx, { path: o.input, publishedOn: o['published-on'] ?? null }),
});
