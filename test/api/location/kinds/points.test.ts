import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../../api/core/warehouse.ts';
import { buildPointsIndex, nearestPoint, nearestPointSql, NEAREST_FIRST_RADIUS_M, pointsAround, pointsAroundLite, pointsAroundSql, pointsIndexReady, type LitePointHit, type PointsAnswer, type PointsQuery } from '../../../../api/location/kinds/points.ts';
import { distanceM, RAD } from '../../../../api/location/kinds/radius.ts';
import { prng } from '../../../../datasets/fr/tools/addresses.ts';
import { PointsWriter, type PointInput } from '../../../../ingest/core/kinds/points.ts';

// A points table written by the ingest helper, read back by the API reader on both paths.
const CATEGORIES = ['school.primary', 'school.high_school', 'health.pharmacy', 'transport.bus', 'transport.train_station', 'shop'];
const rand = prng(2026);
const points: PointInput[] = [];
let dataDir: string;
let warehouse: Warehouse;

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-points-')), 'data');
  for (let i = 0; i < 4000; i++) {
    points.push({
      id: `test.${String(i).padStart(5, '0')}`, longitude: 2.30 + rand() * 0.12, latitude: 48.82 + rand() * 0.08,
      category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)]!, name: i % 7 === 0 ? null : `Place ${i}`, attributes: i % 3 === 0 ? { lines: [`L${i % 5}`] } : null,
    });
  }
  // Two points at the same position: their order is by id.
  points.push({ ...points[0]!, id: 'test.twin-b' }, { ...points[0]!, id: 'test.twin-a' });
  const writer = await PointsWriter.open(dataDir, 'fr', 'test_points', 'sample', 'test');
  for (const p of points) expect(writer.add(p)).toBeNull();
  for (const { prepared } of await writer.prepare()) await prepared.commit();
  warehouse = await openWarehouse(dataDir, { tables: ['test_points'], memoryTables: {} });
});
afterAll(() => warehouse?.close());

/** The answer computed by brute force over the generated points. */
function bruteForce(q: PointsQuery): PointsAnswer {
  const cosLat = Math.cos(q.lat * RAD);
  const hits = points
    .filter((p) => !q.categories || q.categories.some((c) => p.category === c || p.category.startsWith(`${c}.`)))
    .map((p) => ({ p, d: distanceM(q.lat, q.lng, cosLat, p.latitude, p.longitude) }))
    .filter((h) => h.d <= q.radiusM)
    .sort((a, b) => a.d - b.d || (a.p.id < b.p.id ? -1 : 1));
  const counts: Record<string, number> = {};
  for (const h of hits) counts[h.p.category] = (counts[h.p.category] ?? 0) + 1;
  return {
    counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))), total: hits.length,
    items: hits.slice(q.offset, q.offset + q.limit).map(({ p, d }) => ({
      id: p.id, category: p.category, name: p.name, attributes: p.attributes ?? null, latitude: p.latitude, longitude: p.longitude, distance_m: d, source: 'test',
    })),
  };
}

/** Distances to the micrometre: DuckDB's and V8's sine may differ in the last bit; served distances are whole meters. */
const micro = (a: PointsAnswer) => ({ ...a, items: a.items.map((i) => ({ ...i, distance_m: Math.round(i.distance_m * 1e6) / 1e6 })) });

const queries: PointsQuery[] = Array.from({ length: 60 }, (_, i) => ({
  lat: 48.82 + rand() * 0.08, lng: 2.30 + rand() * 0.12, radiusM: [100, 350, 1000, 2000][i % 4]!,
  categories: [undefined, ['school'], ['transport.bus', 'health'], ['shop']][i % 4], limit: 10, offset: i % 3 === 0 ? 5 : 0,
}));

describe('points table kind', () => {
  it('answers from the Parquet files as a brute-force scan of the source points does', async () => {
    for (const q of queries) expect(micro(await pointsAroundSql(warehouse, 'fr', 'test_points', q))).toEqual(micro(bruteForce(q)));
  });

  it('answers from the in-memory index exactly as from the files', async () => {
    const index = (await buildPointsIndex(warehouse, 'fr', 'test_points'))!;
    expect(index.size).toBe(points.length);
    for (const q of queries) expect(micro(index.around(q))).toEqual(micro(await pointsAroundSql(warehouse, 'fr', 'test_points', q)));
  });

  it('reads names and positions alone (aroundLite), the attributes when asked, as the full answer gives them', async () => {
    const index = (await buildPointsIndex(warehouse, 'fr', 'test_points'))!;
    const loaded = (a: { counts: Record<string, number>; total: number; items: LitePointHit[] }): PointsAnswer => ({
      ...a, items: a.items.map(({ loadAttributes, ...h }) => ({ ...h, attributes: loadAttributes() })),
    });
    for (const q of queries) {
      const lite = index.aroundLite(q);
      expect(lite.items.every((h) => !('attributes' in h))).toBe(true);
      expect(micro(loaded(lite))).toEqual(micro(bruteForce(q)));
    }
    // Before the index is built, the files' answer in the same form.
    const fresh = await openWarehouse(dataDir, { tables: ['test_points'], memoryTables: {} });
    try {
      for (const q of queries.slice(0, 8)) expect(micro(loaded(await pointsAroundLite(fresh, 'fr', 'test_points', q)))).toEqual(micro(bruteForce(q)));
    } finally { await fresh.close(); }
  });

  it('orders points at the same distance by id, and serves the index once it is ready', async () => {
    const p = points[0]!;
    const q = { lat: p.latitude, lng: p.longitude, radiusM: 100, limit: 3, offset: 0 };
    expect((await pointsAroundSql(warehouse, 'fr', 'test_points', q)).items.map((i) => i.id)).toEqual(['test.00000', 'test.twin-a', 'test.twin-b']);
    expect(await pointsIndexReady(warehouse, 'fr', 'test_points')).not.toBeNull();
    expect(micro(await pointsAround(warehouse, 'fr', 'test_points', q))).toEqual(micro(await pointsAroundSql(warehouse, 'fr', 'test_points', q)));
  });

  it('finds the nearest point of a category however far, from the index as from the files and by brute force', async () => {
    const index = (await buildPointsIndex(warehouse, 'fr', 'test_points'))!;
    // Query points inside the area (the first radius answers) and 20 to 200 km away (the category scan answers).
    const far = Array.from({ length: 40 }, (_, i) => ({
      lat: i % 2 === 0 ? 48.82 + rand() * 0.08 : 47 + rand() * 2, lng: i % 2 === 0 ? 2.30 + rand() * 0.12 : 0.5 + rand() * 1.2,
      categories: [['school'], ['transport.train_station'], ['health.pharmacy', 'shop'], ['transport']][i % 4]!,
    }));
    let beyond = 0;
    for (const q of far) {
      const cosLat = Math.cos(q.lat * RAD);
      const brute = points.filter((p) => q.categories.some((c) => p.category === c || p.category.startsWith(`${c}.`)))
        .map((p) => ({ id: p.id, d: distanceM(q.lat, q.lng, cosLat, p.latitude, p.longitude) })).sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))[0]!;
      const fromIndex = index.nearest(q)!, fromSql = (await nearestPointSql(warehouse, 'fr', 'test_points', q))!;
      expect(fromIndex.id).toBe(brute.id);
      expect(fromSql.id).toBe(brute.id);
      expect(fromIndex.distance_m).toBeCloseTo(fromSql.distance_m, 6);
      if (brute.d > NEAREST_FIRST_RADIUS_M) beyond++;
    }
    expect(beyond).toBeGreaterThanOrEqual(20);
    // Ties by id, and no point of an absent category.
    const p = points[0]!;
    expect(index.nearest({ lat: p.latitude, lng: p.longitude, categories: [p.category] })!.id).toBe('test.00000');
    expect(index.nearest({ lat: 48, lng: 2, categories: ['transport.airport'] })).toBeNull();
    expect(await nearestPointSql(warehouse, 'fr', 'test_points', { lat: 48, lng: 2, categories: ['transport.airport'] })).toBeNull();
    expect((await nearestPoint(warehouse, 'fr', 'test_points', far[1]!))!.id).toBe(index.nearest(far[1]!)!.id);
  });

  it('refuses rows the schema refuses, with the reason, and keeps no duplicate id', async () => {
    const writer = await PointsWriter.open(dataDir, 'fr', 'bad_points', 'sample', 'test');
    expect(writer.add({ id: 'x', longitude: NaN, latitude: 48, category: 'shop', name: null })).toBe('no position');
    expect(writer.add({ id: 'x', longitude: 2, latitude: 95, category: 'shop', name: null })).toMatch(/latitude/);
    expect(writer.add({ id: 'x', longitude: 2, latitude: 48, category: 'Shop Food', name: null })).toMatch(/category/);
    expect(writer.add({ id: 'x', longitude: 2, latitude: 48, category: 'shop', name: '  ' })).toBeNull();
    expect(writer.add({ id: 'x', longitude: 2, latitude: 48, category: 'shop', name: null })).toBe('duplicate id x');
    await writer.abort();
  });
});
