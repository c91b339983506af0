import { join } from 'node:path';
import { z } from 'zod';
import { statbelPriceSectorsSource, statbelPricesSource } from '../../datasets/be/statbel-prices/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestStatbelPrices } from './statbel-prices.ts';

export const statbelPricesJob = defineJob({
  id: 'be.statbel-prices',
  summary: "Statbel real-estate sales by municipality (pipe-separated open data) or by statistical sector (TF_IMMO_SECTOR): the year's median sale price of apartments and of all houses, quartiles and sales -> be/zone_values (one partition per file kind and year, from the rows)",
  sources: [statbelPricesSource, statbelPriceSectorsSource],
  options: z.object({ input: option.path('<Statbel real-estate sales .txt | TF_IMMO_SECTOR .txt>'), encoding: option.text('<utf-8|windows-1252>').optional(), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-prices/TF_IMMO_MUNTY.txt'), '--published-on', '2026-11-24'], ['--input', join(REPO_ROOT, 'datasets/be/statbel-prices/TF_IMMO_SECTOR.txt'), '--published-on', '2026-11-25']],
  run: (ctx, o) => ingestStatbelPrices(ctx, { path: o.input, encoding: o.encoding, publishedAt: o['published-on'] }),
});
