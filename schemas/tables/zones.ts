import { z } from 'zod';
import { ZoneLevel } from '../zone.ts';

/**
 * Row of the table `zones` (data/<country>/zones/<partition>.parquet): one administrative or
 * statistical zone with its outline in WGS84 GeoJSON, and its immediate parent.
 */
export const ZoneRow = z.object({
  level: ZoneLevel,
  code: z.string().describe('official code (INSEE, NIS, geographic code...)'),
  name: z.string().nullable(),
  parent_level: ZoneLevel.nullable(),
  parent_code: z.string().nullable(),
  min_lng: z.number().describe('extent of the outline, WGS84').meta({ unit: 'degree' }), min_lat: z.number().meta({ unit: 'degree' }), max_lng: z.number().meta({ unit: 'degree' }), max_lat: z.number().meta({ unit: 'degree' }),
  geometry: z.string().describe('GeoJSON geometry, WGS84 [lng, lat], as published (reprojected)'),
  geometry_simplified: z.string().describe('GeoJSON geometry simplified for display (about 10 m tolerance)'),
  source: z.string(),
});
export type ZoneRow = z.infer<typeof ZoneRow>;

export const ZONE_COLUMNS = {
  level: 'VARCHAR', code: 'VARCHAR', name: 'VARCHAR', parent_level: 'VARCHAR', parent_code: 'VARCHAR',
  min_lng: 'DOUBLE', min_lat: 'DOUBLE', max_lng: 'DOUBLE', max_lat: 'DOUBLE',
  geometry: 'VARCHAR', geometry_simplified: 'VARCHAR', source: 'VARCHAR',
} as const satisfies Record<keyof ZoneRow, string>;

/**
 * Row of the table `zone_cells`: the H3 cover of each zone. `interior` cells lie wholly inside
 * the zone (compacted, any resolution up to ZONE_COVER_RES); other cells touch its border and
 * need an exact point-in-polygon test (DESIGN.md, Spatial indexing).
 */
export const ZoneCellRow = z.object({
  cell: z.bigint(),
  res: z.number().int(),
  level: ZoneLevel,
  code: z.string(),
  interior: z.boolean(),
});
export type ZoneCellRow = z.infer<typeof ZoneCellRow>;

export const ZONE_CELL_COLUMNS = {
  cell: 'BIGINT', res: 'TINYINT', level: 'VARCHAR', code: 'VARCHAR', interior: 'BOOLEAN',
} as const satisfies Record<keyof ZoneCellRow, string>;

/** Resolution of border cells (edge about 200 m): finer means more cells, coarser more exact tests. */
export const ZONE_COVER_RES = 9;
