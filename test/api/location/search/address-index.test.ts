import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Warehouse } from '../../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../../api/location/warehouse.ts';
import { addressIndexOf, addressIndexReady, buildAddressIndex, ESTIMATED_BYTES_PER_ADDRESS, type AddressIndex } from '../../../../api/location/search/address-index.ts';
import { nearestAddress, nearestAddressSql } from '../../../../api/location/search/official.ts';
import { ADDRESS_COLUMNS } from '../../../../schemas/tables/addresses.ts';
import { pointCell, rangesAround } from '../../../../schemas/tables/cells.ts';
// Deterministic numbers in [0, 1) (mulberry32), so a run can be replayed.
import { prng as rng } from '../../../../datasets/fr/tools/addresses.ts';


const CENTER = { lat: 48.8566, lng: 2.3522 };
const N = 4000;
const MAX_M = 25;
let root: string;
let warehouse: Warehouse, index: AddressIndex;
const points: { lat: number; lng: number }[] = [];

/** A random position within `r` meters of the centre, to 6 decimals as the producers publish. */
function around(rand: () => number, r: number) {
  const d = r * Math.sqrt(rand()), a = 2 * Math.PI * rand();
  return { lat: +(CENTER.lat + (d * Math.sin(a)) / 111_195).toFixed(6), lng: +(CENTER.lng + (d * Math.cos(a)) / (111_195 * Math.cos((CENTER.lat * Math.PI) / 180))).toFixed(6) };
}

/** Writes the addresses as two Parquet files of small row groups, as the ingest jobs publish them (sorted by cell), or as one file in the `order` given. */
async function publish(dir: string, rows: string[][], order: string | null = null) {
  await mkdir(dir, { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const cols = Object.keys(ADDRESS_COLUMNS);
  const csv = join(root, 'addresses.csv');
  await writeFile(csv, `${cols.join(',')}\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const read = `read_csv('${csv}', header = true, nullstr = '\\N', columns = {${Object.entries(ADDRESS_COLUMNS).map(([k, t]) => `'${k}': '${k === 'parcels' ? 'VARCHAR' : t}'`).join(', ')}})`;
  // parcels: a list, written from `|`-joined text ('' the empty list).
  const list = `* REPLACE (CASE WHEN parcels IS NULL THEN NULL WHEN parcels = '' THEN []::VARCHAR[] ELSE string_split(parcels, '|') END AS parcels)`;
  if (order !== null) await c.run(`COPY (SELECT ${list} FROM ${read} ORDER BY ${order}) TO '${join(dir, 'all.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 256)`);
  else for (const [name, half] of [['part-1', 0], ['part-2', 1]] as const) {
    await c.run(`COPY (SELECT ${list} FROM ${read} WHERE hash(id) % 2 = ${half} ORDER BY cell) TO '${join(dir, `${name}.parquet`)}' (FORMAT parquet, ROW_GROUP_SIZE 256)`);
  }
  c.closeSync(); db.closeSync();
}

/** None (null), an empty list, one parcel or two. */
const parcels = (r: number, i: number) => (r < 0.2 ? '\\N' : r < 0.25 ? '' : r < 0.4 ? `75103000AB${String(i).padStart(4, '0')}|75103000AC${String(i).padStart(4, '0')}` : `75103000AB${String(i).padStart(4, '0')}`);

function addressRows(seed: number): string[][] {
  const rand = rng(seed);
  const rows: string[][] = [];
  points.length = 0;
  for (let i = 0; i < N; i++) {
    // One address in six at the position of an earlier one (a building's entrances): equal distances, settled by id.
    const twin = i > 0 && rand() < 1 / 6 ? Math.floor(rand() * i) : -1;
    const p = twin >= 0 ? points[twin]! : around(rand, 1500);
    points.push(p);
    // Now and then a number the index keeps aside (65535 and above, or 0).
    const number = rand() < 0.1 ? '\\N' : i % 97 === 0 ? String(65_000 + i) : i % 101 === 0 ? '0' : String(1 + Math.floor(rand() * 120));
    const rep = rand() < 0.1 ? 'bis' : '\\N';
    const street = `Rue Test ${i % 50}`;
    const id = i % 89 === 0 ? `é75103_${i}` : `75103_${String(N - i).padStart(5, '0')}`;
    rows.push([id, String(pointCell(p.lat, p.lng)), String(p.lng), String(p.lat), number, rep, street, rand() < 0.05 ? '\\N' : '75003', '75103', 'Paris 3e Arrondissement',
      `${number === '\\N' ? '' : `${number} `}${street} 75003 Paris`, `rue test ${i % 50}`, 'paris', 'entrée', parcels(rand(), i), 'fr.ban']);
  }
  return rows;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lds-address-index-'));
  await publish(join(root, 'data/tables/addresses/country=fr'), addressRows(11));
  warehouse = await openLocationWarehouse(join(root, 'data'));
  index = (await buildAddressIndex(warehouse, 'fr'))!;
});
afterAll(async () => { warehouse?.close(); await rm(root, { recursive: true, force: true }); });

describe('address index', () => {
  it('holds every address', () => {
    expect(index.size).toBe(N);
    expect(index.bytes).toBeGreaterThan(N * 20);
  });

  it('answers the nearest address within 25 m as the DuckDB path does, on random points and on addresses', async () => {
    const rand = rng(5);
    let found = 0, none = 0, ties = 0;
    // Random positions (many with nothing within 25 m, some off the table), then exact address positions (distance 0, twins tied).
    const queries = [...Array.from({ length: 250 }, () => around(rand, 1700)), ...Array.from({ length: 100 }, () => points[Math.floor(rand() * N)]!)];
    for (const q of queries) {
      const ranges = rangesAround(q.lat, q.lng, 10, 1);
      const want = await nearestAddressSql(warehouse, 'fr', q.lat, q.lng, ranges, MAX_M);
      const got = index.nearest(q.lat, q.lng, ranges, MAX_M);
      expect(got, `at ${q.lat}, ${q.lng}`).toEqual(want);
      if (want) found++; else none++;
      if (want && points.filter((p) => p.lat === want.latitude && p.lng === want.longitude).length > 1) ties++;
    }
    expect(found).toBeGreaterThan(50);
    expect(none).toBeGreaterThan(50);
    expect(ties).toBeGreaterThan(5);
  });

  it('keeps null fields null', async () => {
    const withNulls = points.map((p) => index.nearest(p.lat, p.lng, rangesAround(p.lat, p.lng, 10, 1), MAX_M)!);
    expect(withNulls.some((a) => a.number === null)).toBe(true);
    expect(withNulls.some((a) => a.parcels === null)).toBe(true);
    expect(withNulls.some((a) => a.parcels?.length === 0)).toBe(true);
    expect(withNulls.some((a) => a.parcels?.length === 2)).toBe(true);
    expect(withNulls.some((a) => a.postcode === null)).toBe(true);
    expect(withNulls.some((a) => a.rep === 'bis')).toBe(true);
    // Every point finds an address at its position: numbers read back as published, the large ones too.
    const published = new Set(points.map((_, i) => (i % 97 === 0 ? 65_000 + i : -1)));
    expect(withNulls.filter((a) => a.number !== null && a.number >= 65_535 && published.has(a.number)).length).toBeGreaterThan(10);
    expect(withNulls.some((a) => a.number === 0)).toBe(true);
  });

  it('makes the same segment of a file out of cell order, or with the rows of a cell out of id order, as of the file sorted by cell and id', async () => {
    // Each file alone in its data folder; the segment compared as saved (its Arrow IPC files' digests).
    const rows = addressRows(13);
    const saved = async (name: string, order: string) => {
      const data = join(root, `order-${name}`);
      await publish(join(data, 'tables/addresses/country=fr'), rows, order);
      const w = await openLocationWarehouse(data);
      try { expect((await buildAddressIndex(w, 'fr'))?.size).toBe(N); } finally { w.close(); }
      const dir = join(data, '.index/fr/addresses');
      const [segment, ...others] = await readdir(dir);
      expect(others).toEqual([]);
      const files = (await readdir(join(dir, segment!))).sort();
      return Object.fromEntries(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(join(dir, segment!, f))).digest('hex')] as const)));
    };
    const reference = await saved('cell-id', 'cell, id');
    expect(Object.keys(reference)).toContain('rows.arrow');
    // Twins share a cell: read in the file's order, their ids descending.
    expect(await saved('cell-id-desc', 'cell, id DESC')).toEqual(reference);
    expect(await saved('shuffled', 'hash(id)')).toEqual(reference);
  });

  it('is not built above its memory budget', async () => {
    expect(await buildAddressIndex(warehouse, 'fr', N * (ESTIMATED_BYTES_PER_ADDRESS - 1))).toBeNull();
    expect(await buildAddressIndex(warehouse, 'fr', N * ESTIMATED_BYTES_PER_ADDRESS, false)).not.toBeNull();
    expect(await buildAddressIndex(warehouse, 'be')).toBeNull();
  });

  it('serves nearestAddress once built, and is rebuilt when the files change', async () => {
    const first = await addressIndexReady(warehouse, 'fr');
    expect(first?.size).toBe(N);
    expect(addressIndexOf(warehouse, 'fr')).toBe(first);
    const p = points[7]!;
    const ranges = rangesAround(p.lat, p.lng, 10, 1);
    expect(await nearestAddress(warehouse, 'fr', p.lat, p.lng, ranges, MAX_M)).toEqual(await nearestAddressSql(warehouse, 'fr', p.lat, p.lng, ranges, MAX_M));
    // A refresh that left the files alone keeps the index.
    await warehouse.refresh();
    expect(addressIndexOf(warehouse, 'fr')).toBe(first);
    // New files: the index is dropped (DuckDB answers meanwhile), then rebuilt on the new rows.
    await publish(join(root, 'data/tables/addresses/country=fr'), addressRows(12));
    await warehouse.refresh();
    expect(addressIndexOf(warehouse, 'fr')).toBeNull();
    const second = await addressIndexReady(warehouse, 'fr');
    expect(second).not.toBe(first);
    const q = points[9]!;
    const r2 = rangesAround(q.lat, q.lng, 10, 1);
    const got = await nearestAddress(warehouse, 'fr', q.lat, q.lng, r2, MAX_M);
    expect(got).toEqual(await nearestAddressSql(warehouse, 'fr', q.lat, q.lng, r2, MAX_M));
    expect(got?.distance_m).toBe(0);
  });
});
