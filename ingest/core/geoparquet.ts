import { quotedIdentifier, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { BBOX_COLUMN, EXTENT_COLUMNS as EXTENT, GEOMETRY_COLUMN, type GeoShape } from '../../schemas/tables/layout.ts';

/**
 * GeoParquet 1.1 (geoparquet.org) for every table with a geometry, so that geopandas, GDAL, QGIS,
 * Sedona and DuckDB's spatial functions open the files as geometries:
 * - `geom`: WKB, WGS84 (OGC:CRS84, the GeoParquet default, so no `crs` key), the primary column;
 * - `bbox`: struct {xmin, ymin, xmax, ymax}, the 1.1 covering column (row-group statistics on it
 *   let readers skip row groups outside a window);
 * - the `geo` key-value metadata, written by us through COPY's KV_METADATA: DuckDB 1.5's core
 *   GEOMETRY type writes GeoParquet 1.0.0 metadata only (no covering), so `geom` is written as
 *   plain WKB BLOB with GEOPARQUET_VERSION 'NONE' and our own 1.1.0 metadata.
 *
 * Which tables: those whose rows carry a GeoJSON `geometry` with its extent (zones, areas) and
 * those whose rows carry `longitude`/`latitude` (points, addresses, sales): decided from the
 * columns, so a new table of either shape follows. The GeoJSON `geometry` text column stays: the
 * API reads it, and tools without GeoParquet support read it as text.
 */
export { BBOX_COLUMN, GEOMETRY_COLUMN, geoShapeOf, type GeoShape } from '../../schemas/tables/layout.ts';
export const GEOPARQUET_VERSION = '1.1.0';

const num = (e: string) => `(${e})::VARCHAR`;
// GeoJSON positions -> WKT, in DuckDB's core SQL (no spatial extension offline): a ring is a list
// of [x, y], a polygon a list of rings. DOUBLE -> VARCHAR is DuckDB's shortest round-trip form.
const ring = (r: string) => `'(' || array_to_string(list_transform(${r}, lambda p: ${num('p[1]')} || ' ' || ${num('p[2]')}), ', ') || ')'`;
const polygon = (c: string) => `'(' || array_to_string(list_transform(${c}, lambda r: ${ring('r')}), ', ') || ')'`;

/** SQL expression: WKT of a GeoJSON Point, Polygon or MultiPolygon held as text (null otherwise). */
export function geojsonToWktSql(column: string): string {
  const g = quotedIdentifier(column);
  const coords = (type: string) => `json_extract(${g}, '$.coordinates')::${type}`;
  return `CASE json_extract_string(${g}, '$.type')
    WHEN 'Polygon' THEN 'POLYGON ' || ${polygon(coords('DOUBLE[][][]'))}
    WHEN 'MultiPolygon' THEN 'MULTIPOLYGON (' || array_to_string(list_transform(${coords('DOUBLE[][][][]')}, lambda c: ${polygon('c')}), ', ') || ')'
    WHEN 'Point' THEN 'POINT (' || ${num(`${coords('DOUBLE[]')}[1]`)} || ' ' || ${num(`${coords('DOUBLE[]')}[2]`)} || ')'
  END`;
}

/**
 * Select-list entries adding `geom` (WKB) and `bbox` to rows of the given shape. With `wkb`, a
 * column holding the WKB of each row's outline already (polygonWkb): taken where it is not null,
 * derived as without it where it is.
 */
export function geoColumnsSql(shape: GeoShape, { wkb }: { wkb?: string } = {}): string {
  if (shape === 'point') {
    const [x, y] = [quotedIdentifier('longitude'), quotedIdentifier('latitude')];
    return `CASE WHEN ${x} IS NULL OR ${y} IS NULL THEN NULL ELSE ST_AsWKB(('POINT (' || ${num(x)} || ' ' || ${num(y)} || ')')::GEOMETRY) END AS ${GEOMETRY_COLUMN},
      CASE WHEN ${x} IS NULL OR ${y} IS NULL THEN NULL ELSE {'xmin': ${x}::DOUBLE, 'ymin': ${y}::DOUBLE, 'xmax': ${x}::DOUBLE, 'ymax': ${y}::DOUBLE} END AS ${BBOX_COLUMN}`;
  }
  const [a, b, c, d] = EXTENT.map(quotedIdentifier);
  const derived = `ST_AsWKB((${geojsonToWktSql('geometry')})::GEOMETRY)`;
  const w = wkb === undefined ? null : quotedIdentifier(wkb);
  return `${w ? `CASE WHEN ${w} IS NULL THEN ${derived} ELSE ${w} END` : derived} AS ${GEOMETRY_COLUMN},
    {'xmin': ${a}::DOUBLE, 'ymin': ${b}::DOUBLE, 'xmax': ${c}::DOUBLE, 'ymax': ${d}::DOUBLE} AS ${BBOX_COLUMN}`;
}

/**
 * The WKB `geoColumnsSql` derives from a Polygon or MultiPolygon's GeoJSON text (ISO WKB, little
 * endian, 2D; -0 written 0, as the GeoJSON text has it), made where the outline is read: building
 * WKT text with DuckDB's list lambdas and parsing it back cost about 100 µs a parcel, more than
 * reading and covering it (docs/benchmarks.md, issue 17, fourth pass); this costs about 1 µs.
 * Byte for byte the SQL's, tested on real parcels and random doubles
 * (test/ingest/core/geoparquet.test.ts). Null for an outline the SQL must judge itself (a
 * position that is not two finite numbers, a ring of fewer than four positions, no ring or
 * polygon): the writer leaves those rows to it.
 */
export function polygonWkb(g: Polygon | MultiPolygon): Uint8Array | null {
  const polygons: Position[][][] = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
  if (!Array.isArray(polygons) || polygons.length === 0) return null;
  let size = 9 + (g.type === 'MultiPolygon' ? 9 * polygons.length : 0);
  for (const rings of polygons) {
    if (!Array.isArray(rings) || rings.length === 0) return null;
    for (const ring of rings) {
      if (!Array.isArray(ring) || ring.length < 4) return null;
      for (const p of ring) {
        if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return null;
      }
      size += 4 + 16 * ring.length;
    }
  }
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let o = 0;
  // Byte order 1 (little endian), geometry type (3 Polygon, 6 MultiPolygon), count of rings or polygons.
  const header = (type: number, count: number) => { bytes[o] = 1; view.setUint32(o + 1, type, true); view.setUint32(o + 5, count, true); o += 9; };
  const rings = (polygon: Position[][]) => {
    header(3, polygon.length);
    for (const ring of polygon) {
      view.setUint32(o, ring.length, true);
      o += 4;
      // `+ 0` turns -0 into 0, as JSON.stringify does.
      for (const p of ring) { view.setFloat64(o, p[0]! + 0, true); view.setFloat64(o + 8, p[1]! + 0, true); o += 16; }
    }
  };
  if (g.type === 'Polygon') rings(polygons[0]!);
  else { header(6, polygons.length); for (const polygon of polygons) rings(polygon); }
  return bytes;
}

/** The `geo` metadata of GeoParquet 1.1 for one file. */
export interface GeoMetadata {
  version: string;
  primary_column: string;
  columns: Record<string, {
    encoding: 'WKB';
    geometry_types: string[];
    bbox?: [number, number, number, number];
    covering: { bbox: Record<'xmin' | 'ymin' | 'xmax' | 'ymax', [string, string]> };
  }>;
}

/**
 * The `geo` metadata of the rows of `select`. Outlines (zones, areas: small tables): their
 * geometry types and extent, from one scan before the sort. Points: `Point` and no file extent
 * (optional in the specification), so that the large point tables (26 M French addresses, whose
 * select computes keys) are not read twice; the `bbox` column's row-group statistics give it.
 */
export async function geoMetadataOf(connection: DuckDBConnection, select: string, shape: GeoShape, known?: KnownGeo): Promise<GeoMetadata> {
  let types = ['Point'];
  let bbox: [number, number, number, number] | undefined;
  if (shape === 'geojson' && known) {
    types = [...new Set(known.types)].sort();
    if (known.bbox) bbox = [...known.bbox];
  } else if (shape === 'geojson') {
    const reader = await connection.runAndReadAll(`SELECT min(min_lng) AS xmin, min(min_lat) AS ymin, max(max_lng) AS xmax, max(max_lat) AS ymax,
      list_sort(list_distinct(list(json_extract_string(geometry, '$.type')))) AS types FROM (${select})`);
    const r = reader.getRowObjectsJS()[0] as { xmin: number | null; ymin: number; xmax: number; ymax: number; types: (string | null)[] | null };
    types = (r.types ?? []).filter((t): t is string => t !== null);
    if (r.xmin !== null) bbox = [r.xmin, r.ymin, r.xmax, r.ymax];
  }
  return {
    version: GEOPARQUET_VERSION,
    primary_column: GEOMETRY_COLUMN,
    columns: {
      [GEOMETRY_COLUMN]: {
        encoding: 'WKB',
        geometry_types: types,
        ...(bbox ? { bbox } : {}),
        covering: { bbox: { xmin: [BBOX_COLUMN, 'xmin'], ymin: [BBOX_COLUMN, 'ymin'], xmax: [BBOX_COLUMN, 'xmax'], ymax: [BBOX_COLUMN, 'ymax'] } },
      },
    },
  };
}

/** The geometry types and extent of a file's outlines, when the writer kept them as it went (null extent: no row). */
export interface KnownGeo { types: readonly string[]; bbox: readonly [number, number, number, number] | null }

/** COPY options writing `metadata` as the file's key-value metadata (values JSON text). */
export function kvMetadataOption(metadata: Record<string, unknown>): string {
  const entries = Object.entries(metadata).map(([k, v]) => `${quotedIdentifier(k)}: ${quotedString(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return entries.length === 0 ? '' : `, KV_METADATA {${entries.join(', ')}}`;
}
