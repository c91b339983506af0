import { join } from 'node:path';
import { z } from 'zod';
import { buildingStockSource } from '../../datasets/be/building-stock/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestBuildingStock } from './building-stock.ts';

export const beCensusJob = defineJob({
  id: 'be.census',
  summary: "Statbel's building stock (building_stock_open_data.txt, pipe, Latin-1): dwellings and the share of dwellings in houses per municipality -> be/zone_values (one partition per year, from the rows)",
  sources: [buildingStockSource],
  options: z.object({ input: option.path('<building_stock_open_data.txt>'), encoding: option.text('<latin1>').optional(), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/building-stock/building_stock_open_data.txt'), '--published-on', '2026-11-25']],
  run: (ctx, o) => ingestBuildingStock(ctx, { path: o.input, encoding: o.encoding, publishedAt: o['published-on'] }),
});
