import type { Country } from '../../../schemas/common.ts';
import type { ZoneLevel } from '../../../schemas/zone.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { indexCache, lowerBound } from '../search/warehouse-index.ts';

/** A zone whose cover holds a cell: the cell is inside it (interior) or on its border. */
export interface CoverRow { level: ZoneLevel; code: string; interior: boolean; name: string | null; source: string | null }

/**
 * In-process copy of a country's zone cover (zone_cells joined to the zone names), for the zone
 * lookup every location request makes: the cells in order as a typed array, each with its zone
 * and whether it is interior, so the zones of a point's cell and its ancestors are ten binary
 * searches instead of a DuckDB query (about 6 ms each, mostly the query's own cost).
 * Memory: 13 bytes a cover cell, plus one small object per zone.
 */
export interface ZoneIndex {
  readonly size: number;
  /** Cover rows of the given cells (distinct), in cell order. */
  rowsOf(cells: readonly bigint[]): CoverRow[];
}

/** The cover rows (cell, zone, interior flag, zone name and source) from DuckDB's memory tables; `where` filters the cells. */
export function coverSql(country: Country, where = 'true'): string {
  return `SELECT DISTINCT c.cell, c.level, c.code, c.interior, n.name, n.source FROM ${country}_zone_cells_mem c
    LEFT JOIN ${country}_zone_names n ON n.level = c.level AND n.code = c.code WHERE ${where}`;
}

export async function buildZoneIndex(warehouse: Warehouse, country: Country): Promise<ZoneIndex | null> {
  if (!warehouse.has(country, 'zone_cells_mem') || !warehouse.has(country, 'zone_names')) return null;
  const select = coverSql(country);
  const [{ n }] = await warehouse.query<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM (${select})`) as [{ n: number }];
  const cells = new BigUint64Array(n), zoneOf = new Uint32Array(n), interior = new Uint8Array(n);
  const zones: Omit<CoverRow, 'interior'>[] = [];
  const zoneIds = new Map<string, number>();
  let row = 0;
  await warehouse.scan(`${select} ORDER BY c.cell, c.level, c.code`, (c) => {
    const len = c[0]!.length;
    if (row + len > n) throw new Error('zone cover changed while the zone index was read');
    for (let i = 0; i < len; i++, row++) {
      const level = c[1]![i] as ZoneLevel, code = c[2]![i] as string;
      const key = `${level}\u0000${code}`;
      let z = zoneIds.get(key);
      if (z === undefined) {
        z = zones.push({ level, code, name: c[4]![i] as string | null, source: c[5]![i] as string | null }) - 1;
        zoneIds.set(key, z);
      }
      cells[row] = c[0]![i] as bigint;
      zoneOf[row] = z;
      interior[row] = c[3]![i] ? 1 : 0;
    }
  });
  if (row !== n) throw new Error('zone cover changed while the zone index was read');
  return {
    size: n,
    rowsOf(wanted) {
      const out: CoverRow[] = [];
      for (const cell of [...new Set(wanted)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        for (let i = lowerBound(cells, cell); i < n && cells[i] === cell; i++) out.push({ ...zones[zoneOf[i]!]!, interior: interior[i] === 1 });
      }
      return out;
    },
  };
}

const cache = indexCache<ZoneIndex>(['zone_cells', 'zones'], (warehouse, country) => buildZoneIndex(warehouse, country));

/** The zone index of the warehouse's current files for a country, or null while it is built (the SQL path answers). */
export function zoneIndexOf(warehouse: Warehouse, country: Country): ZoneIndex | null {
  return cache.of(warehouse, country);
}

/** Resolves when the country's current zone index is built (null: no zone tables, or the read failed). */
export function zoneIndexReady(warehouse: Warehouse, country: Country): Promise<ZoneIndex | null> {
  return cache.ready(warehouse, country);
}
