import { getHexagonEdgeLengthAvg, UNITS } from 'h3-js';
import type { Warehouse } from '../../core/warehouse.ts';
import { rangesAround } from '../../../schemas/tables/cells.ts';

export interface NearbySaleRow {
  id: string; date: string; address: string | null; property_type: 'apartment' | 'house' | 'other'; surface: number | null; rooms: number | null;
  price: number | null; price_per_m2: number | null; parcels: string; distance_m: number;
}
export interface RadiusStats { property_type: 'apartment' | 'house' | 'other'; count: number; priced: number; median: number | null; q1: number | null; q3: number | null }

/**
 * Candidate cells of a radius query (DESIGN.md, Spatial indexing): a gridDisk at a resolution
 * whose rings cover the radius with few cells, each cell a contiguous interval of the table's
 * point cells, so the query is a few BETWEENs on the sorted UBIGINT column before the exact distance.
 */
export function radiusRanges(lat: number, lng: number, radiusM: number): [bigint, bigint][] {
  const res = radiusM > 700 ? 8 : 9;
  // Neighbouring centres are at least 1.5 edges apart across the ring: k rings reach k * 1.5 edges.
  const k = Math.ceil(radiusM / (1.5 * getHexagonEdgeLengthAvg(res, UNITS.m))) + 1;
  return rangesAround(lat, lng, res, k);
}

/** Great-circle distance in meters as a SQL expression over latitude/longitude (mean Earth radius). */
const DISTANCE = `2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - $1) / 2), 2) + cos(radians($1)) * cos(radians(latitude)) * pow(sin(radians(longitude - $2) / 2), 2)))`;

/** The sales within `radiusM` of a point, as a relation with `distance_m`; null when no file can hold one. */
function within(warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null): string | null {
  const ranges = radiusRanges(lat, lng, radiusM);
  const files = warehouse.filesWithCells('fr', 'sales', ranges[0]![0], ranges.reduce((m, r) => (r[1] > m ? r[1] : m), 0n));
  if (files.length === 0) return null;
  const list = files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ');
  // Cell bounds are integers computed here, never client text.
  const where = ranges.map(([lo, hi]) => `cell BETWEEN ${lo} AND ${hi}`).join(' OR ');
  return `(SELECT * FROM (SELECT *, ${DISTANCE} AS distance_m FROM read_parquet([${list}], union_by_name = true) WHERE (${where})) WHERE distance_m <= ${Math.floor(radiusM)}${type ? ` AND property_type = '${type === 'house' ? 'house' : 'apartment'}'` : ''})`;
}

/** Counts per property type around the point, and the median price per m² of the window's priced sales. */
export async function radiusStats(warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null, window: { start: string; end: string } | null): Promise<RadiusStats[]> {
  const rel = within(warehouse, lat, lng, radiusM, type);
  if (!rel) return [];
  const inWindow = window ? `price_per_m2 IS NOT NULL AND date BETWEEN DATE '${window.start}' AND DATE '${window.end}'` : 'false';
  const rows = await warehouse.query<{ property_type: RadiusStats['property_type']; count: bigint; priced: bigint; median: number | null; q1: number | null; q3: number | null }>(
    `SELECT property_type, count(*) AS count, count(*) FILTER (WHERE ${inWindow}) AS priced,
       quantile_cont(price_per_m2, 0.5) FILTER (WHERE ${inWindow}) AS median, quantile_cont(price_per_m2, 0.25) FILTER (WHERE ${inWindow}) AS q1,
       quantile_cont(price_per_m2, 0.75) FILTER (WHERE ${inWindow}) AS q3 FROM ${rel} GROUP BY property_type`, [lat, lng]);
  return rows.map((r) => ({ ...r, count: Number(r.count), priced: Number(r.priced) }));
}

/** A page of the sales around the point, nearest first (ties by date, most recent first). */
export async function nearbySales(warehouse: Warehouse, lat: number, lng: number, radiusM: number, type: string | null, limit: number, offset: number): Promise<NearbySaleRow[]> {
  const rel = within(warehouse, lat, lng, radiusM, type);
  if (!rel) return [];
  const rows = await warehouse.query<Omit<NearbySaleRow, 'distance_m'> & { distance_m: number }>(
    `SELECT id, strftime(date, '%Y-%m-%d') AS date, address, property_type, surface, rooms, price, price_per_m2, parcels, distance_m
     FROM ${rel} ORDER BY distance_m, date DESC, id LIMIT ${Math.floor(limit)} OFFSET ${Math.floor(offset)}`, [lat, lng]);
  return rows;
}
