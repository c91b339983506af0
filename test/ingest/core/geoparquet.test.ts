import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOB, DuckDBDataChunk, DuckDBInstance, INTEGER, VARCHAR, blobValue, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import type { MultiPolygon, Polygon } from 'geojson';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geoShapeOf, geojsonToWktSql, polygonWkb, type GeoMetadata } from '../../../ingest/core/geoparquet.ts';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { TableWriter } from '../../../ingest/core/table-writer.ts';
import { AREA_COLUMNS } from '../../../schemas/tables/areas.ts';
import { POINT_COLUMNS } from '../../../schemas/tables/points.ts';
import { ZONE_CELL_COLUMNS, ZONE_COLUMNS } from '../../../schemas/tables/zones.ts';

const square = { type: 'Polygon', coordinates: [[[2.3, 48.8], [2.4, 48.8], [2.4, 48.9], [2.3, 48.8]]] };
const two = { type: 'MultiPolygon', coordinates: [[[[-0.05, 45.0], [-0.04, 45.0], [-0.04, 45.01], [-0.05, 45.0]]], [[[-0.03, 45.0], [-0.02, 45.0], [-0.0200001234567, 45.0100000000001], [-0.03, 45.0]]]] };

let db: DuckDBInstance;
let c: DuckDBConnection;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lds-geoparquet-'));
  db = await DuckDBInstance.create(':memory:');
  c = await db.connect();
});
afterAll(() => { c.closeSync(); db.closeSync(); });

async function kv(path: string): Promise<Record<string, string>> {
  const r = await c.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${quotedString(path)})`);
  return Object.fromEntries((r.getRowObjectsJS() as { k: string; v: string }[]).map((x) => [x.k, x.v]));
}

/** A second reader: hyparquet (pure JavaScript, decodes GeoParquet's WKB from the `geo` metadata). */
async function readWithHyparquet(path: string): Promise<Record<string, unknown>[]> {
  const file = await asyncBufferFromFile(path);
  return parquetReadObjects({ file, compressors }) as Promise<Record<string, unknown>[]>;
}

async function writeZones(): Promise<string> {
  const w = await TableWriter.open({ dataDir, country: 'fr', table: 'zones', partition: 'test', columns: ZONE_COLUMNS, orderBy: 'code' });
  w.append(['locality', '75056', 'Paris', null, null, 2.3, 48.8, 2.4, 48.9, JSON.stringify(square), JSON.stringify(square), 'test']);
  w.append(['locality', '33001', 'Abzac', null, null, -0.05, 45.0, -0.02, 45.01, JSON.stringify(two), JSON.stringify(two), 'test']);
  return (await w.finish()).path;
}

describe('GeoParquet 1.1', () => {
  it('is decided from the columns: outlines with their extent, points with a position, nothing else', () => {
    expect(geoShapeOf(Object.keys(ZONE_COLUMNS))).toBe('geojson');
    expect(geoShapeOf(Object.keys(AREA_COLUMNS))).toBe('geojson');
    expect(geoShapeOf(Object.keys(POINT_COLUMNS))).toBe('point');
    expect(geoShapeOf(Object.keys(ZONE_CELL_COLUMNS))).toBeNull();
  });

  it('writes zones with a WKB geometry, a bbox covering and the geo metadata', async () => {
    const path = await writeZones();
    const meta = JSON.parse((await kv(path)).geo!) as GeoMetadata;
    expect(meta).toEqual({
      version: '1.1.0',
      primary_column: 'geom',
      columns: {
        geom: {
          encoding: 'WKB',
          geometry_types: ['MultiPolygon', 'Polygon'],
          bbox: [-0.05, 45.0, 2.4, 48.9],
          covering: { bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] } },
        },
      },
    });
    // DuckDB reads `geom` back as a geometry, with exactly the published coordinates.
    const rows = (await c.runAndReadAll(`SELECT code, ST_AsText(geom) AS wkt, typeof(geom) AS t, bbox.xmin AS xmin FROM read_parquet(${quotedString(path)}) ORDER BY code`)).getRowObjectsJS();
    expect(rows).toEqual([
      { code: '33001', wkt: 'MULTIPOLYGON (((-0.05 45, -0.04 45, -0.04 45.01, -0.05 45)), ((-0.03 45, -0.02 45, -0.0200001234567 45.0100000000001, -0.03 45)))', t: "GEOMETRY('OGC:CRS84')", xmin: -0.05 },
      { code: '75056', wkt: 'POLYGON ((2.3 48.8, 2.4 48.8, 2.4 48.9, 2.3 48.8))', t: "GEOMETRY('OGC:CRS84')", xmin: 2.3 },
    ]);
  });

  it('is read as geometries by a second reader (hyparquet), equal to the GeoJSON column', async () => {
    const path = await writeZones();
    const rows = await readWithHyparquet(path);
    expect(rows.map((r) => r.geom)).toEqual([two, square]);
    expect(rows.map((r) => r.bbox)).toEqual([{ xmin: -0.05, ymin: 45.0, xmax: -0.02, ymax: 45.01 }, { xmin: 2.3, ymin: 48.8, xmax: 2.4, ymax: 48.9 }]);
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    expect(metadata.key_value_metadata?.filter((k) => k.key === 'geo')).toHaveLength(1);
  });

  it('writes points as Point geometries, null where the row has no position', async () => {
    const w = await TableWriter.open({ dataDir, country: 'fr', table: 'places', partition: 'test', columns: POINT_COLUMNS, orderBy: 'cell' });
    w.append(['a', 1n, 2.3522219, 48.856614, 'education.school', 'École', null, 'test']);
    w.append(['b', 2n, -73.5673, 45.5017, 'education.school', null, null, 'test']);
    const path = (await w.finish()).path;
    const meta = JSON.parse((await kv(path)).geo!) as GeoMetadata;
    expect(meta.columns.geom!.geometry_types).toEqual(['Point']);
    const rows = await readWithHyparquet(path);
    expect(rows.map((r) => r.geom)).toEqual([
      { type: 'Point', coordinates: [2.3522219, 48.856614] },
      { type: 'Point', coordinates: [-73.5673, 45.5017] },
    ]);
    // A sale without position (schemas/tables/sales.ts): no geometry, no bbox.
    const { writeSortedParquet } = await import('../../../ingest/core/table-writer.ts');
    const prepared = await writeSortedParquet(c, `SELECT 'x' AS id, NULL::DOUBLE AS longitude, NULL::DOUBLE AS latitude, NULL::BIGINT AS cell`, { dataDir, country: 'fr', table: 'sales', partition: 'p', orderBy: 'cell' });
    const nulls = (await c.runAndReadAll(`SELECT geom IS NULL AS g, bbox IS NULL AS b FROM read_parquet(${quotedString(prepared.pendingPath)})`)).getRowObjectsJS();
    expect(nulls).toEqual([{ g: true, b: true }]);
    await prepared.discard();
  });

  it('rewrites a published file without doubling its geometry columns', async () => {
    const path = await writeZones();
    const { writeSortedParquet } = await import('../../../ingest/core/table-writer.ts');
    const prepared = await writeSortedParquet(c, `SELECT * FROM read_parquet(${quotedString(path)})`, { dataDir, country: 'fr', table: 'zones', partition: 'again', orderBy: 'code' });
    const cols = (await c.runAndReadAll(`SELECT * FROM read_parquet(${quotedString(prepared.pendingPath)}) LIMIT 0`)).columnNames();
    expect(cols.filter((x) => x === 'geom' || x === 'bbox')).toEqual(['geom', 'bbox']);
    expect(Object.keys(await kv(prepared.pendingPath)).filter((k) => k === 'geo')).toEqual(['geo']);
    await prepared.discard();
  });
});

describe('polygonWkb: the WKB of an outline written in TypeScript', () => {
  const JUVISY = join(REPO_ROOT, '../shared/realdata/fr/cadastre/cadastre-91326-parcelles.json');
  /** Each outline's WKB as polygonWkb writes it and as the SQL path derives it from the GeoJSON text (hex, null when none). */
  async function both(geometries: (Polygon | MultiPolygon)[]): Promise<{ ts: string | null; sql: string | null }[]> {
    await c.run('CREATE OR REPLACE TABLE wkb_check (i INTEGER, geometry VARCHAR, wkb BLOB)');
    const appender = await c.createAppender('wkb_check');
    for (let start = 0; start < geometries.length; start += 2048) {
      const part = geometries.slice(start, start + 2048);
      const chunk = DuckDBDataChunk.create([INTEGER, VARCHAR, BLOB], part.length);
      chunk.setColumns([part.map((_, i) => start + i), part.map((g) => JSON.stringify(g)), part.map((g) => { const w = polygonWkb(g); return w && blobValue(w); })]);
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    const r = await c.runAndReadAll(`SELECT hex(wkb) AS ts, hex(ST_AsWKB((${geojsonToWktSql('geometry')})::GEOMETRY)) AS sql FROM wkb_check ORDER BY i`);
    return r.getRowObjectsJS() as { ts: string | null; sql: string | null }[];
  }

  it('is the SQL path\'s WKB byte for byte: holes, multipolygons, full-precision and tiny doubles, -0, an unclosed ring', async () => {
    // A fixed pseudo-random sequence: the same doubles at every run.
    let seed = 17;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const ring = (x: number, y: number, d: number) => {
      const r = [[x, y], [x + random() * d, y], [x + random() * d, y + random() * d], [x, y + random() * d]];
      return [...r, [...r[0]!]].map((p) => (random() < 0.3 ? p.map((v) => +v.toFixed(7)) : p));
    };
    const shapes: (Polygon | MultiPolygon)[] = [square as Polygon, two as MultiPolygon,
      { type: 'Polygon', coordinates: [[[-0, 0], [1e-300, 5e-324], [1, 1], [-0, 0]]] },
      { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0.5, 2]]] }];
    for (let i = 0; i < 2000; i++) {
      const [x, y, d] = [random() * 360 - 180, random() * 180 - 90, random() < 0.5 ? 1e-9 : 1e-3];
      shapes.push(i % 2 ? { type: 'Polygon', coordinates: [ring(x, y, d), ring(x, y, d / 10)] } : { type: 'MultiPolygon', coordinates: [[ring(x, y, d)], [ring(x + d, y, d), ring(x + d, y, d / 10)]] });
    }
    const rows = await both(shapes);
    expect(rows.filter((r) => r.ts === null)).toEqual([]);
    expect(rows.filter((r) => r.ts !== r.sql)).toEqual([]);
  });

  it.skipIf(!existsSync(JUVISY))('is the SQL path\'s WKB for every real Juvisy parcel', async () => {
    const parcels = (JSON.parse(readFileSync(JUVISY, 'utf8')) as { features: { geometry: Polygon }[] }).features.map((f) => f.geometry);
    const rows = await both(parcels);
    expect(rows.length).toBeGreaterThan(2800);
    expect(rows.filter((r) => r.ts === null || r.ts !== r.sql)).toEqual([]);
  });

  it('leaves to the SQL the outlines it must judge: 3D or short positions, short rings, no ring', () => {
    const p = (coordinates: unknown) => polygonWkb({ type: 'Polygon', coordinates } as Polygon);
    expect(p([[[0, 0, 5], [1, 0, 5], [1, 1, 5], [0, 0, 5]]])).toBeNull();
    expect(p([[[0, 0], [1, 0], [1], [0, 0]]])).toBeNull();
    expect(p([[[0, 0], [1, 0], [0, 0]]])).toBeNull();
    expect(p([])).toBeNull();
    expect(polygonWkb({ type: 'MultiPolygon', coordinates: [] })).toBeNull();
  });
});
