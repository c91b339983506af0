import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestNational } from '../../../../bench/national.ts';
import { rng } from '../../../../bench/generate.ts';
import type { Warehouse } from '../../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../../api/location/warehouse.ts';
import { buildAddressIndex, type AddressIndex, type BuildStats } from '../../../../api/location/search/address-index.ts';
import { findStreet, nearestAddressSql, nearKeysSql, withTrailingLocality, NEAR_LIMIT, NEAR_MIN, type OfficialAddress } from '../../../../api/location/search/official.ts';
import { parseAddressQuery, streetKey } from '../../../../api/location/address/index.ts';
import { rangesAround } from '../../../../schemas/tables/cells.ts';
import type { Country } from '../../../../schemas/common.ts';

const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
let root: string, warehouse: Warehouse;
const indexes = new Map<Country, AddressIndex>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lds-index-streets-'));
  const ctx = { dataDir: join(root, 'data'), maxRejectShare: 0, now: () => new Date(), log: () => {}, progressOut: devNull };
  await ingestNational(ctx, join(root, 'work'), { fr: 12_000, ca: 4_000, be: 4_000 });
  warehouse = await openLocationWarehouse(join(root, 'data'));
  for (const c of ['fr', 'ca', 'be'] as const) indexes.set(c, (await buildAddressIndex(warehouse, c, undefined, false))!);
}, 180_000);
afterAll(async () => { warehouse?.close(); await rm(root, { recursive: true, force: true }); });

type Row = OfficialAddress & { street_key: string };
const sample = (c: Country, n: number, seed: number) => warehouse.query<Row>(
  `SELECT id, latitude, longitude, number, rep, street, street_key, postcode, locality_code, locality_name, label, locality_key FROM ${c}_addresses USING SAMPLE ${n} ROWS (reservoir, ${seed})`);

/** Queries of every shape the search meets, built from rows of the table. */
function queries(rows: Row[], rand: () => number): { text: string; filters?: { citycode?: string; postcode?: string } }[] {
  const out: { text: string; filters?: { citycode?: string; postcode?: string } }[] = [];
  for (const r of rows) {
    const city = r.locality_name;
    out.push({ text: r.label });
    out.push({ text: `${r.number ?? ''} ${r.street} ${city}` });
    out.push({ text: r.street });
    out.push({ text: `${r.street} ${r.postcode ?? ''}` });
    out.push({ text: `${r.number ?? 1} ${r.street}`, filters: { citycode: r.locality_code } });
    if (r.postcode) out.push({ text: `${r.number ?? 1} ${r.street}`, filters: { postcode: r.postcode } });
    // Misspellings (a letter dropped, two letters swapped): the spelling-variant search, then
    // the index's entries; with the locality, alone (every key of the country), with a postcode
    // or a commune code filter.
    const at = 3 + Math.floor(rand() * Math.max(1, r.street.length - 4));
    const dropped = `${r.street.slice(0, at)}${r.street.slice(at + 1)}`;
    const swapped = `${r.street.slice(0, at)}${r.street[at + 1] ?? ''}${r.street[at]}${r.street.slice(at + 2)}`;
    out.push({ text: `${r.number ?? 1} ${dropped} ${city}` });
    out.push({ text: `${r.number ?? 1} ${swapped}` });
    if (r.postcode) out.push({ text: `${dropped} ${r.postcode}` });
    out.push({ text: `${r.number ?? 1} ${swapped}`, filters: { citycode: r.locality_code } });
  }
  return out;
}

describe('address index: street search', () => {
  for (const country of ['fr', 'ca', 'be'] as const) {
    it(`gives findStreet the answers of the DuckDB path (${country})`, async () => {
      const rand = rng(3);
      const index = indexes.get(country)!;
      expect(index.size).toBeGreaterThan(3_000);
      let found = 0, many = 0, misspelt = 0, near = 0, trailing = 0;
      // Eight queries at a time (the SQL path runs on the warehouse's pool of connections).
      const check = async ({ text, filters }: ReturnType<typeof queries>[number]) => {
        const parsed = parseAddressQuery(text, { country });
        // A locality named at the end of the query, read from the index as from DuckDB.
        const named = await withTrailingLocality(warehouse, country, parsed, null);
        expect(await withTrailingLocality(warehouse, country, parsed, index), text).toEqual(named);
        if (named.locality) trailing++;
        const q = named.q;
        const sql = await findStreet(warehouse, country, q, filters, null);
        const mem = await findStreet(warehouse, country, q, filters, index);
        expect(mem, `${text} ${JSON.stringify(filters ?? {})}`).toEqual(sql);
        if (sql) found++;
        if (sql && sql.streetScore < 1) misspelt++;
        if (sql && new Set(sql.candidates.map((c) => c.locality_code)).size > 1) many++;
        // The spelling variants themselves: the same three keys and scores, to the last bit.
        const key = q.street ? streetKey(q.street) : '';
        if (key) {
          const nf = { postcode: q.postcode === null ? null : q.postcode.replace(/\s+/g, '').toUpperCase(), city: q.city, citycode: filters?.citycode ?? null };
          const want = await nearKeysSql(warehouse, country, key, nf);
          expect(index.nearKeys(key, nf, NEAR_MIN, NEAR_LIMIT), `${key} ${JSON.stringify(nf)}`).toEqual(want);
          if (want.length > 1) near++;
        }
      };
      const all = queries(await sample(country, 20, 11), rand);
      for (let i = 0; i < all.length; i += 8) await Promise.all(all.slice(i, i + 8).map(check));
      expect(found).toBeGreaterThan(100);
      // Street names shared by several localities, answered without a place.
      expect(many).toBeGreaterThan(5);
      // Misspellings found through the spelling-variant search, several keys close to some.
      expect(misspelt).toBeGreaterThan(30);
      expect(near).toBeGreaterThan(5);
      expect(trailing).toBeGreaterThan(10);
    }, 300_000);

    it(`gives the nearest address of the DuckDB path (${country})`, async () => {
      const index = indexes.get(country)!;
      let found = 0;
      const points = (await sample(country, 150, 5)).flatMap((r) => ([[0, 0], [0.00005, -0.00003], [0.0004, 0.0002]] as const).map(([dLat, dLng]) => [r.latitude + dLat, r.longitude + dLng] as const));
      const check = async ([lat, lng]: readonly [number, number]) => {
        const ranges = rangesAround(lat, lng, 10, 1);
        const want = await nearestAddressSql(warehouse, country, lat, lng, ranges, 25);
        expect(index.nearest(lat, lng, ranges, 25), `${lat}, ${lng}`).toEqual(want);
        if (want) found++;
      };
      for (let i = 0; i < points.length; i += 8) await Promise.all(points.slice(i, i + 8).map(check));
      expect(found).toBeGreaterThan(300);
    }, 120_000);
  }

  it('is saved as Arrow IPC files beside the data and loaded at the next start, with the same answers', async () => {
    const stats = (): BuildStats => ({ built: 0, loaded: 0, buildMs: 0, loadMs: 0, saveMs: 0 });
    for (const country of ['fr', 'be'] as const) {
      const first = stats(), second = stats();
      const built = (await buildAddressIndex(warehouse, country, undefined, true, first))!;
      expect(first.loaded).toBe(0);
      expect(first.built).toBeGreaterThan(0);
      // A new process would find them: the same files give the saved segments.
      const loaded = (await buildAddressIndex(warehouse, country, undefined, true, second))!;
      expect(second).toMatchObject({ built: 0, loaded: first.built });
      expect(loaded.size).toBe(built.size);
      for (const r of await sample(country, 40, 9)) {
        const ranges = rangesAround(r.latitude, r.longitude, 10, 1);
        expect(loaded.nearest(r.latitude, r.longitude, ranges, 25)).toEqual(built.nearest(r.latitude, r.longitude, ranges, 25));
        const q = parseAddressQuery(r.label, { country });
        expect(await findStreet(warehouse, country, q, {}, loaded)).toEqual(await findStreet(warehouse, country, q, {}, built));
      }
    }
    expect(readdirSync(join(root, 'data/.index/fr/addresses')).length).toBe(95);
  }, 120_000);

  it('holds an address in a few tens of bytes', () => {
    for (const [c, index] of indexes) expect(index.bytes / index.size, c).toBeLessThan(80);
  });
});
