import { z } from 'zod';
import { Country } from '../../schemas/common.ts';
import { ZoneLevel } from '../../schemas/zone.ts';
import { defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestGenericZones } from './zones.ts';

export const genericZonesJob = defineJob({
  id: 'zones',
  summary: 'Boundary file of any producer (GeoJSON or Shapefile, any CRS) as one zone level -> <country>/zones, <country>/zone_cells',
  sources: [],
  options: z.object({
    country: option.oneOf('country', Country),
    level: option.oneOf('level', ZoneLevel, '<level>'),
    input: option.path('FILE'),
    'code-property': option.text('P'),
    'name-property': option.text('P').optional(),
    'parent-property': option.text('P').optional(),
    'parent-level': option.oneOf('parent-level', ZoneLevel, 'L').optional(),
    encoding: option.text('E').optional(),
    layer: option.text('NAME').optional(),
    crs: option.text('EPSG:NNNN').optional(),
  }),
  reads: [],
  writes: ['zones', 'zone_cells'],
  samples: [],
  run: (ctx, o) => ingestGenericZones(ctx, {
    country: o.country, level: o.level, input: o.input, codeProperty: o['code-property'], nameProperty: o['name-property'],
    parentProperty: o['parent-property'], parentLevel: o['parent-level'], encoding: o.encoding, layer: o.layer, crs: o.crs,
  }),
});
