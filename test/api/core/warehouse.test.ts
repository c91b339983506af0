import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse, WarehouseClosedError } from '../../../api/core/warehouse.ts';
import { WAREHOUSE_LAYOUT } from '../../../api/location/domains/index.ts';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { BAN_HEADER, BAN_ROWS, banLine, silentContext } from '../../helpers/fixture-data.ts';

describe('warehouse', () => {
  it('closes under running queries: stops them, waits for them to settle, refuses any later one', async () => {
    const w = await openWarehouse(await mkdtemp(join(tmpdir(), 'lds-wh-close-')), WAREHOUSE_LAYOUT);
    // Long enough never to end by itself here: only the close stops them.
    const long = 'SELECT sum(length(md5(i::VARCHAR))) AS n FROM range(1000000000000) t(i)';
    const settled = (p: Promise<unknown>) => p.then(() => 'resolved', (e: Error) => e);
    const running = [1, 2, 3].map(() => settled(w.query(long)));
    const scanned = settled(w.scan('SELECT md5(i::VARCHAR) FROM range(1000000000000) t(i)', () => {}));
    // The pool (4 connections) is taken: this one waits for a connection.
    const waiting = settled(w.query('SELECT 1 AS one'));
    await new Promise((r) => setTimeout(r, 200));
    const closing = w.close();
    expect(w.close()).toBe(closing);
    await closing;
    for (const r of await Promise.all(running)) expect(String(r)).toMatch(/interrupt/i);
    // A scan cut short would look complete: it fails instead.
    expect(await scanned).toBeInstanceOf(WarehouseClosedError);
    expect(await waiting).toBeInstanceOf(WarehouseClosedError);
    await expect(w.query('SELECT 1')).rejects.toBeInstanceOf(WarehouseClosedError);
    await expect(w.refresh()).rejects.toBeInstanceOf(WarehouseClosedError);
  });

  it('picks up a partition published while it is open, once its manifest changed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-wh-'));
    const dataDir = join(root, 'data');
    const w = await openWarehouse(dataDir, WAREHOUSE_LAYOUT);
    try {
      expect(w.has('fr', 'addresses')).toBe(false);
      expect(await w.refreshIfChanged()).toBe(false);
      const file = join(root, 'adresses-75.csv');
      await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
      await ingestBanFile(silentContext(dataDir), { path: file });
      const before = w.generation;
      expect(await w.refreshIfChanged()).toBe(true);
      expect(w.generation).toBe(before + 1);
      expect(w.has('fr', 'addresses')).toBe(true);
      expect(w.has('fr', 'streets')).toBe(true);
      const [{ n }] = await w.query<{ n: bigint }>('SELECT count(*) AS n FROM fr_addresses');
      expect(n).toBe(BigInt(BAN_ROWS.length));
      // Row-group statistics route a cell range to the file holding it (the fixture's Paris
      // addresses: adresses-75; its Gironde ones are in adresses-33).
      const [{ lo, hi }] = await w.query<{ lo: bigint; hi: bigint }>("SELECT min(cell) AS lo, max(cell) AS hi FROM fr_addresses WHERE locality_code LIKE '75%'");
      expect(w.filesWithCells('fr', 'addresses', lo, hi)).toHaveLength(1);
      expect(w.filesWithCells('fr', 'addresses', hi + 1n, hi + 10n)).toHaveLength(0);
      expect(await w.refreshIfChanged()).toBe(false);
    } finally { await w.close(); }
  });

  it('makes a lazy memory table at its first use, once for concurrent callers, and again from the new files after a refresh', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-wh-lazy-'));
    const dataDir = join(root, 'data');
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.slice(0, 3).map(banLine).join('\n')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: file });
    const w = await openWarehouse(dataDir, WAREHOUSE_LAYOUT);
    const tables = async () => (await w.query<{ name: string }>("SELECT table_name AS name FROM duckdb_tables() WHERE table_name = 'fr_streets'")).length;
    try {
      // Registered (the search paths see a table), not made: nothing needed it yet.
      expect(w.has('fr', 'streets')).toBe(true);
      expect(await tables()).toBe(0);
      await Promise.all([w.ensure!('fr', 'streets'), w.ensure!('fr', 'streets'), w.ensure!('fr', 'streets')]);
      expect(await tables()).toBe(1);
      const count = async () => Number((await w.query<{ n: bigint }>("SELECT count(*) AS n FROM fr_streets"))[0]!.n);
      const before = await count();
      expect(before).toBeGreaterThan(0);
      // New addresses published: the refresh drops the table, the next use makes it from them.
      await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
      await ingestBanFile(silentContext(dataDir), { path: file });
      expect(await w.refreshIfChanged()).toBe(true);
      expect(await tables()).toBe(0);
      await w.ensure!('fr', 'streets');
      expect(await count()).toBeGreaterThan(before);
      // Any other table: a no-op.
      await w.ensure!('fr', 'addresses');
    } finally { await w.close(); }
  });

  it("reads a whole table by scan without keeping its bytes in DuckDB's file cache, which queries use again after", async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-wh-scan-'));
    const dataDir = join(root, 'data');
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: file });
    const w = await openWarehouse(dataDir, WAREHOUSE_LAYOUT);
    const cached = async () => Number((await w.query<{ b: number }>("SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE AS b FROM duckdb_memory() WHERE tag = 'EXTERNAL_FILE_CACHE'"))[0]!.b);
    const enabled = async () => (await w.query<{ on: boolean }>("SELECT current_setting('enable_external_file_cache') AS on"))[0]!.on;
    try {
      await w.query('SELECT * FROM fr_addresses');
      expect(await cached()).toBeGreaterThan(0);
      // Two scans at once: the cache stays off until the last ends.
      let rows = 0;
      await Promise.all([0, 1].map(() => w.scan('SELECT * FROM fr_addresses', (c) => { rows += c[0]!.length; })));
      expect(rows).toBe(2 * BAN_ROWS.length);
      expect(await cached()).toBe(0);
      expect(await enabled()).toBe(true);
      // A scan that fails switches it back on too.
      await expect(w.scan('SELECT * FROM fr_addresses', () => { throw new Error('stop'); })).rejects.toThrow('stop');
      expect(await enabled()).toBe(true);
      await w.query('SELECT * FROM fr_addresses');
      expect(await cached()).toBeGreaterThan(0);
    } finally { await w.close(); await rm(root, { recursive: true, force: true }); }
  });
});
