import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_BYTES, openKeyedStore, writeKeyedStore, type KeyedStore } from '../../../api/core/keyed-store.ts';

let dir: string;
let store: KeyedStore;
/** Every row written, as [key, row], in key order then the query's. */
let written: [string, unknown[]][];
/** Bytes of the rows as JSON lines, uncompressed. */
let textBytes: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keyed-store-'));
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // Keys with one row, with hundreds (spanning several blocks), a key with a quote and a backslash,
  // a non-ASCII key, a null key (left out), lines longer than a block, doubles, nulls, booleans.
  await c.run(`CREATE TABLE t AS
    SELECT CASE WHEN i % 997 = 0 THEN 'many' WHEN i = 5 THEN 'q"u\\o' WHEN i = 6 THEN 'été' WHEN i = 7 THEN NULL ELSE 'k' || lpad((i * 7919 % 5000)::VARCHAR, 5, '0') END AS k,
      i, i * 1.1 AS x, CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || i END AS s, i % 2 = 0 AS b, CASE WHEN i % 1000 = 1 THEN repeat('z', ${BLOCK_BYTES * 2}) ELSE '' END AS long
    FROM range(20000) t(i)`);
  await c.run(`INSERT INTO t SELECT 'many', 20000 + i, 0.5, 'm', true, '' FROM range(3000) t(i)`);
  const path = join(dir, 'store.kstore');
  await writeKeyedStore(c, 'SELECT k, json_array(i, x, s, b, long) AS v, i FROM t', 'k, i DESC', path);
  // What the store must hold: the rows by key then the query's order, as DuckDB gives them.
  written = (await c.runAndReadAll(`SELECT k, json_array(i, x, s, b, long)::VARCHAR AS v FROM t WHERE k IS NOT NULL ORDER BY k, i DESC`)).getRowObjectsJS()
    .map((r) => [r.k as string, JSON.parse(r.v as string) as unknown[]]);
  textBytes = written.reduce((n, [k, v]) => n + Buffer.byteLength(JSON.stringify({ k, v })) + 1, 0);
  c.closeSync(); db.closeSync();
  store = openKeyedStore(path);
});
afterAll(async () => { store?.close(); await rm(dir, { recursive: true, force: true }); });

describe('keyed store', () => {
  it('holds every row but those of a null key, in compressed blocks of whole lines, and leaves no temporary file', async () => {
    expect(written.length).toBe(23000 - 1);
    const keys = [...new Set(written.map(([k]) => k))];
    expect(keys.reduce((n, k) => n + store.get([k]).length, 0)).toBe(written.length);
    expect(store.blocks).toBeGreaterThan(50);
    // The blocks are compressed: the file is a fraction of the rows' JSON text (the long 'z' lines compress well).
    expect(store.bytes).toBeLessThan(textBytes / 3);
    expect(await readdir(dir)).toEqual(['store.kstore']);
  });

  it('refuses a file that is not a keyed store', async () => {
    const other = join(dir, 'other.kstore');
    await writeFile(other, '{"k":"a","v":[1]}\n');
    expect(() => openKeyedStore(other)).toThrow(/not a keyed store/);
    await rm(other);
  });

  it('answers for every key exactly the rows written under it, in their order', () => {
    const keys = [...new Set(written.map(([k]) => k))];
    expect(keys).toContain('many');
    expect(keys).toContain('q"u\\o');
    expect(keys).toContain('été');
    for (const k of keys) expect(store.get([k]), k).toEqual(written.filter(([w]) => w === k).map(([, v]) => v));
    expect(store.get(['many']).length).toBe(3000 + 21);
  });

  it('answers nothing for keys it does not hold, before, between and after its keys', () => {
    for (const k of ['', 'a', 'k', 'k00000a', 'k99999', 'zzz', 'manx', 'many ']) expect(store.get([k]), k).toEqual([]);
  });

  it('answers several keys at once, each once, in key order', () => {
    const want = (k: string) => written.filter(([w]) => w === k).map(([, v]) => v);
    expect(store.get(['k00010', 'nope', 'k00003', 'k00010'])).toEqual([...want('k00010'), ...want('k00003')]);
  });
});
