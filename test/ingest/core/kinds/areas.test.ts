import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { AreasWriter } from '../../../../ingest/core/kinds/areas.ts';
import { TableWriter } from '../../../../ingest/core/table-writer.ts';
import { AREA_COLUMNS } from '../../../../schemas/tables/areas.ts';
import { CELL_DIRECTORY_KEY, directoryKey } from '../../../../schemas/tables/cells.ts';
import { DuckDBInstance } from '@duckdb/node-api';

const outline = (x: number, y: number, d: number): Polygon => ({ type: 'Polygon', coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]] });
const areas: { id: string; geometry: Polygon | MultiPolygon; attributes: Record<string, unknown> }[] = [
  { id: 'test:3', geometry: outline(2.35, 48.85, 0.0002), attributes: { n: 3 } },
  { id: 'test:1', geometry: { type: 'MultiPolygon', coordinates: [outline(-0.5, 45, 0.001).coordinates, outline(-0.4, 45, 0.001).coordinates] }, attributes: { n: 1 } },
  // A 3D outline: its WKB is left to the SQL path (polygonWkb gives null).
  { id: 'test:2', geometry: { type: 'Polygon', coordinates: [[[1, 44, 7], [1.001, 44, 7], [1.001, 44.001, 7], [1, 44, 7]]] }, attributes: { n: 2 } },
];

describe('AreasWriter', () => {
  it('writes the file the SQL derivation writes, byte for byte, from the WKB, extent, sources and count it kept', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-areas-'));
    const writer = await AreasWriter.open(dataDir, 'fr', 'parcels', 'kept', 'fr.cadastre');
    for (const a of areas) expect(writer.add({ ...a, layer: 'parcel' })).toBeNull();
    const [kept] = await writer.prepare();
    // The same rows through a plain TableWriter: sources, geometry types, extent and WKB read from the staged rows by SQL.
    const plain = await TableWriter.open({ dataDir, country: 'fr', table: 'parcels', partition: 'scanned', columns: AREA_COLUMNS, orderBy: 'id' });
    for (const a of areas) {
      const positions = (a.geometry.type === 'Polygon' ? a.geometry.coordinates.flat() : a.geometry.coordinates.flat(2));
      const xs = positions.map((p) => p[0]!), ys = positions.map((p) => p[1]!);
      plain.append([a.id, 'parcel', JSON.stringify(a.attributes), Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), JSON.stringify(a.geometry), 'fr.cadastre']);
    }
    const scanned = await plain.prepare();
    expect(kept!.prepared.written.rows).toBe(3);
    expect(scanned.written.rows).toBe(3);
    expect((await readFile(kept!.prepared.pendingPath)).equals(await readFile(scanned.pendingPath))).toBe(true);
  });

  it('writes an empty partition as the scan does: no extent, no source', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-areas-'));
    const [kept] = await (await AreasWriter.open(dataDir, 'fr', 'parcels', 'kept', 'fr.cadastre')).prepare();
    const scanned = await (await TableWriter.open({ dataDir, country: 'fr', table: 'parcels', partition: 'scanned', columns: AREA_COLUMNS, orderBy: 'id' })).prepare();
    expect(kept!.prepared.written.rows).toBe(0);
    expect((await readFile(kept!.prepared.pendingPath)).equals(await readFile(scanned.pendingPath))).toBe(true);
  });

  it('writes the same bytes for the same areas added in another order: the cover sorted by cell, then area id', async () => {
    // 400 parcels of about 20 m side by side: neighbours share the cells of their common edges.
    const grid = Array.from({ length: 400 }, (_, i) => ({ id: `test:${String(i).padStart(3, '0')}`, geometry: outline(2.35 + (i % 20) * 0.0003, 48.85 + Math.floor(i / 20) * 0.0002, 0.0002), attributes: {} }));
    const write = async (rows: typeof grid) => {
      const writer = await AreasWriter.open(await mkdtemp(join(tmpdir(), 'lds-areas-')), 'fr', 'parcels', 'grid', 'fr.cadastre');
      for (const a of rows) expect(writer.add({ ...a, layer: 'parcel' })).toBeNull();
      return Promise.all((await writer.prepare()).map(({ prepared }) => readFile(prepared.pendingPath)));
    };
    const [forward, backward] = [await write(grid), await write([...grid].reverse())];
    expect(forward[0]!.equals(backward[0]!)).toBe(true);
    expect(forward[1]!.equals(backward[1]!)).toBe(true);
  });

  it('writes in the cover file a directory of its cells: the key of every cell, at resolution 7, once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-areas-'));
    const writer = await AreasWriter.open(dataDir, 'fr', 'parcels', 'dir', 'fr.cadastre');
    for (const a of areas) expect(writer.add({ ...a, layer: 'parcel' })).toBeNull();
    const [, cover] = await writer.prepare();
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const path = cover!.prepared.pendingPath;
      const cells = (await c.runAndReadAll(`SELECT cell FROM read_parquet('${path}')`)).getColumnsJS()[0] as bigint[];
      const kv = (await c.runAndReadAll(`SELECT decode(value) AS v FROM parquet_kv_metadata('${path}') WHERE decode(key) = '${CELL_DIRECTORY_KEY}'`)).getRowObjectsJS() as { v: string }[];
      expect(kv).toHaveLength(1);
      const directory = JSON.parse(kv[0]!.v) as { resolution: number; cells: string[] };
      expect(directory.resolution).toBe(7);
      expect(directory.cells).toEqual([...new Set(cells.map((x) => directoryKey(x, 7)))].sort((a, b) => (a < b ? -1 : 1)).map((k) => k.toString(16)));
      // Three areas far apart: a few keys for their dozens of cells.
      expect(directory.cells.length).toBeLessThan(cells.length);
    } finally { c.closeSync(); db.closeSync(); }
  });
});
