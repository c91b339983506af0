import { z } from 'zod';

/**
 * Table kind "points" (issue 13, section 4): places, stops, polluted sites, stations... one row per
 * point published by a source, sorted by `cell` so that a radius query reads a few row groups.
 * A points table is a folder data/<country>/<table>/ named by the domain that reads it.
 */
export const PointRow = z.object({
  id: z.string().min(1).describe("the source's own identifier of the point, prefixed by the source id"),
  cell: z.bigint().describe('H3 cell at resolution 15 of the position, BIGINT (signed 64-bit: every H3 index is below 2^63)'),
  longitude: z.number().min(-180).max(180).describe('WGS84').meta({ unit: 'degree' }),
  latitude: z.number().min(-90).max(90).describe('WGS84').meta({ unit: 'degree' }),
  category: z.string().regex(/^[a-z_]+(\.[a-z_]+)?$/, 'category must be group or group.category (snake_case)').describe('group.category of the taxonomy of the domain (spec 2.5)'),
  name: z.string().nullable(),
  attributes: z.string().nullable().describe('JSON object of the other published fields the domain serves (address, status, lines...)'),
  source: z.string().describe('source id of the catalogue'),
});
export type PointRow = z.infer<typeof PointRow>;

export const POINT_COLUMNS = {
  id: 'VARCHAR', cell: 'BIGINT', longitude: 'DOUBLE', latitude: 'DOUBLE', category: 'VARCHAR', name: 'VARCHAR', attributes: 'VARCHAR', source: 'VARCHAR',
} as const satisfies Record<keyof PointRow, string>;
