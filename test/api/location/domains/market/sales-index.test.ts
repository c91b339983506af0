import { mkdir, mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { cellToBoundary, latLngToCell } from 'h3-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Warehouse } from '../../../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../../../api/location/warehouse.ts';
import { buildSalesIndex, quantileCont, salesIndexOf, salesIndexReady, type SalesIndex } from '../../../../../api/location/domains/market/sales-index.ts';
import { salesAround, salesAroundSql } from '../../../../../api/location/domains/market/sales-nearby.ts';
import { pointCell } from '../../../../../schemas/tables/cells.ts';
// Deterministic numbers in [0, 1) (mulberry32), so a run can be replayed.
import { prng as rng } from '../../../../../datasets/fr/tools/addresses.ts';


const CENTER = { lat: 48.8566, lng: 2.3522 };
const WINDOW = { start: '2023-01-01', end: '2024-12-31' };
const N = 12_000;
let root: string, file: string;
let warehouse: Warehouse, index: SalesIndex;
let db: DuckDBInstance, c: DuckDBConnection;
const sales: { lat: number; lng: number }[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lds-sales-index-'));
  const rand = rng(7);
  const rows: string[] = ['id,date,property_type,price,surface,rooms,price_per_m2,parcels,address,latitude,longitude,cell'];
  for (let i = 0; i < N; i++) {
    // One sale in eight at the position (and often the date) of an earlier one: ties in distance, then date, then id.
    const twin = i > 0 && rand() < 0.125 ? Math.floor(rand() * i) : -1;
    const r = 3000 * Math.sqrt(rand()), a = 2 * Math.PI * rand();
    const p = twin >= 0 ? sales[twin]! : { lat: +(CENTER.lat + (r * Math.sin(a)) / 111_195).toFixed(6), lng: +(CENTER.lng + (r * Math.cos(a)) / (111_195 * Math.cos((CENTER.lat * Math.PI) / 180))).toFixed(6) };
    sales.push(p);
    const u = rand();
    const type = u < 0.6 ? 'apartment' : u < 0.9 ? 'house' : 'other';
    const surface = type === 'other' ? '' : String(20 + Math.floor(rand() * 120));
    const price = rand() < 0.02 ? '' : String(100_000 + Math.floor(rand() * 900) * 1000);
    const ppm = type !== 'other' && price && surface && rand() < 0.9 ? String(Number(price) / Number(surface)) : '';
    const date = twin >= 0 && rand() < 0.5 ? '2024-03-15' : new Date(Date.UTC(2020, 0, 1) + Math.floor(rand() * 1900) * 86_400_000).toISOString().slice(0, 10);
    // Ids of several lengths and a non-ASCII one: their order is byte order, as DuckDB compares VARCHAR.
    const id = i % 97 === 0 ? `é-${i}` : `2024-${i}`;
    const address = rand() < 0.05 ? '' : `"${1 + (i % 90)} RUE TEST, 75003 PARIS"`;
    const rooms = surface && rand() < 0.9 ? String(1 + Math.floor(Number(surface) / 25)) : '';
    rows.push([id, date, type, price, surface, rooms, ppm, `75103000AB${String(i % 10_000).padStart(4, '0')}`, address, p.lat, p.lng, pointCell(p.lat, p.lng)].join(','));
  }
  // A sale without position, which no radius ever counts.
  rows.push('2024-nopos,2024-01-01,apartment,100000,50,2,2000,75103000AB9999,,,,');
  const csv = join(root, 'sales.csv');
  await writeFile(csv, `${rows.join('\n')}\n`);
  await mkdir(join(root, 'data/tables/sales/country=fr'), { recursive: true });
  file = join(root, 'data/tables/sales/country=fr/sales.parquet');
  db = await DuckDBInstance.create(':memory:');
  c = await db.connect();
  // parcels as the sales table holds them: a list (schemas/tables/sales.ts).
  await c.run(`COPY (SELECT * REPLACE (string_split(parcels, '|') AS parcels) FROM read_csv('${csv}', header = true, columns = {'id': 'VARCHAR', 'date': 'DATE', 'property_type': 'VARCHAR', 'price': 'DOUBLE', 'surface': 'DOUBLE',
      'rooms': 'INTEGER', 'price_per_m2': 'DOUBLE', 'parcels': 'VARCHAR', 'address': 'VARCHAR', 'latitude': 'DOUBLE', 'longitude': 'DOUBLE', 'cell': 'BIGINT'}) ORDER BY cell)
    TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  warehouse = await openLocationWarehouse(join(root, 'data'));
  index = (await buildSalesIndex(warehouse))!;
});
afterAll(async () => { await warehouse?.close(); c?.closeSync(); db?.closeSync(); });

/**
 * The reference, written here independently of the service: every row of the file (no cells),
 * great-circle distance, quantile_cont per type, then the page by distance, date desc, id.
 */
async function reference(lat: number, lng: number, radius: number, type: string | null, offset: number, limit: number) {
  const dist = `2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(latitude)) * pow(sin(radians(longitude - ${lng}) / 2), 2)))`;
  const rel = `(SELECT *, ${dist} AS d FROM '${file}' WHERE ${dist} <= ${Math.floor(radius)}${type ? ` AND property_type = '${type}'` : ''})`;
  const win = `price_per_m2 IS NOT NULL AND date BETWEEN DATE '${WINDOW.start}' AND DATE '${WINDOW.end}'`;
  const stats = (await c.runAndReadAll(`SELECT property_type, count(*)::INTEGER AS count, (count(*) FILTER (WHERE ${win}))::INTEGER AS priced,
      quantile_cont(price_per_m2, 0.5) FILTER (WHERE ${win}) AS median, quantile_cont(price_per_m2, 0.25) FILTER (WHERE ${win}) AS q1,
      quantile_cont(price_per_m2, 0.75) FILTER (WHERE ${win}) AS q3 FROM ${rel} GROUP BY 1 ORDER BY 1`)).getRowObjectsJS();
  const items = (await c.runAndReadAll(`SELECT id, strftime(date, '%Y-%m-%d') AS date, d FROM ${rel} ORDER BY d, date DESC, id LIMIT ${limit} OFFSET ${offset}`)).getRowObjectsJS();
  return { stats, items: items as { id: string; date: string; d: number }[] };
}

async function expectSame(lat: number, lng: number, radius: number, type: string | null = null, offset = 0, limit = 10) {
  const got = index.around(lat, lng, radius, type, WINDOW, { limit, offset });
  const ref = await reference(lat, lng, radius, type, offset, limit);
  const where = `at ${lat}, ${lng} within ${radius} m`;
  expect([...got.stats].sort((a, b) => (a.property_type < b.property_type ? -1 : 1)), where).toEqual(ref.stats);
  expect(got.items.map((i) => [i.id, i.date]), where).toEqual(ref.items.map((i) => [i.id, i.date]));
  got.items.forEach((it, k) => expect(it.distance_m, where).toBeCloseTo(ref.items[k]!.d, 6));
  // And the SQL path of the service answers the same, item for item (all columns).
  const sql = await salesAroundSql(warehouse, lat, lng, radius, type, WINDOW, { limit, offset });
  expect(got.stats.length).toBe(sql.stats.length);
  for (const s of sql.stats) expect(got.stats.find((g) => g.property_type === s.property_type), where).toEqual(s);
  expect(got.items.map((i) => ({ ...i, distance_m: Math.round(i.distance_m * 1e6) }))).toEqual(sql.items.map((i) => ({ ...i, distance_m: Math.round(i.distance_m * 1e6) })));
  return got;
}

describe('in-process sales index (radius queries)', () => {
  it('holds every positioned sale and states its memory', () => {
    expect(index.size).toBe(N);
    expect(index.bytes).toBeGreaterThan(N * 61);
    expect(index.bytes).toBeLessThan(N * 130);
  });

  it('answers random points and radii as DuckDB does over the whole file', async () => {
    const rand = rng(99);
    const radii = [30, 120, 300, 500, 700, 701, 1200, 2500];
    let nonEmpty = 0;
    for (let q = 0; q < 40; q++) {
      const lat = CENTER.lat + (rand() - 0.5) * 0.06, lng = CENTER.lng + (rand() - 0.5) * 0.09;
      const type = q % 5 === 3 ? 'house' : q % 5 === 4 ? 'apartment' : null;
      const got = await expectSame(lat, lng, radii[q % radii.length]! + rand(), type, q % 7 === 0 ? 15 : 0, q % 7 === 0 ? 40 : 10);
      if (got.stats.some((s) => s.count > 20 && s.median !== null)) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it('answers the same on cell vertices, at cell centres and on a sale, at resolutions 8 and 9', async () => {
    for (const [k, res] of [[0, 9], [1, 8], [2, 9]] as const) {
      const s = sales[k * 1000]!;
      const cell = latLngToCell(s.lat, s.lng, res);
      for (const [lat, lng] of [...cellToBoundary(cell), [s.lat, s.lng]]) {
        await expectSame(lat!, lng!, res === 8 ? 900 : 400);
        await expectSame(lat!, lng!, res === 8 ? 701 : 699.9);
      }
    }
  });

  it('draws the rim where the SQL path draws it: distance <= floor(radius)', async () => {
    const rand = rng(5);
    let rims = 0;
    for (let q = 0; q < 12; q++) {
      const lat = CENTER.lat + (rand() - 0.5) * 0.02, lng = CENTER.lng + (rand() - 0.5) * 0.03;
      const near = (await reference(lat, lng, 800, null, 0, 200)).items;
      const rim = near[Math.floor(rand() * near.length)];
      if (!rim) continue;
      // Just inside, just outside, and the fractional radius that floors to just outside.
      for (const r of [Math.floor(rim.d) + 1, Math.floor(rim.d), Math.floor(rim.d) + 0.99]) {
        const got = await expectSame(lat, lng, r, null, 0, 200);
        const has = got.items.some((i) => i.id === rim.id);
        expect(has).toBe(rim.d <= Math.floor(r));
        rims++;
      }
    }
    expect(rims).toBeGreaterThan(20);
  });

  it('pages past the first items and leaves the medians null outside the window', async () => {
    const got = await expectSame(CENTER.lat, CENTER.lng, 600, null, 95, 100);
    expect(got.items.length).toBe(100);
    const none = index.around(CENTER.lat, CENTER.lng, 600, null, null, { limit: 0, offset: 0 });
    expect(none.items).toEqual([]);
    expect(none.stats.every((s) => s.priced === 0 && s.median === null)).toBe(true);
    expect(none.stats.map((s) => s.count)).toEqual(got.stats.map((s) => s.count));
    // Far from every sale: nothing, as the SQL path.
    expect(index.around(45.76, 4.83, 500, null, WINDOW, { limit: 10, offset: 0 })).toEqual({ stats: [], items: [] });
  });

  it('serves salesAround once built, keeps it over a refresh that left the files alone, rebuilds after a rewrite', async () => {
    const built = await salesIndexReady(warehouse);
    expect(built?.size).toBe(N);
    expect(salesIndexOf(warehouse)).toBe(built);
    const a = await salesAround(warehouse, CENTER.lat, CENTER.lng, 500, null, WINDOW, { limit: 10, offset: 0 });
    expect(a).toEqual(built!.around(CENTER.lat, CENTER.lng, 500, null, WINDOW, { limit: 10, offset: 0 }));
    await warehouse.refresh();
    expect(salesIndexOf(warehouse)).toBe(built);
    // The file republished without its first sale: a new index, the SQL path answering until it is ready.
    const next = join(root, 'next.parquet');
    await c.run(`COPY (SELECT * FROM '${file}' WHERE id <> '2024-1' ORDER BY cell) TO '${next}' (FORMAT parquet)`);
    await rename(next, file);
    await warehouse.refresh();
    expect(salesIndexOf(warehouse)).toBeNull();
    const rebuilt = await salesIndexReady(warehouse);
    expect(rebuilt).not.toBe(built);
    expect(rebuilt?.size).toBe(N - 1);
    index = rebuilt!;
    await expectSame(CENTER.lat, CENTER.lng, 800);
  });

  it('stays on DuckDB when the table exceeds the memory budget', async () => {
    expect(await buildSalesIndex(warehouse, N * 61)).toBeNull();
  });

  it('interpolates quantiles as quantile_cont', () => {
    expect(quantileCont(Float64Array.from([4, 1, 3, 2]), 0.5)).toBe(2.5);
    expect(quantileCont(Float64Array.from([10, 40, 20, 30, 50]), 0.25)).toBe(20);
    expect(quantileCont(Float64Array.from([7]), 0.75)).toBe(7);
    expect(quantileCont(Float64Array.from([5, 1, 9, 1, 5, 5, 2]), 0.75)).toBe(5);
  });
});
