import { basename } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { quotedString, type DuckDBValue } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import { areaCellsTable } from '../../../schemas/tables/areas.ts';
import { cellAndAncestors } from '../../../schemas/tables/cells.ts';
import { ZONE_COVER_RES } from '../../../schemas/tables/zones.ts';
import { perRefresh, type Warehouse } from '../../core/warehouse.ts';
import { areasIndexOf } from './areas-index.ts';

/**
 * The API reader of the "areas" table kind (schemas/tables/areas.ts): every area containing a
 * point, exactly. The point's cell and its ancestors are looked up in the cover; an interior cell
 * answers at once, a border cell by a point-in-polygon test on the area's outline, so a point on
 * either side of an edge gets the answer an exact test would give (as zones, DESIGN.md).
 */
export interface AreaHit { id: string; layer: string; attributes: Record<string, unknown> | null; source: string }

const list = (files: string[]) => `[${files.map(quotedString).join(', ')}]`;

/** The order areasAt answers in: by layer, then id. */
export const byLayerThenId = (a: Pick<AreaHit, 'layer' | 'id'>, b: Pick<AreaHit, 'layer' | 'id'>) => (a.layer < b.layer ? -1 : a.layer > b.layer ? 1 : a.id < b.id ? -1 : 1);

/** Every area containing the point: from the in-process index once built (areas-index.ts), else through DuckDB; the same answer. */
export async function areasAt(warehouse: Warehouse, country: Country, table: string, lng: number, lat: number): Promise<AreaHit[]> {
  const cellsTable = areaCellsTable(table);
  if (!warehouse.has(country, table) || !warehouse.has(country, cellsTable)) return [];
  const cells = cellAndAncestors(lat, lng, ZONE_COVER_RES);
  const index = areasIndexOf(warehouse, country, table);
  if (index) {
    return index.at(cells, lng, lat).map((r) => ({ id: r.id, layer: r.layer, attributes: r.attributes ? JSON.parse(r.attributes) : null, source: r.source })).sort(byLayerThenId);
  }
  return areasAtSql(warehouse, country, table, lng, lat, cells);
}

const filesByName = new WeakMap<readonly string[], Map<string, string>>();

/**
 * The outline files of the cover files hit: the areas writer writes an area and its cover to
 * partitions of one name (AreasWriter), so an area met in `<table>_cells/<p>.parquet` is in
 * `<table>/<p>.parquet`. Why: the outlines are sorted by id, and an id probed in each of a
 * hundred department files decompresses a row group of outlines in each. Null (every file read,
 * the ids first found in the cover) when a cover file has no outline file of its name.
 */
function areaFilesOf(warehouse: Warehouse, country: Country, table: string, coverFiles: string[]): string | null {
  const files = warehouse.filesOf?.(country, table) ?? [];
  // Made once per refresh (the warehouse answers the same array until then): 35,040 names at the nation.
  let byName = filesByName.get(files);
  if (!byName) filesByName.set(files, byName = new Map(files.map((f) => [basename(f), f])));
  const hit = coverFiles.map((f) => byName.get(basename(f)));
  if (hit.length === 0 || hit.some((f) => f === undefined)) return null;
  return `read_parquet(${list([...new Set(hit as string[])])}, union_by_name = true, hive_partitioning = false)`;
}

/** The DuckDB path: before the index is built, above its memory budget, and as its reference in tests. */
export async function areasAtSql(warehouse: Warehouse, country: Country, table: string, lng: number, lat: number, cells = cellAndAncestors(lat, lng, ZONE_COVER_RES)): Promise<AreaHit[]> {
  const cellsTable = areaCellsTable(table);
  if (!warehouse.has(country, table) || !warehouse.has(country, cellsTable)) return [];
  const files = [...new Set(cells.flatMap((c) => warehouse.filesWithCells(country, cellsTable, c, c)))];
  if (files.length === 0) return [];
  const inList = cells.map((_, i) => `$${i + 1}`).join(', ');
  type Row = { id: string; layer: string; attributes: string | null; source: string; geometry: string | null };
  const answer = (rows: Row[], interior: (id: string) => boolean) => rows
    .filter((r) => interior(r.id) || (r.geometry !== null && booleanPointInPolygon([lng, lat], JSON.parse(r.geometry) as Polygon | MultiPolygon)))
    .map((r) => ({ id: r.id, layer: r.layer, attributes: r.attributes ? JSON.parse(r.attributes) : null, source: r.source }))
    .sort(byLayerThenId);
  const outlines = areaFilesOf(warehouse, country, table, files);
  if (outlines) {
    // The cover and the outlines of the files paired with it, in one query: a query over Parquet
    // files costs DuckDB about 4 ms however little it reads (docs/benchmarks.md, cell directories).
    const rows = await warehouse.query<Row & { interior: boolean }>(
      `WITH hit AS (SELECT id, bool_or(interior) AS interior FROM read_parquet(${list(files)}, union_by_name = true) WHERE cell IN (${inList}) GROUP BY id)
       SELECT a.id, a.layer, a.attributes, a.source, h.interior, CASE WHEN h.interior THEN NULL ELSE a.geometry END AS geometry FROM ${outlines} a JOIN hit h ON a.id = h.id`, cells as DuckDBValue[],
    );
    const inner = new Set(rows.filter((r) => r.interior).map((r) => r.id));
    return answer(rows, (id) => inner.has(id));
  }
  const cover = await warehouse.query<{ id: string; interior: boolean }>(
    `SELECT id, bool_or(interior) AS interior FROM read_parquet(${list(files)}, union_by_name = true)
     WHERE cell IN (${inList}) GROUP BY id`, cells as DuckDBValue[],
  );
  if (cover.length === 0) return [];
  const ids = cover.map((c) => c.id);
  const interior = new Set(cover.filter((c) => c.interior).map((c) => c.id));
  // The areas files are sorted by id: the IN list prunes their row groups. Outlines are read only
  // for areas met on a border cell. Ids travel as bound parameters.
  const inner = [...interior];
  const params: DuckDBValue[] = [...inner, ...ids];
  const isInterior = inner.length === 0 ? 'false' : `id IN (${inner.map((_, i) => `$${i + 1}`).join(', ')})`;
  const rows = await warehouse.query<Row>(
    `SELECT id, layer, attributes, source, CASE WHEN ${isInterior} THEN NULL ELSE geometry END AS geometry
     FROM ${country}_${table} WHERE id IN (${ids.map((_, i) => `$${inner.length + i + 1}`).join(', ')})`, params,
  );
  return answer(rows, (id) => interior.has(id));
}

/**
 * Layers of an areas table holding at least one area (a layer not ingested is an outage, not an
 * assessment), read once per warehouse refresh: a scan of the layer column would otherwise run
 * several times on every request.
 */
export function areaLayers(warehouse: Warehouse, country: Country, table: string): Promise<Set<string>> {
  if (!warehouse.has(country, table)) return Promise.resolve(new Set());
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `layers ${key}`, () => warehouse.query<{ layer: string }>(`SELECT DISTINCT layer FROM ${key}`).then((rows) => new Set(rows.map((r) => r.layer))));
}

/**
 * The values an attribute takes over the areas of one layer (the departments of the departmental
 * clay files, say), read once per warehouse refresh.
 */
export function areaAttributeValues(warehouse: Warehouse, country: Country, table: string, layer: string, attribute: string): Promise<Set<string>> {
  if (!warehouse.has(country, table)) return Promise.resolve(new Set());
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `${attribute} of ${layer} in ${key}`, () => warehouse.query<{ v: string }>(
    `SELECT DISTINCT json_extract_string(attributes, ${quotedString(`$.${attribute}`)}) AS v FROM ${key} WHERE layer = ${quotedString(layer)} AND v IS NOT NULL`,
  ).then((rows) => new Set(rows.map((r) => r.v))));
}
