import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../../../../bench/generate.ts';
import { boundQuery, jaroSimilarity, jaroWinklerBound, jaroWinklerSimilarity, jwBytes } from '../../../../api/location/search/jaro-winkler.ts';
import { cmp } from '../../../../api/location/search/address-index.ts';

let db: DuckDBInstance, c: DuckDBConnection;
beforeAll(async () => { db = await DuckDBInstance.create(':memory:'); c = await db.connect(); });
afterAll(() => { c?.closeSync(); db?.closeSync(); });

/** DuckDB's own scores of the pairs, both ways round. */
async function duckdb(pairs: [string, string][]): Promise<{ s: number; r: number }[]> {
  await c.run('CREATE OR REPLACE TABLE p(i INTEGER, a VARCHAR, b VARCHAR)');
  const app = await c.createAppender('p');
  pairs.forEach(([a, b], i) => { app.appendInteger(i); app.appendVarchar(a); app.appendVarchar(b); app.endRow(); });
  app.closeSync();
  const rows = (await c.runAndReadAll('SELECT jaro_winkler_similarity(a, b) AS s, jaro_winkler_similarity(b, a) AS r FROM p ORDER BY i')).getRowObjects();
  return rows.map((x) => ({ s: x.s as number, r: x.r as number }));
}

const WORDS = ['rue', 'de', 'la', 'l', 'eglise', 'mairie', 'gare', 'avenue', 'chemin', 'victor', 'hugo', 'saint', 'martin', 'grote', 'markt', 'grand', 'place',
  '3e', '1re', 'boulevard', 'zoe', 'straße', 'øster', 'ñu', 'çà', 'école', '東京'];

describe('Jaro-Winkler as DuckDB computes it', () => {
  it('gives the score DuckDB gives, to the last bit, on street keys and their misspellings', async () => {
    const rand = rng(5);
    const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
    const key = () => Array.from({ length: 1 + Math.floor(rand() * 5) }, pick).join(' ');
    const typo = (s: string) => {
      const i = Math.floor(rand() * s.length), k = rand(), ch = 'aeiouxyz é'[Math.floor(rand() * 10)]!;
      return k < 0.3 ? s.slice(0, i) + s.slice(i + 1) : k < 0.6 ? s.slice(0, i) + ch + s.slice(i) : k < 0.8 ? s.slice(0, i) + (s[i + 1] ?? '') + s[i] + s.slice(i + 2) : s.slice(0, i) + ch + s.slice(i + 1);
    };
    const pairs: [string, string][] = [['crate', 'trace'], ['dwayne', 'duane'], ['0', '00'], ['abc', 'bca'], ['a', 'b'], ['ab', 'ba'], ['x', 'x']];
    for (let i = 0; i < 1500; i++) {
      const k = key();
      pairs.push([k, typo(k)], [typo(typo(k)), k], [k, key()]);
    }
    const want = await duckdb(pairs);
    const got = pairs.map(([a, b]) => ({ s: jaroWinklerSimilarity(jwBytes(a), jwBytes(b)), r: jaroWinklerSimilarity(jwBytes(b), jwBytes(a)) }));
    expect(got).toEqual(want);
    // Not all alike: high, low, and the Winkler prefix bonus all met.
    expect(got.filter((x) => x.s >= 0.9 && x.s < 1).length).toBeGreaterThan(500);
    expect(got.filter((x) => x.s < 0.7).length).toBeGreaterThan(500);
    expect(jaroWinklerSimilarity('0', '00')).toBeGreaterThan(jaroSimilarity('0', '00'));
  });

  it('orders strings as DuckDB does (UTF-8 bytes)', async () => {
    const xs = ['rue b', 'rue a', 'rue é', 'rue z', 'rue', 'rue \u{1F600}', 'rue \uFF21', 'Rue', 'rue 1'];
    const rows = (await c.runAndReadAll(`SELECT x FROM (VALUES ${xs.map((_, i) => `($${i + 1})`).join(', ')}) t(x) ORDER BY x`, xs)).getRowObjects();
    expect([...xs].sort(cmp)).toEqual(rows.map((r) => r.x));
  });
});

describe('the upper bound that prefilters the spelling-variant search', () => {
  it('is never below the score, on street keys, their misspellings and unrelated keys, ASCII or not', () => {
    const rand = rng(11);
    const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
    const key = () => Array.from({ length: 1 + Math.floor(rand() * 5) }, pick).join(' ');
    let pruned = 0, n = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = key(), b = rand() < 0.5 ? key() : a.slice(0, Math.floor(rand() * a.length)) + 'e' + a.slice(Math.floor(rand() * a.length));
      const [x, y] = [jwBytes(a), jwBytes(b)];
      const sim = jaroWinklerSimilarity(x, y), bound = jaroWinklerBound(x, boundQuery(y));
      expect(bound, `${a} / ${b}`).toBeGreaterThanOrEqual(sim - 1e-12);
      n++; if (bound < 0.9) pruned++;
    }
    // And it prunes: most unrelated pairs are skipped at the search's threshold (0.9).
    expect(pruned / n).toBeGreaterThan(0.2);
  });

  it('is 1 for equal keys and 0 for keys sharing no byte', () => {
    expect(jaroWinklerBound('rue de la gare', boundQuery('rue de la gare'))).toBeCloseTo(1, 12);
    expect(jaroWinklerBound('abc', boundQuery('xyz'))).toBe(0);
    expect(jaroWinklerBound('', boundQuery(''))).toBe(1);
  });
});

