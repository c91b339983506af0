import { z } from 'zod';

/**
 * Table kind "areas" (issue 13, section 4): polygons with a layer and attributes (hazard zones,
 * planning zones, polluted parcels). Unlike zones, areas of one layer may overlap: a point gets
 * every area containing it. Table `<name>` holds the outlines, table `<name>_cells` their H3 cover.
 */
export const AreaRow = z.object({
  id: z.string().min(1).describe("the source's own identifier of the area, prefixed by the source id"),
  layer: z.string().min(1).describe('what the area says (clay_shrink_swell, flood_high...); the domain maps it'),
  attributes: z.string().nullable().describe('JSON object of the published fields the domain serves (level, status, name...)'),
  min_lng: z.number().describe('extent of the outline, WGS84').meta({ unit: 'degree' }), min_lat: z.number().meta({ unit: 'degree' }), max_lng: z.number().meta({ unit: 'degree' }), max_lat: z.number().meta({ unit: 'degree' }),
  geometry: z.string().describe('GeoJSON Polygon or MultiPolygon, WGS84 [lng, lat]'),
  source: z.string(),
});
export type AreaRow = z.infer<typeof AreaRow>;

export const AREA_COLUMNS = {
  id: 'VARCHAR', layer: 'VARCHAR', attributes: 'VARCHAR', min_lng: 'DOUBLE', min_lat: 'DOUBLE', max_lng: 'DOUBLE', max_lat: 'DOUBLE', geometry: 'VARCHAR', source: 'VARCHAR',
} as const satisfies Record<keyof AreaRow, string>;

/** Row of `<name>_cells`: the cover of each area, interior cells compacted, border cells at ZONE_COVER_RES (as zone_cells). */
export const AreaCellRow = z.object({
  cell: z.bigint(),
  res: z.number().int(),
  id: z.string(),
  interior: z.boolean(),
});
export type AreaCellRow = z.infer<typeof AreaCellRow>;

export const AREA_CELL_COLUMNS = { cell: 'BIGINT', res: 'TINYINT', id: 'VARCHAR', interior: 'BOOLEAN' } as const satisfies Record<keyof AreaCellRow, string>;

/** The cover table of an areas table. */
export const areaCellsTable = (table: string) => `${table}_cells`;
