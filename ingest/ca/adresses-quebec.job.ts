import { join } from 'node:path';
import { z } from 'zod';
import { adressesQuebecSource } from '../../datasets/ca/sources.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestAdressesQuebec } from './adresses-quebec.ts';

export const adressesQuebecJob = defineJob({
  id: 'ca.adresses-quebec',
  summary: 'Adresses Québec civic addresses (CSV export, NAD83 / Quebec Lambert EPSG:32198) -> ca/addresses',
  sources: [adressesQuebecSource],
  options: z.object({
    input: option.path('<AQ_adresses.csv>'),
    crs: option.text('EPSG:NNNN').optional(),
  }),
  reads: [],
  writes: ['addresses'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/adresses-quebec/AQ_adresses.csv')]],
  run: (ctx, o) => ingestAdressesQuebec(ctx, { path: o.input }, o.crs),
});
