import { dirname, join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import { areaCellsTable } from '../../../schemas/tables/areas.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { indexCache, lowerBound } from '../search/warehouse-index.ts';

/**
 * An in-process index of an areas table (schemas/tables/areas.ts), the same answer as the DuckDB
 * path of areas.ts: the cover's cells sorted (with the area and whether the cell is interior), and
 * every outline packed in one array of coordinates for the exact test on a border cell.
 *
 * Why: at national size (BRGM's clay layer: hundreds of thousands of detailed polygons) the DuckDB
 * path reads, for every point, the cover file filtered by ten cells and then the outlines of the
 * areas met on a border cell, whose row groups hold megabytes of GeoJSON text to decompress and
 * parse: hundreds of milliseconds a point (docs/benchmarks.md, risks). Here a point costs ten
 * binary searches and a point-in-polygon test on a few outlines.
 */
export interface AreasIndex {
  size: number;
  bytes: number;
  /** The areas containing the point, given the cell of the point and its ancestors (at most one hit per area). */
  at(cells: readonly bigint[], lng: number, lat: number): { id: string; layer: string; attributes: string | null; source: string }[];
  layers: Set<string>;
}

/** Default memory budget of one areas table: above it the index is not built and DuckDB answers. */
export const AREAS_INDEX_BUDGET = 1.5 * 2 ** 30;

/**
 * Even-odd crossing test over every ring of an area (outer rings and holes alike): inside when the
 * ray crosses an odd number of edges. A point on an edge counts as inside, as turf's
 * booleanPointInPolygon (used by the DuckDB path) has it.
 */
function inside(coords: Float64Array, ringStarts: Uint32Array, firstRing: number, lastRing: number, x: number, y: number): boolean {
  let odd = false;
  for (let r = firstRing; r < lastRing; r++) {
    const start = ringStarts[r]!, end = ringStarts[r + 1]!;
    for (let i = start, j = end - 2; i < end; j = i, i += 2) {
      const xi = coords[i]!, yi = coords[i + 1]!, xj = coords[j]!, yj = coords[j + 1]!;
      // On the edge: inside (collinear and within the segment's box).
      if ((x - xi) * (yj - yi) === (y - yi) * (xj - xi) && x >= Math.min(xi, xj) && x <= Math.max(xi, xj) && y >= Math.min(yi, yj) && y <= Math.max(yi, yj)) return true;
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}

/**
 * The rows, text and GeoJSON characters of an areas table and the rows of its cover, from the
 * files' Parquet metadata (a string's uncompressed size is its length and 4 bytes): reading the
 * outlines to measure them read the whole table (22 GB of Parquet for the nation's parcels) at
 * every start only to find it over budget. The layer and source, dictionary-encoded, are counted
 * at 24 characters a row. Without the files' list (a warehouse of tests), the rows are measured.
 */
async function sizesOf(warehouse: Warehouse, country: Country, table: string, cellsTable: string): Promise<{ n: number; text: number; geo: number; c: number }> {
  const files = warehouse.filesOf?.(country, table), cellFiles = warehouse.filesOf?.(country, cellsTable);
  if (files?.length && cellFiles?.length) {
    const glob = (f: string) => quotedString(join(dirname(f), '*.parquet'));
    const cols = await warehouse.query<{ col: string; bytes: number; n: number }>(
      `SELECT path_in_schema AS col, sum(total_uncompressed_size)::DOUBLE AS bytes, sum(num_values)::DOUBLE AS n FROM parquet_metadata(${glob(files[0]!)})
       WHERE path_in_schema IN ('id', 'attributes', 'geometry') GROUP BY 1`,
    );
    const of = (col: string) => cols.find((r) => r.col === col) ?? { bytes: 0, n: 0 };
    const n = of('id').n;
    const [{ c }] = await warehouse.query<{ c: number }>(`SELECT coalesce(sum(num_rows), 0)::DOUBLE AS c FROM parquet_file_metadata(${glob(cellFiles[0]!)})`) as [{ c: number }];
    return { n, text: of('id').bytes + of('attributes').bytes - 8 * n + 24 * n, geo: of('geometry').bytes - 4 * n, c };
  }
  const [{ n, text, geo }] = await warehouse.query<{ n: number; text: number; geo: number }>(
    `SELECT count(*)::INTEGER AS n, coalesce(sum(strlen(id) + strlen(layer) + strlen(coalesce(attributes, '')) + strlen(source)), 0)::DOUBLE AS text,
       coalesce(sum(strlen(geometry)), 0)::DOUBLE AS geo FROM ${country}_${table}`,
  ) as [{ n: number; text: number; geo: number }];
  const [{ c }] = await warehouse.query<{ c: number }>(`SELECT count(*)::DOUBLE AS c FROM ${country}_${cellsTable}`) as [{ c: number }];
  return { n, text, geo, c };
}

export async function buildAreasIndex(warehouse: Warehouse, country: Country, table: string, budget = AREAS_INDEX_BUDGET): Promise<AreasIndex | null> {
  const cellsTable = areaCellsTable(table);
  if (!warehouse.has(country, table) || !warehouse.has(country, cellsTable)) return null;
  const view = `${country}_${table}`;
  const { n, text, geo, c } = await sizesOf(warehouse, country, table, cellsTable);
  // A coordinate pair takes about 36 characters of GeoJSON and 16 bytes here; a cell 13 bytes; strings twice their length.
  const bytes = Math.round(c * 13 + (geo / 36) * 16 + text * 2 + n * 16);
  if (bytes > budget) return null;
  const ids: string[] = [], layers: string[] = [], attributes: (string | null)[] = [], sources: string[] = [];
  const byId = new Map<string, number>();
  // Outlines: coordinates [x0, y0, x1, y1...] per ring; each area's rings from areaRings[k] to areaRings[k + 1].
  let coords = new Float64Array(Math.max(1024, Math.ceil((geo / 36) * 2)));
  let at = 0;
  const ringStarts: number[] = [];
  const areaRings: number[] = [];
  const push = (x: number, y: number) => {
    if (at + 2 > coords.length) { const next = new Float64Array(coords.length * 2); next.set(coords); coords = next; }
    coords[at++] = x; coords[at++] = y;
  };
  await warehouse.scan(`SELECT id, layer, attributes, source, geometry FROM ${view}`, (cols) => {
    const [id, layer, attrs, source, geometry] = cols as [string[], string[], (string | null)[], string[], string[]];
    for (let r = 0; r < id.length; r++) {
      byId.set(id[r]!, ids.length);
      ids.push(id[r]!); layers.push(layer[r]!); attributes.push(attrs[r] ?? null); sources.push(source[r]!);
      areaRings.push(ringStarts.length);
      const g = JSON.parse(geometry[r]!) as { type: string; coordinates: number[][][] | number[][][][] };
      const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
      for (const rings of polygons) for (const ring of rings) {
        ringStarts.push(at);
        for (const p of ring) push(p[0]!, p[1]!);
      }
    }
  });
  areaRings.push(ringStarts.length);
  ringStarts.push(at);
  const starts = Uint32Array.from(ringStarts), firsts = Uint32Array.from(areaRings);
  // The cover, sorted by cell (BIGINT: every H3 index is below 2^63, so signed and unsigned orders agree).
  const total = Math.round(c);
  const cells = new BigUint64Array(total), areaOf = new Int32Array(total), interior = new Uint8Array(total);
  let i = 0;
  await warehouse.scan(`SELECT cell, id, interior FROM ${country}_${cellsTable} ORDER BY cell`, (cols) => {
    const [cell, id, inner] = cols as [bigint[], string[], boolean[]];
    for (let r = 0; r < cell.length && i < total; r++) {
      const k = byId.get(id[r]!);
      if (k === undefined) continue; // a cover row without its area (never written so): ignored, as the SQL path's join would
      cells[i] = BigInt.asUintN(64, cell[r]!); areaOf[i] = k; interior[i] = inner[r] ? 1 : 0; i++;
    }
  });
  const used = i;
  return {
    size: ids.length,
    bytes,
    layers: new Set(layers),
    at(query, lng, lat) {
      // Per area: interior if any of its cells here is interior, else a border to test exactly.
      const met = new Map<number, boolean>();
      for (const q of query) {
        const u = BigInt.asUintN(64, q);
        for (let k = lowerBound(cells.subarray(0, used), u); k < used && cells[k] === u; k++) met.set(areaOf[k]!, (met.get(areaOf[k]!) ?? false) || interior[k] === 1);
      }
      const out: { id: string; layer: string; attributes: string | null; source: string }[] = [];
      for (const [k, isInterior] of met) {
        if (isInterior || inside(coords, starts, firsts[k]!, firsts[k + 1]!, lng, lat)) out.push({ id: ids[k]!, layer: layers[k]!, attributes: attributes[k]!, source: sources[k]! });
      }
      return out;
    },
  };
}

/** The budget indexes are built with (a bench sets 0 to measure the DuckDB path alone). */
export const areasIndexOptions = { budget: AREAS_INDEX_BUDGET };

const caches = new Map<string, ReturnType<typeof indexCache<AreasIndex>>>();
const cacheOf = (table: string) => {
  let c = caches.get(table);
  if (!c) { c = indexCache([table, areaCellsTable(table)], (w, country) => buildAreasIndex(w, country, table, areasIndexOptions.budget)); caches.set(table, c); }
  return c;
};

/** The index of an areas table once built (null meanwhile: DuckDB answers). */
export const areasIndexOf = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).of(warehouse, country);
export const areasIndexReady = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).ready(warehouse, country);
