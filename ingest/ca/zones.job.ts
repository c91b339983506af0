import { join } from 'node:path';
import { z } from 'zod';
import { fsaSource, montrealLimitsSource, munSource, rentalAreasSource, sdaSource } from '../../datasets/ca/sources.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCaZones } from './zones.ts';

export const caZonesJob = defineJob({
  id: 'ca.zones',
  summary: 'Quebec zones: SDA regions, MRC, municipalities, arrondissements (named from MAMH MUN.csv), Montreal limadmin, Statistics Canada FSA (EPSG:3347), rental-survey neighbourhoods -> ca/zones, ca/zone_cells',
  sources: [sdaSource, munSource, montrealLimitsSource, fsaSource, rentalAreasSource],
  options: z.object({
    sda: option.path('<folder | layer.shp>').optional(),
    mun: option.path('MUN.csv').optional(),
    montreal: option.path('limadmin.geojson').optional(),
    fsa: option.path('lfsa000b21a_e.shp').optional(),
    rental: option.path('<neighbourhoods .shp>').optional(),
    encoding: option.text('E').optional(),
  }).superRefine((o, c) => {
    if (!o.sda && !o.montreal && !o.fsa && !o.rental) c.addIssue({ code: 'custom', message: 'give at least one of --sda, --montreal, --fsa, --rental' });
  }),
  reads: [],
  writes: ['zones', 'zone_cells'],
  samples: [[
    '--sda', join(REPO_ROOT, 'datasets/ca/sda'), '--mun', join(REPO_ROOT, 'datasets/ca/mun/MUN.csv'),
    '--fsa', join(REPO_ROOT, 'datasets/ca/fsa/lfsa000b21a_e.shp'), '--rental', join(REPO_ROOT, 'datasets/ca/rental-areas/quartiers_enquete_locative.shp'),
  ]],
  run: (ctx, o) => ingestCaZones(ctx, o),
});
