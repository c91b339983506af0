import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../../schemas/common.ts';
import type { ZoneLevel } from '../../../schemas/zone.ts';
import { ZONE_COVER_RES } from '../../../schemas/tables/zones.ts';
import type { MemoryTable, Warehouse } from '../../core/warehouse.ts';
import { cellAndAncestors } from '../../../schemas/tables/cells.ts';
import { zonesOfPointAsync } from '../../../schemas/tables/zone-of-point.ts';
import { coverSql, zoneIndexOf, type CoverRow } from './zone-index.ts';

/** The zone cover and the zone names, held in DuckDB's memory: every lookup reads them. */
export const ZONE_MEMORY_TABLES: Record<string, MemoryTable> = {
  zone_cells_mem: { from: 'zone_cells', select: 'SELECT cell, level, code, interior FROM {src} ORDER BY cell' },
  zone_names: { from: 'zones', select: 'SELECT level, code, any_value(name) AS name, any_value(parent_level) AS parent_level, any_value(parent_code) AS parent_code, any_value(source) AS source FROM {src} GROUP BY level, code' },
};

export interface FoundZone { level: ZoneLevel; code: string; name: string | null; /** Catalogue id of the source the outline comes from. */ source: string | null }

/**
 * The zone of each level containing a point (DESIGN.md, Spatial indexing): interior cells of the
 * H3 cover answer at once; border cells get an exact point-in-polygon test on their few candidates,
 * so the answer is the same as an exact test on both sides of a border.
 */
export function createZoneLookup(warehouse: Warehouse, cacheSize = 2000) {
  const geometries = new Map<string, Polygon | MultiPolygon>();
  const levelCache = new Map<Country, { generation: number; levels: Set<ZoneLevel> }>();
  let geometryGeneration = warehouse.generation;
  async function geometry(country: Country, level: string, code: string): Promise<Polygon | MultiPolygon | null> {
    // Outlines change when a partition is published again: the cache lives for one warehouse generation.
    if (geometryGeneration !== warehouse.generation) { geometries.clear(); geometryGeneration = warehouse.generation; }
    const key = `${country}:${level}:${code}`;
    const hit = geometries.get(key);
    if (hit) { geometries.delete(key); geometries.set(key, hit); return hit; }
    const rows = await warehouse.query<{ geometry: string }>(`SELECT geometry FROM ${country}_zones WHERE level = $1 AND code = $2 LIMIT 1`, [level, code]);
    if (!rows[0]) return null;
    const g = JSON.parse(rows[0].geometry) as Polygon | MultiPolygon;
    geometries.set(key, g);
    if (geometries.size > cacheSize) geometries.delete(geometries.keys().next().value!);
    return g;
  }

  return {
    /** Zones containing [lng, lat], one per level found; empty when the country has no zones table. */
    async zonesAt(country: Country, lng: number, lat: number): Promise<FoundZone[]> {
      if (!warehouse.has(country, 'zone_cells_mem') || !warehouse.has(country, 'zone_names')) return [];
      const cells = cellAndAncestors(lat, lng, ZONE_COVER_RES);
      // The cover in memory (zone-index.ts) once built; DuckDB's copy of it until then.
      const index = zoneIndexOf(warehouse, country);
      const rows = index ? index.rowsOf(cells) : await warehouse.query<CoverRow>(
        `${coverSql(country, `c.cell IN (${cells.map((_, i) => `$${i + 1}`).join(', ')})`)} ORDER BY c.cell, c.level, c.code`, cells,
      );
      const found = await zonesOfPointAsync(
        rows.map((r) => ({ level: r.level, code: r.code, interior: r.interior, name: r.name, source: r.source })),
        async (z) => { const g = await geometry(country, z.level, z.code); return g !== null && booleanPointInPolygon([lng, lat], g); },
      );
      return found.map(({ level, code, name, source }) => ({ level, code, name, source }));
    },

    /** Levels present in the country's zones table (to tell "not ingested" from "not found"). */
    async levels(country: Country): Promise<Set<ZoneLevel>> {
      const hit = levelCache.get(country);
      if (hit && hit.generation === warehouse.generation) return hit.levels;
      const levels = warehouse.has(country, 'zone_names')
        ? new Set((await warehouse.query<{ level: ZoneLevel }>(`SELECT DISTINCT level FROM ${country}_zone_names`)).map((r) => r.level))
        : new Set<ZoneLevel>();
      levelCache.set(country, { generation: warehouse.generation, levels });
      return levels;
    },
  };
}
export type ZoneLookup = ReturnType<typeof createZoneLookup>;
