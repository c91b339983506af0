import { join } from 'node:path';
import { z } from 'zod';
import { adminExpressSource } from '../../datasets/fr/admin-express/source.ts';
import { contoursIrisSource } from '../../datasets/fr/contours-iris/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestFrZones } from './zones.ts';

export const frZonesJob = defineJob({
  id: 'fr.zones',
  summary: 'IGN ADMIN EXPRESS (regions, departments, communes, municipal arrondissements) and CONTOURS-IRIS shapefiles -> fr/zones, fr/zone_cells',
  sources: [adminExpressSource, contoursIrisSource],
  options: z.object({
    input: option.path('<delivery folder | layer .shp | .zip>'),
    encoding: option.text('E').optional(),
  }),
  reads: [],
  writes: ['zones', 'zone_cells'],
  samples: [
    ['--input', join(REPO_ROOT, 'datasets/fr/admin-express')],
    ['--input', join(REPO_ROOT, 'datasets/fr/admin-express-974')],
    ['--input', join(REPO_ROOT, 'datasets/fr/contours-iris')],
  ],
  run: (ctx, o) => ingestFrZones(ctx, o.input, { encoding: o.encoding }),
});
