import { getHexagonEdgeLengthAvg, UNITS } from 'h3-js';
import { rangesAround } from '../../../schemas/tables/cells.ts';

/**
 * What every radius query shares (sales, points): the candidate cells of a disk, their grouping
 * into Parquet scans, and one great-circle distance, written once in SQL and once in TypeScript
 * so that the in-memory indexes and the DuckDB reference path agree to the last bit.
 */

/**
 * Candidate cells of a radius query (DESIGN.md, Spatial indexing): a gridDisk at a resolution
 * whose rings cover the radius with few cells, each cell a contiguous interval of the table's
 * point cells, so the query is a few BETWEENs on the sorted BIGINT column before the exact distance.
 */
export function radiusRanges(lat: number, lng: number, radiusM: number): [bigint, bigint][] {
  const res = radiusM > 700 ? 8 : 9;
  // Neighbouring centres are at least 1.5 edges apart across the ring: k rings reach k * 1.5 edges.
  const k = Math.ceil(radiusM / (1.5 * getHexagonEdgeLengthAvg(res, UNITS.m))) + 1;
  return rangesAround(lat, lng, res, k);
}

/** Integer span of one resolution-7 cell's point cells (8 digits of 3 bits below it). */
const CLUSTER_GAP = 1n << 24n;

/**
 * The ranges grouped in clusters of nearby integers: each cluster is one Parquet scan whose
 * BETWEEN prunes row groups by their cell statistics. A disk usually falls in one to three
 * clusters; rows of a gap between ranges are only read, never served (the exact distance decides).
 */
export function rangeClusters(ranges: [bigint, bigint][]): { lo: bigint; hi: bigint; ranges: [bigint, bigint][] }[] {
  const out: { lo: bigint; hi: bigint; ranges: [bigint, bigint][] }[] = [];
  for (const r of [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const last = out.at(-1);
    if (last && r[0] - last.hi <= CLUSTER_GAP) { last.ranges.push(r); if (r[1] > last.hi) last.hi = r[1]; } else out.push({ lo: r[0], hi: r[1], ranges: [r] });
  }
  return out;
}

/** Great-circle distance in meters as a SQL expression over latitude/longitude (mean Earth radius). */
export const DISTANCE_SQL = `2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - $1) / 2), 2) + cos(radians($1)) * cos(radians(latitude)) * pow(sin(radians(longitude - $2) / 2), 2)))`;

export const RAD = Math.PI / 180;
/** DISTANCE_SQL step for step (radians = x * (pi / 180); pow(x, 2) = x * x, both correctly rounded); cosLat = cos(lat * RAD). */
export function distanceM(lat: number, lng: number, cosLat: number, la: number, ln: number): number {
  const a = Math.sin((la - lat) * RAD / 2), b = Math.sin((ln - lng) * RAD / 2);
  return 2 * 6371008.8 * Math.asin(Math.sqrt(a * a + cosLat * Math.cos(la * RAD) * (b * b)));
}
