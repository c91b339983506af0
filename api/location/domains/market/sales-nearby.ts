export { radiusRanges, rangeClusters } from '../../kinds/radius.ts';
import { quotedString } from '@duckdb/node-api';
import type { Warehouse } from '../../../core/warehouse.ts';
import { DISTANCE_SQL as DISTANCE, radiusRanges, rangeClusters } from '../../kinds/radius.ts';
import { salesIndexOf } from './sales-index.ts';

export interface NearbySaleRow {
  id: string; date: string; address: string | null; property_type: 'apartment' | 'house' | 'other'; surface: number | null; rooms: number | null;
  price: number | null; price_per_m2: number | null; parcels: string[]; distance_m: number;
}
export interface RadiusStats { property_type: 'apartment' | 'house' | 'other'; count: number; priced: number; median: number | null; q1: number | null; q3: number | null }

const COLUMNS = 'id, date, address, property_type, surface, rooms, price, price_per_m2, parcels, latitude, longitude';

/** The sales within `radiusM` of a point, as a relation with `distance_m`; null when no file can hold one. */
function within(warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null): string | null {
  const scans: string[] = [];
  for (const c of rangeClusters(radiusRanges(lat, lng, radiusM))) {
    const files = warehouse.filesWithCells('fr', 'sales', c.lo, c.hi);
    if (files.length === 0) continue;
    // Cell bounds are integers computed here, never client text. The envelope alone: the few rows
    // of its gaps cost less than DuckDB evaluating one BETWEEN per range on every row (measured 3x).
    scans.push(`SELECT ${COLUMNS} FROM read_parquet([${files.map(quotedString).join(', ')}], union_by_name = true)
      WHERE cell BETWEEN ${c.lo}::BIGINT AND ${c.hi}::BIGINT`);
  }
  if (scans.length === 0) return null;
  const typed = type ? ` AND property_type = '${type === 'house' ? 'house' : 'apartment'}'` : '';
  return `(SELECT * FROM (SELECT *, ${DISTANCE} AS distance_m FROM (${scans.join(' UNION ALL ')})) WHERE distance_m <= ${Math.floor(radiusM)}${typed})`;
}

/**
 * Sales around a point: counts per property type (with the median and quartiles of the window's
 * priced sales) and a page of the nearest sales (ties by date, most recent first). From the
 * in-process index (sales-index.ts) once it is built, else from the Parquet files.
 */
export async function salesAround(
  warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null,
  window: { start: string; end: string } | null, page: { limit: number; offset: number },
): Promise<{ stats: RadiusStats[]; items: NearbySaleRow[] }> {
  const index = salesIndexOf(warehouse);
  if (index) return index.around(lat, lng, radiusM, type, window, page);
  return salesAroundSql(warehouse, lat, lng, radiusM, type, window, page);
}

/** The same answer by one DuckDB scan of the Parquet files: before the index is built, and as its reference in tests. */
export async function salesAroundSql(
  warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null,
  window: { start: string; end: string } | null, page: { limit: number; offset: number },
): Promise<{ stats: RadiusStats[]; items: NearbySaleRow[] }> {
  const rel = within(warehouse, lat, lng, radiusM, type);
  if (!rel) return { stats: [], items: [] };
  const inWindow = window ? `price_per_m2 IS NOT NULL AND date BETWEEN DATE '${window.start}' AND DATE '${window.end}'` : 'false';
  const rows = await warehouse.query<Record<string, unknown>>(
    `WITH r AS MATERIALIZED ${rel}
     SELECT 'stat' AS kind, property_type, count(*)::INTEGER AS count, (count(*) FILTER (WHERE ${inWindow}))::INTEGER AS priced,
       quantile_cont(price_per_m2, 0.5) FILTER (WHERE ${inWindow}) AS median, quantile_cont(price_per_m2, 0.25) FILTER (WHERE ${inWindow}) AS q1,
       quantile_cont(price_per_m2, 0.75) FILTER (WHERE ${inWindow}) AS q3,
       NULL AS id, NULL AS date, NULL AS address, NULL::DOUBLE AS surface, NULL::INTEGER AS rooms, NULL::DOUBLE AS price, NULL::DOUBLE AS price_per_m2, NULL AS parcels, NULL::DOUBLE AS distance_m
     FROM r GROUP BY property_type
     UNION ALL
     SELECT * FROM (SELECT 'item' AS kind, property_type, NULL, NULL, NULL, NULL, NULL, id, strftime(date, '%Y-%m-%d'), address, surface, rooms, price, price_per_m2, parcels, distance_m
       FROM r ORDER BY distance_m, date DESC, id LIMIT ${Math.floor(page.limit)} OFFSET ${Math.floor(page.offset)})`, [lat, lng]);
  const stats: RadiusStats[] = [];
  const items: NearbySaleRow[] = [];
  for (const r of rows) {
    if (r.kind === 'stat') stats.push({ property_type: r.property_type as RadiusStats['property_type'], count: r.count as number, priced: r.priced as number, median: r.median as number | null, q1: r.q1 as number | null, q3: r.q3 as number | null });
    else items.push({ id: r.id as string, date: r.date as string, address: r.address as string | null, property_type: r.property_type as NearbySaleRow['property_type'], surface: r.surface as number | null, rooms: r.rooms as number | null, price: r.price as number | null, price_per_m2: r.price_per_m2 as number | null, parcels: r.parcels as string[], distance_m: r.distance_m as number });
  }
  // UNION ALL keeps no order across its branches: the page is sorted again here.
  items.sort((a, b) => a.distance_m - b.distance_m || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || (a.id < b.id ? -1 : 1));
  return { stats, items };
}
