import { join } from 'node:path';
import { z } from 'zod';
import { refnisSource, statbelSectorsSource } from '../../datasets/be/statbel-sectors/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBeZones } from './zones.ts';

export const beZonesJob = defineJob({
  id: 'be.zones',
  summary: 'Statbel statistical sectors (regions, provinces, arrondissements, communes, sections, sectors; Lambert 72 or 2008), or a commune boundary file (--code-property) with the REFNIS list -> be/zones, be/zone_cells',
  sources: [statbelSectorsSource, refnisSource],
  options: z.object({
    input: option.path('<sectors .geojson | .shp | .zip | communes file>'),
    refnis: option.path('REFNIS.csv').optional(),
    'code-property': option.text('P').optional(),
    'name-property': option.text('P').optional(),
    encoding: option.text('E').optional(),
    layer: option.text('NAME').optional(),
    crs: option.text('EPSG:NNNN').optional(),
  }).superRefine((o, c) => {
    if (o['code-property'] && !o.refnis) c.addIssue({ code: 'custom', message: '--code-property (a commune boundary file) needs --refnis' });
  }),
  reads: [],
  writes: ['zones', 'zone_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-sectors/sh_statbel_statistical_sectors_3812_20240101.geojson'), '--refnis', join(REPO_ROOT, 'datasets/be/statbel-sectors/REFNIS_2024.csv')]],
  run: (ctx, o) => ingestBeZones(ctx, {
    input: o.input, refnis: o.refnis, codeProperty: o['code-property'], nameProperty: o['name-property'], encoding: o.encoding, layer: o.layer, crs: o.crs,
  }),
});
