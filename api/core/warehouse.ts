import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, quotedString, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Country } from '../../schemas/common.ts';
import { COUNTRIES } from '../../datasets/countries.ts';
import { publishedPartitions, tableDir } from '../../schemas/tables/layout.ts';
import { CELL_DIRECTORY_KEY, cellToBigint, directoryKey, isCoverTable, type CellDirectory } from '../../schemas/tables/cells.ts';
import { TABLE_COLUMNS } from '../../schemas/tables/columns.ts';
import type { TableName } from '../../schemas/tables/index.ts';

/**
 * The cell directories of a cover's files (their footers' CELL_DIRECTORY_KEY), by resolution and
 * key; `files` without one (written before the directories) are left to their statistics.
 */
interface CoverDirectories { byRes: Map<number, Map<bigint, string[]>>; withDirectory: string[]; without: Set<string> }

async function directoriesOf(connection: DuckDBConnection, glob: string, files: string[]): Promise<CoverDirectories> {
  const reader = await connection.runAndReadAll(
    `SELECT file_name AS file, decode(value) AS value FROM parquet_kv_metadata(${glob}) WHERE decode(key) = ${quotedString(CELL_DIRECTORY_KEY)}`,
  );
  const byRes = new Map<number, Map<bigint, string[]>>();
  const without = new Set(files), withDirectory: string[] = [];
  for (const r of reader.getRowObjectsJS() as { file: string; value: string }[]) {
    // An unreadable directory is ignored: the file's statistics answer for it.
    let d: { resolution: number; cells: bigint[] };
    try {
      const raw = JSON.parse(r.value) as CellDirectory;
      if (!Number.isInteger(raw?.resolution) || raw.resolution < 0 || raw.resolution > 15 || !Array.isArray(raw.cells)) continue;
      d = { resolution: raw.resolution, cells: raw.cells.map(cellToBigint) };
    } catch { continue; }
    let keys = byRes.get(d.resolution);
    if (!keys) byRes.set(d.resolution, keys = new Map());
    for (const k of d.cells) {
      const list = keys.get(k);
      if (list) list.push(r.file); else keys.set(k, [r.file]);
    }
    if (without.delete(r.file)) withDirectory.push(r.file);
  }
  return { byRes, withDirectory, without };
}

/**
 * The read-only DuckDB handle over the tables' files (schemas/tables/layout.ts). Each table is a view
 * named <country>_<table>; a table with no file yet has no view, and `has` says so.
 */
export interface Warehouse {
  has(country: Country, table: string): boolean;
  /** Runs a read query with bound parameters ($1, $2...); rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
  /**
   * Streams a read query chunk by chunk (columns of up to 2,048 rows each) to `onChunk`: for
   * in-process indexes built over a whole table, which must not hold it as row objects.
   */
  scan(sql: string, onChunk: (columns: DuckDBValue[][]) => void): Promise<void>;
  /**
   * The Parquet files of a table holding at least one row group whose `cell` statistics overlap
   * [lo, hi]: a lookup then opens one or two files instead of every partition of the country.
   * For one cell (lo = hi) of a cover whose files carry a cell directory (schemas/tables/cells.ts),
   * the files whose directory holds its key: exactly those that can hold it.
   */
  filesWithCells(country: Country, table: string, lo: bigint, hi: bigint): string[];
  /** Every Parquet file of a table at the last refresh (for tables without a cell column). */
  filesOf?(country: Country, table: string): string[];
  /** Creates a lazy memory table (MemoryTable.lazy) before a query reads it; a no-op for any other. */
  ensure?(country: Country, table: string): Promise<void>;
  /** Incremented by each refresh: derived caches compare it to know they are stale. */
  readonly generation: number;
  /** Re-reads the folder: picks up tables published since the start. */
  refresh(): Promise<void>;
  /** Refreshes when a country's manifest changed since the last refresh (an ingest published); true if it did. */
  refreshIfChanged(): Promise<boolean>;
  /**
   * Calls `fn` when the warehouse closes, before its DuckDB does, and waits for the promise it
   * answers; answers a function that forgets it. A background job with a DuckDB of its own (the
   * building stores) stops its query then and settles once its DuckDB is closed: a query left
   * running holds the process's exit for seconds, and a DuckDB closed under it can crash it.
   */
  onClose?(fn: () => void | Promise<void>): () => void;
  /**
   * Stops the queries under way (a background index build, a request) and closes DuckDB once they
   * have settled: a connection closed under a running query never settles it and can crash the
   * process. Queries asked for after it are refused; calling it again answers the same promise.
   */
  close(): Promise<void>;
}

/** A query asked of a warehouse that is closing or closed. */
export class WarehouseClosedError extends Error {
  constructor() { super('the warehouse is closed'); this.name = 'WarehouseClosedError'; }
}

/**
 * A small, hot table copied into DuckDB's memory at each refresh (a SELECT over the view `{src}`
 * of table `from`): every location request reads such tables, and a query on a memory table costs
 * a fraction of one on Parquet files.
 */
export interface MemoryTable {
  from: string;
  select: string;
  /**
   * Created at its first use after a refresh (`ensure`), not at the refresh: for a table only read
   * until an in-process index answers instead (the streets of the address index), which the
   * server then never builds when the index is loaded before any request needs it.
   */
  lazy?: boolean;
}

/** What the warehouse exposes: the tables of data/<country>/ and the memory tables derived from them. */
export interface WarehouseLayout { tables: readonly string[]; memoryTables: Readonly<Record<string, MemoryTable>> }

export async function openWarehouse(dataDir: string, layout: WarehouseLayout): Promise<Warehouse> {
  const TABLES = layout.tables;
  const MEMORY_TABLES = layout.memoryTables;
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const setup = await instance.connect();
  // Parquet footers cached across queries: without it every query re-reads them (about 20 ms on a 2 M-row file).
  await setup.run('SET GLOBAL enable_object_cache = true; SET GLOBAL parquet_metadata_cache = true');
  // A small pool: DuckDB runs queries of separate connections in parallel.
  const pool: DuckDBConnection[] = [];
  const free: DuckDBConnection[] = [];
  const waiters: { resolve: (c: DuckDBConnection) => void; reject: (e: Error) => void }[] = [];
  const closers = new Set<() => void | Promise<void>>();
  // Connections running a query (the pool's, and the setup one during a refresh): close() interrupts
  // them and waits for each to be given back before closing DuckDB.
  const busy = new Set<DuckDBConnection>();
  let closing: Promise<void> | null = null;
  let drained: (() => void) | null = null;
  for (let i = 0; i < 4; i++) { const c = await instance.connect(); pool.push(c); free.push(c); }
  const acquire = () => new Promise<DuckDBConnection>((resolve, reject) => {
    if (closing) { reject(new WarehouseClosedError()); return; }
    const c = free.pop();
    if (c) { busy.add(c); resolve(c); } else waiters.push({ resolve, reject });
  });
  const release = (c: DuckDBConnection) => {
    const w = closing ? undefined : waiters.shift();
    if (w) { w.resolve(c); return; }
    busy.delete(c);
    free.push(c);
    if (closing && busy.size === 0) drained?.();
  };
  // Scans under way (the external file cache is off while there is one).
  let scans = 0;

  let present = new Set<string>();
  let generation = 0;
  // Manifest modification times seen at the last refresh: an ingest rewrites the manifest last.
  const manifestTimes = () => COUNTRIES.map((c) => { try { return statSync(join(dataDir, c, 'manifest.json')).mtimeMs; } catch { return -1; } }).join(',');
  let seenManifests = '';
  // Row-group statistics of `cell`, per country table: [file, min, max][].
  let cellStats = new Map<string, { file: string; min: bigint; max: bigint }[]>();
  // Cell directories of the covers' files, per view: resolution -> key -> files; and the files without one (their statistics answer).
  let directories = new Map<string, CoverDirectories>();
  let tableFiles = new Map<string, string[]>();
  // Lazy memory tables not made since the last refresh (their CREATE statement, one object per
  // refresh so that a making started before a refresh does not count for the next one), and the
  // making under way.
  const pendingLazy = new Map<string, { sql: string }>();
  const makingLazy = new Map<{ sql: string }, Promise<void>>();
  const refresh = async () => {
    if (closing) throw new WarehouseClosedError();
    busy.add(setup);
    try { await refreshViews(); } finally {
      busy.delete(setup);
      if (closing && busy.size === 0) drained?.();
    }
  };
  const refreshViews = async () => {
    pendingLazy.clear();
    seenManifests = manifestTimes();
    const next = new Set<string>();
    const stats = new Map<string, { file: string; min: bigint; max: bigint }[]>();
    const filesByTable = new Map<string, string[]>();
    const dirs = new Map<string, CoverDirectories>();
    for (const country of COUNTRIES) {
      for (const table of TABLES) {
        const dir = tableDir(dataDir, country, table);
        const view = `${country}_${table}`;
        const files = [...publishedPartitions(dataDir, country, table).values()];
        if (files.length > 0) {
          const glob = quotedString(join(dir, '*.parquet'));
          // The view is of one country: the hive key of the path (country=<cc>) is not a column of it.
          await setup.run(`CREATE OR REPLACE VIEW ${view} AS SELECT * FROM read_parquet(${glob}, union_by_name = true, hive_partitioning = false)`);
          next.add(view);
          filesByTable.set(view, files);
          // The files whose `cell` statistics are read: a cover's files without a cell directory
          // (written before them), none of a table without a cell column. Reading every footer
          // costs: at the nation's 35,040 parcels files and as many covers, 5 to 7 s and over a
          // gigabyte of the process's memory per table (docs/benchmarks.md).
          let statsOf: string | null = glob;
          if (isCoverTable(table)) {
            const d = await directoriesOf(setup, glob, files);
            dirs.set(view, d);
            statsOf = d.without.size === 0 ? null : `[${[...d.without].map(quotedString).join(', ')}]`;
          } else if (table in TABLE_COLUMNS && !('cell' in TABLE_COLUMNS[table as TableName])) statsOf = null;
          const reader = statsOf === null ? null : await setup.runAndReadAll(
            `SELECT file_name AS file, stats_min_value AS min, stats_max_value AS max FROM parquet_metadata(${statsOf}) WHERE path_in_schema = 'cell' AND stats_min_value IS NOT NULL`,
          );
          stats.set(view, ((reader?.getRowObjectsJS() ?? []) as { file: string; min: string; max: string }[]).map((r) => ({ file: r.file, min: BigInt(r.min), max: BigInt(r.max) })));
        } else {
          await setup.run(`DROP VIEW IF EXISTS ${view}`);
        }
      }
      for (const [name, m] of Object.entries(MEMORY_TABLES)) {
        const table = `${country}_${name}`;
        if (next.has(`${country}_${m.from}`)) {
          const create = `CREATE OR REPLACE TABLE ${table} AS ${m.select.replaceAll('{src}', `${country}_${m.from}`)}`;
          if (m.lazy) {
            // The source may have changed: the next `ensure` makes the table again from it.
            await setup.run(`DROP TABLE IF EXISTS ${table}`);
            pendingLazy.set(table, { sql: create });
          } else {
            await setup.run(create);
          }
          next.add(table);
        } else {
          await setup.run(`DROP TABLE IF EXISTS ${table}`);
        }
      }
    }
    present = next;
    cellStats = stats;
    directories = dirs;
    tableFiles = filesByTable;
    generation++;
  };
  await refresh();

  return {
    has: (country, table) => present.has(`${country}_${table}`),
    get generation() { return generation; },
    filesWithCells(country, table, lo, hi) {
      const view = `${country}_${table}`;
      const files = new Set<string>();
      const dir = directories.get(view);
      // A cover's files with a directory: by it for one cell; every one of them for a range (covers are looked up one cell at a time).
      if (dir && lo === hi) for (const [res, keys] of dir.byRes) for (const f of keys.get(directoryKey(lo, res)) ?? []) files.add(f);
      else if (dir) for (const f of dir.withDirectory) files.add(f);
      // The statistics, read only for the files without a directory.
      for (const s of cellStats.get(view) ?? []) if (s.min <= hi && s.max >= lo) files.add(s.file);
      return [...files];
    },
    filesOf: (country, table) => tableFiles.get(`${country}_${table}`) ?? [],
    async ensure(country, table) {
      const name = `${country}_${table}`;
      const pending = pendingLazy.get(name);
      if (!pending) return;
      let making = makingLazy.get(pending);
      if (!making) {
        making = (async () => {
          const c = await acquire();
          try { await c.run(pending.sql); } finally { release(c); }
          if (pendingLazy.get(name) === pending) pendingLazy.delete(name);
        })();
        makingLazy.set(pending, making);
        // A failed making is tried again by the next caller; every caller sees the failure.
        making.then(() => makingLazy.delete(pending), () => makingLazy.delete(pending));
      }
      await making;
    },
    async query<T>(sql: string, params: DuckDBValue[] = []) {
      const c = await acquire();
      try {
        const reader = await c.runAndReadAll(sql, params);
        return reader.getRowObjectsJS() as T[];
      } finally {
        release(c);
      }
    },
    async scan(sql: string, onChunk: (columns: DuckDBValue[][]) => void) {
      const c = await acquire();
      try {
        // Whole-table reads bypass DuckDB's external file cache (switching it off empties it): it
        // kept the bytes read by the address indexes' build (167 MB for 13.8 M addresses), which
        // the lookups, answered by the indexes, do not read again.
        if (scans++ === 0) await c.run('SET GLOBAL enable_external_file_cache = false');
        const result = await c.stream(sql);
        for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) onChunk(chunk.getColumns());
        // An interrupted stream ends as if it were complete: the scan did not see every row.
        if (closing) throw new WarehouseClosedError();
      } finally {
        try { if (--scans === 0) await c.run('SET GLOBAL enable_external_file_cache = true'); } finally { release(c); }
      }
    },
    refresh,
    async refreshIfChanged() {
      if (manifestTimes() === seenManifests) return false;
      await refresh();
      return true;
    },
    onClose(fn) {
      closers.add(fn);
      return () => { closers.delete(fn); };
    },
    close() {
      closing ??= (async () => {
        const jobs = [...closers].map(async (fn) => { await fn(); });
        closers.clear();
        await Promise.allSettled(jobs); // a job that fails while stopping has stopped all the same
        for (const w of waiters.splice(0)) w.reject(new WarehouseClosedError());
        if (busy.size > 0) {
          const settled = new Promise<void>((resolve) => { drained = resolve; });
          for (const c of busy) c.interrupt();
          await settled;
        }
        for (const c of pool) c.closeSync();
        setup.closeSync();
        instance.closeSync();
      })();
      return closing;
    },
  };
}

const refreshCache = new WeakMap<Warehouse, Map<string, { generation: number; value: Promise<unknown> }>>();

/**
 * A value read from the warehouse once per refresh (its generation) and shared by concurrent
 * callers: what a table holds (its layers, categories, indicators) is asked on requests, and
 * would otherwise be a scan each time. A failed read is not kept: the next caller asks again.
 */
export function perRefresh<T>(warehouse: Warehouse, key: string, read: () => Promise<T>): Promise<T> {
  let byKey = refreshCache.get(warehouse);
  if (!byKey) refreshCache.set(warehouse, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && hit.generation === warehouse.generation) return hit.value as Promise<T>;
  const value = read();
  const entry = { generation: warehouse.generation, value };
  value.catch(() => { if (byKey.get(key) === entry) byKey.delete(key); });
  byKey.set(key, entry);
  return value;
}
