import { mkdtemp, rename } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../../api/core/warehouse.ts';
import { areasAt, areasAtSql } from '../../../../api/location/kinds/areas.ts';
import { areasIndexOf, areasIndexReady, buildAreasIndex } from '../../../../api/location/kinds/areas-index.ts';
import { prng } from '../../../../datasets/fr/tools/addresses.ts';
import { AreasWriter, type AreaInput } from '../../../../ingest/core/kinds/areas.ts';
import { CELL_DIRECTORY_RES, cellAndAncestors, directoryKey } from '../../../../schemas/tables/cells.ts';
import { tableDir } from '../../../../schemas/tables/layout.ts';
import { ZONE_COVER_RES } from '../../../../schemas/tables/zones.ts';

// An areas layer written by the ingest helper (overlapping squares, a ring with a hole, a
// multipolygon), read back by the API reader, checked against an exact test on every area.
const ring = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const rand = prng(15);
const areas: AreaInput[] = [
  { id: 'test.hole', layer: 'clay_shrink_swell', geometry: { type: 'Polygon', coordinates: [ring(2.30, 48.82, 2.40, 48.88), ring(2.34, 48.84, 2.36, 48.86)] }, attributes: { level: 'high' } },
  { id: 'test.multi', layer: 'flood', geometry: { type: 'MultiPolygon', coordinates: [[ring(2.31, 48.83, 2.32, 48.84)], [ring(2.37, 48.85, 2.39, 48.87)]] } },
];
for (let i = 0; i < 40; i++) {
  const x = 2.28 + rand() * 0.12, y = 48.81 + rand() * 0.07, w = 0.002 + rand() * 0.03, h = 0.002 + rand() * 0.02;
  areas.push({ id: `test.sq${String(i).padStart(2, '0')}`, layer: i % 2 ? 'flood' : 'radon', geometry: { type: 'Polygon', coordinates: [ring(x, y, x + w, y + h)] } });
}
let warehouse: Warehouse;

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-areas-')), 'data');
  const writer = await AreasWriter.open(dataDir, 'fr', 'test_areas', 'sample', 'test');
  for (const a of areas) expect(writer.add(a)).toBeNull();
  expect(writer.add({ id: 'test.line', layer: 'x', geometry: { type: 'LineString', coordinates: [[2, 48], [3, 49]] } as unknown as Polygon })).toMatch(/Polygon/);
  expect(writer.add({ id: 'test.l93', layer: 'x', geometry: { type: 'Polygon', coordinates: [ring(652000, 6860000, 653000, 6861000)] } })).toMatch(/wrong CRS/);
  for (const { prepared } of await writer.prepare()) await prepared.commit();
  warehouse = await openWarehouse(dataDir, { tables: ['test_areas', 'test_areas_cells'], memoryTables: {} });
});
afterAll(() => warehouse?.close());

const exact = (lng: number, lat: number) => areas
  .filter((a) => booleanPointInPolygon([lng, lat], a.geometry as Polygon | MultiPolygon))
  .map((a) => ({ id: a.id, layer: a.layer, attributes: a.attributes ?? null, source: 'test' }))
  .sort((a, b) => (a.layer < b.layer ? -1 : a.layer > b.layer ? 1 : a.id < b.id ? -1 : 1));

describe('areas table kind', () => {
  it('gives every area containing a random point, as an exact test does, through DuckDB and through the in-process index', async () => {
    const index = await areasIndexReady(warehouse, 'fr', 'test_areas');
    expect(index?.size).toBe(areas.length);
    expect(areasIndexOf(warehouse, 'fr', 'test_areas')).toBe(index);
    for (let i = 0; i < 300; i++) {
      const lng = 2.28 + rand() * 0.15, lat = 48.81 + rand() * 0.09;
      const expected = exact(lng, lat);
      expect(await areasAtSql(warehouse, 'fr', 'test_areas', lng, lat)).toEqual(expected);
      expect(await areasAt(warehouse, 'fr', 'test_areas', lng, lat)).toEqual(expected);
    }
  });

  it('builds no index above its memory budget (DuckDB answers) and none for a table absent here', async () => {
    expect(await buildAreasIndex(warehouse, 'fr', 'test_areas', 1000)).toBeNull();
    expect(await buildAreasIndex(warehouse, 'be', 'test_areas')).toBeNull();
  });

  it('answers exactly on both sides of every edge, holes included', async () => {
    const e = 1e-6;
    const sides: [number, number][] = [];
    for (const a of areas.slice(0, 12)) {
      const rings = a.geometry.type === 'Polygon' ? a.geometry.coordinates : a.geometry.coordinates.flat();
      for (const r of rings) {
        const [[x0, y0], , [x1, y1]] = r as [number, number][];
        const mx = (x0! + x1!) / 2, my = (y0! + y1!) / 2;
        sides.push([x0! - e, my], [x0! + e, my], [x1! - e, my], [x1! + e, my], [mx, y0! - e], [mx, y0! + e], [mx, y1! - e], [mx, y1! + e]);
      }
    }
    expect(await areasIndexReady(warehouse, 'fr', 'test_areas')).not.toBeNull();
    for (const [lng, lat] of sides) {
      expect(await areasAtSql(warehouse, 'fr', 'test_areas', lng, lat)).toEqual(exact(lng, lat));
      expect(await areasAt(warehouse, 'fr', 'test_areas', lng, lat)).toEqual(exact(lng, lat));
    }
    // Inside the hole of test.hole and inside it.
    expect((await areasAt(warehouse, 'fr', 'test_areas', 2.35, 48.85)).some((a) => a.id === 'test.hole')).toBe(false);
    expect((await areasAt(warehouse, 'fr', 'test_areas', 2.305, 48.87)).find((a) => a.id === 'test.hole')).toEqual({ id: 'test.hole', layer: 'clay_shrink_swell', attributes: { level: 'high' }, source: 'test' });
  });

  it('answers nothing where no area is published', async () => {
    expect(await areasAt(warehouse, 'fr', 'test_areas', -0.13, 45.01)).toEqual([]);
    expect(await areasAt(warehouse, 'be', 'test_areas', 4.35, 50.85)).toEqual([]);
  });
});

describe('cover files found by their cell directories', () => {
  // 24 partitions ("communes") of 16 small parcels each, side by side over about 60 km: many
  // straddle coarse cells, so their min/max statistics span much of the others' ranges.
  const parts = Array.from({ length: 24 }, (_, p) => Array.from({ length: 16 }, (_, i): AreaInput => {
    const x = 1.9 + (p % 8) * 0.08 + (i % 4) * 0.004, y = 48.6 + Math.floor(p / 8) * 0.06 + Math.floor(i / 4) * 0.004;
    return { id: `test.p${p}-${i}`, layer: 'parcel', geometry: { type: 'Polygon', coordinates: [ring(x, y, x + 0.0035, y + 0.0035)] } };
  }));
  let dataDir: string;
  let w: Warehouse;
  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'lds-areas-dir-')), 'data');
    for (const [p, list] of parts.entries()) {
      const writer = await AreasWriter.open(dataDir, 'fr', 'test_areas', `c${String(p).padStart(2, '0')}`, 'test');
      for (const a of list) expect(writer.add(a)).toBeNull();
      for (const { prepared } of await writer.prepare()) await prepared.commit();
    }
    // A cover file written before the directories: the same rows without its key-value metadata.
    const legacy = join(tableDir(dataDir, 'fr', 'test_areas_cells'), 'c05.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(`COPY (SELECT * FROM read_parquet('${legacy}')) TO '${legacy}.old' (FORMAT parquet)`);
    c.closeSync(); db.closeSync();
    await rename(`${legacy}.old`, legacy);
    w = await openWarehouse(dataDir, { tables: ['test_areas', 'test_areas_cells'], memoryTables: {} });
  });
  afterAll(() => w?.close());

  it('names every file holding a cell and only files holding its key (the legacy file by its statistics), far fewer than the statistics alone', async () => {
    // The files holding each cell, and each resolution-7 key (CELL_DIRECTORY_RES: these small files' directories are not coarsened).
    const holders = new Map<bigint, Set<string>>();
    const add = (k: bigint, f: string) => { let s = holders.get(k); if (!s) holders.set(k, s = new Set()); s.add(f); };
    const byKey = new Map<bigint, Set<string>>();
    for (const r of await w.query<{ cell: bigint; file: string }>(`SELECT DISTINCT cell, filename AS file FROM read_parquet('${join(tableDir(dataDir, 'fr', 'test_areas_cells'), '*.parquet')}', filename = true)`)) {
      add(BigInt(r.cell), r.file);
      const k = directoryKey(BigInt(r.cell), CELL_DIRECTORY_RES);
      let s = byKey.get(k); if (!s) byKey.set(k, s = new Set()); s.add(r.file);
    }
    const unpaired: Warehouse = Object.assign(Object.create(w) as Warehouse, { filesOf: (c: 'fr', t: string) => (t === 'test_areas' ? [] : w.filesOf!(c, t)) });
    let byDirectory = 0, byStatistics = 0;
    const legacy = join(tableDir(dataDir, 'fr', 'test_areas_cells'), 'c05.parquet');
    for (let i = 0; i < 300; i++) {
      const lng = 1.9 + rand() * 0.65, lat = 48.6 + rand() * 0.2;
      for (const cell of cellAndAncestors(lat, lng, ZONE_COVER_RES)) {
        const found = w.filesWithCells('fr', 'test_areas_cells', cell, cell);
        // Every file holding the cell is found; any other found holds a cell of the same key, or is the legacy file, met by its range.
        for (const f of holders.get(cell) ?? []) expect(found).toContain(f);
        for (const f of found) expect(byKey.get(directoryKey(cell, CELL_DIRECTORY_RES))?.has(f) || f === legacy).toBe(true);
        byDirectory += found.length;
        byStatistics += w.filesWithCells('fr', 'test_areas_cells', cell, cell + 1n).length; // a range: statistics only
      }
      const expected = parts.flat().filter((a) => booleanPointInPolygon([lng, lat], a.geometry as Polygon)).map((a) => a.id);
      expect((await areasAtSql(w, 'fr', 'test_areas', lng, lat)).map((a) => a.id)).toEqual(expected);
      // Without outline files paired by name with the cover's (the cover first, then the outlines by id from every file): the same answer.
      expect(await areasAtSql(unpaired, 'fr', 'test_areas', lng, lat)).toEqual(await areasAtSql(w, 'fr', 'test_areas', lng, lat));
    }
    expect(byDirectory * 2).toBeLessThan(byStatistics);
  });
});
