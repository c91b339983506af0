import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestNational, longTail } from '../../bench/national.ts';
import { openLocationWarehouse } from '../../api/location/warehouse.ts';
import type { Warehouse } from '../../api/core/warehouse.ts';

const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
let root: string, warehouse: Warehouse;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lds-national-'));
  const ctx = { dataDir: join(root, 'data'), maxRejectShare: 0, now: () => new Date(), log: () => {}, progressOut: devNull };
  await ingestNational(ctx, join(root, 'work'), { fr: 60_000, ca: 6_000, be: 6_000 });
  warehouse = await openLocationWarehouse(join(root, 'data'));
}, 120_000);
afterAll(async () => { warehouse?.close(); await rm(root, { recursive: true, force: true }); });

const one = async <T,>(sql: string) => (await warehouse.query<T>(sql))[0]!;

describe('national address generator', () => {
  it('splits a total into long-tailed parts that add up', () => {
    const s = longTail(1_000_000, 35_000, 4);
    expect(s.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(Math.min(...s)).toBeGreaterThanOrEqual(4);
    expect(s[0]! / s.at(-1)!).toBeGreaterThan(100);
  });

  it('writes France through fr.ban: every row kept, communes of very different sizes, shared names and postcodes, suffixes, lieux-dits', async () => {
    const r = await one<{ n: number; communes: number; depts: number }>(`SELECT count(*)::INT AS n, count(DISTINCT locality_code)::INT AS communes, count(DISTINCT left(locality_code, 2))::INT AS depts FROM fr_addresses`);
    expect(r).toEqual({ n: 60_000, communes: 2_000, depts: 95 });
    const streets = await warehouse.query<{ s: number }>(`SELECT count(DISTINCT street_key)::INT AS s FROM fr_addresses GROUP BY locality_code ORDER BY s`);
    expect(streets[0]!.s).toBeLessThanOrEqual(3);
    expect(streets.at(-1)!.s).toBeGreaterThan(15);
    // The same street name in many communes, the same commune name in several departments, one postcode for several communes.
    expect((await one<{ c: number }>(`SELECT count(DISTINCT locality_code)::INT AS c FROM fr_addresses WHERE street_key = (SELECT street_key FROM fr_addresses GROUP BY 1 ORDER BY count(DISTINCT locality_code) DESC LIMIT 1)`)).c).toBeGreaterThan(500);
    expect((await one<{ c: number }>(`SELECT max(c)::INT AS c FROM (SELECT count(DISTINCT left(locality_code, 2)) AS c FROM fr_addresses GROUP BY locality_name)`)).c).toBeGreaterThan(1);
    expect((await one<{ c: number }>(`SELECT max(c)::INT AS c FROM (SELECT count(DISTINCT locality_code) AS c FROM fr_addresses GROUP BY postcode)`)).c).toBeGreaterThan(2);
    expect((await one<{ c: number }>(`SELECT count(*)::INT AS c FROM fr_addresses WHERE rep IS NOT NULL`)).c).toBeGreaterThan(500);
    expect((await one<{ c: number }>(`SELECT count(*)::INT AS c FROM fr_addresses WHERE street LIKE 'Le Bourg%' OR street LIKE 'Les Granges%'`)).c).toBeGreaterThan(0);
  });

  it('writes Quebec through ca.adresses-quebec, with ordinal streets and French and English generics', async () => {
    expect((await one<{ n: number }>(`SELECT count(*)::INT AS n FROM ca_addresses`)).n).toBe(6_000);
    const names = (await warehouse.query<{ street: string }>(`SELECT DISTINCT street FROM ca_addresses`)).map((r) => r.street);
    expect(names).toContain('1re Avenue');
    expect(names.filter((s) => /^\d/.test(s))).toContain('2e Rue');
    expect(names.some((s) => s.startsWith('rue '))).toBe(true);
    expect(names.some((s) => s.endsWith(' Street'))).toBe(true);
  });

  it('writes Belgium through be.best, an address in two or three languages', async () => {
    const r = await one<{ n: number; two: number; three: number }>(`SELECT count(*)::INT AS n,
      count(*) FILTER (WHERE len(string_split(street_key, '|')) = 2)::INT AS two, count(*) FILTER (WHERE len(string_split(locality_key, '|')) >= 3)::INT AS three FROM be_addresses`);
    expect(r.n).toBe(6_000);
    expect(r.two).toBeGreaterThan(0);
    expect(r.three).toBeGreaterThan(0);
  });
});
