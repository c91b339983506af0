import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DuckDBInstance, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../../../core/warehouse.ts';
import { isAlive } from '../../../core/state/lock.ts';
import { openKeyedStore, writeKeyedStore, type KeyedStore } from '../../../core/keyed-store.ts';
import { indexCache } from '../../search/warehouse-index.ts';
import { READ_STORES, sqlReads, storeReads, type BuildingReads, type ReadStores } from './reads.ts';


/**
 * The building and property reads answered from key-sorted stores (reads.ts, core/keyed-store.ts)
 * instead of scans of fr/diagnoses, fr/sales, fr/property_events, fr/properties and fr/addresses,
 * which are sorted by cell, number or property, not by the keys a report reads them by.
 */
export interface BuildingIndex extends BuildingReads {
  /** Rows of the source tables the stores were written from. */
  readonly rows: number;
  /** Bytes of the stores on disk, and blocks held in memory (one key and offset each). */
  readonly bytes: number;
  readonly blocks: number;
}

/** The stores' format: a change of the SELECTs or of the file layout writes them again. */
const FORMAT = 'building-reads-5';
/** DuckDB's memory while it sorts a table into a store (it spills to a temporary folder past it). */
export const STORE_BUILD_MEMORY = '512MB';

/** Where the stores live: <dataDir>/.index/fr/building-reads/, beside the address index's segments. */
export function readStoresDir(dataDir: string): string {
  return join(dataDir, '.index', 'fr', 'building-reads');
}

/** <dataDir> of a table file <dataDir>/tables/<table>/country=<cc>/<partition>.parquet (schemas/tables/layout.ts). */
const dataDirOf = (file: string) => dirname(dirname(dirname(dirname(file))));

const filesOf = (warehouse: Warehouse, table: string) => (warehouse.filesOf?.('fr', table) ?? warehouse.filesWithCells('fr', table, 0n, 2n ** 64n - 1n)).slice().sort();

/** A store's name for the files it is written from (name, size, modification time of each) and its SELECT: an unchanged table reuses it. */
function storeName(read: string, select: string, files: string[]): string {
  const h = createHash('sha256').update(`${FORMAT}\0${select}\0`);
  for (const f of files) { const s = statSync(f); h.update(`${basename(f)}:${s.size}:${s.mtimeMs}\0`); }
  return `${read}-${h.digest('hex').slice(0, 24)}.kstore`;
}

let builds = 0;

/** A build's temporary folder (`.tmp-<pid>-<n>`) or partial store (`.<name>.<pid>-<n>[.lines]`), with the pid of its process. */
const LEFTOVER = /^\.(?:tmp-|.+\.)(\d+)-\d+(?:\.lines)?$/;

/** Removes what builds of processes no longer running left behind (killed while writing). */
function removeLeftovers(dir: string): void {
  for (const f of readdirSync(dir)) {
    const m = LEFTOVER.exec(f);
    if (m && !isAlive(Number(m[1]))) rmSync(join(dir, f), { recursive: true, force: true });
  }
}

/**
 * Opens the stores of the tables published, writing those missing (a table ingested since, or a
 * first start) in a DuckDB of its own with a bounded memory: the server's own DuckDB and heap
 * hold none of the rows. Stores of earlier files are removed.
 */
export async function buildBuildingIndex(warehouse: Warehouse, o: { dir?: string; memory?: string } = {}): Promise<BuildingIndex | null> {
  const reads = (Object.keys(READ_STORES) as (keyof typeof READ_STORES)[]).filter((r) => READ_STORES[r].tables.every((t) => warehouse.has('fr', t)));
  if (reads.length === 0) return null;
  const firstFile = filesOf(warehouse, READ_STORES[reads[0]!].tables[0]!)[0];
  if (!firstFile) return null;
  const dir = o.dir ?? readStoresDir(dataDirOf(firstFile));
  mkdirSync(dir, { recursive: true });
  removeLeftovers(dir);
  // Unique per build: two warehouses of one process over one data folder may write at once.
  const token = `${process.pid}-${++builds}`;
  const tmp = join(dir, `.tmp-${token}`);
  let db: DuckDBInstance | null = null;
  const stores: ReadStores = {};
  const written: [keyof typeof READ_STORES, string][] = [];
  const kept = new Set<string>();
  let rows = 0;
  // The warehouse closing (a shutdown, a test's end) stops the store being written.
  let stopped = false, running: DuckDBConnection | null = null;
  const forget = warehouse.onClose?.(() => { stopped = true; running?.interrupt(); });
  try {
    const viewed = new Set<string>();
    for (const read of reads) {
      if (stopped) throw new Error('the warehouse closed while the building stores were written');
      const spec = READ_STORES[read];
      const files = spec.tables.flatMap((t) => filesOf(warehouse, t));
      if (spec.tables.some((t) => filesOf(warehouse, t).length === 0)) continue;
      const name = storeName(read, `${spec.select} ORDER BY ${spec.order}`, files);
      const path = join(dir, name);
      if (!existsSync(path)) {
        if (!db) {
          rmSync(tmp, { recursive: true, force: true });
          mkdirSync(tmp, { recursive: true });
          db = await DuckDBInstance.create(':memory:', { memory_limit: o.memory ?? STORE_BUILD_MEMORY, threads: '2', temp_directory: tmp });
        }
        const c = await db.connect();
        running = c;
        try {
          for (const table of spec.tables.filter((t) => !viewed.has(t))) {
            await c.run(`CREATE OR REPLACE VIEW fr_${table} AS SELECT * FROM read_parquet([${filesOf(warehouse, table).map(quotedString).join(', ')}], union_by_name = true, hive_partitioning = false, filename = true)`);
            viewed.add(table);
          }
          const partial = join(dir, `.${name}.${token}`);
          try {
            await writeKeyedStore(c, spec.select, spec.order, partial);
            renameSync(partial, path);
          } finally { rmSync(partial, { force: true }); }
        } finally { running = null; c.closeSync(); }
      }
      written.push([read, path]);
      kept.add(name);
    }
    // Opened once DuckDB is closed: its memory and the stores' block indexes do not add up.
    db?.closeSync(); db = null;
    for (const [read, path] of written) stores[read] = openKeyedStore(path);
    const counted = new Set(reads.flatMap((r) => READ_STORES[r].tables));
    for (const table of counted) {
      const files = filesOf(warehouse, table);
      if (files.length > 0) rows += Number((await warehouse.query<{ n: bigint }>(`SELECT sum(num_rows)::BIGINT AS n FROM parquet_file_metadata([${files.map(quotedString).join(', ')}])`))[0]!.n);
    }
  } catch (e) {
    for (const s of Object.values(stores)) s.close();
    throw e;
  } finally {
    forget?.();
    db?.closeSync();
    rmSync(tmp, { recursive: true, force: true });
  }
  // Stores of earlier files: an open one stays readable by its holder until closed.
  // (`.jsonl`: the uncompressed stores of before.)
  for (const f of readdirSync(dir)) if ((f.endsWith('.kstore') || f.endsWith('.jsonl')) && !kept.has(f) && !f.startsWith('.')) rmSync(join(dir, f), { force: true });
  const all = Object.values(stores) as KeyedStore[];
  retire(warehouse, all);
  return { ...storeReads(stores), rows, bytes: all.reduce((s, x) => s + x.bytes, 0), blocks: all.reduce((s, x) => s + x.blocks, 0) };
}

/** Stores of each warehouse's previous index, closed a while after the next one is made: a report under way keeps reading them. */
const previous = new WeakMap<Warehouse, KeyedStore[]>();
function retire(warehouse: Warehouse, next: KeyedStore[]) {
  const old = previous.get(warehouse);
  previous.set(warehouse, next);
  if (old) setTimeout(() => { for (const s of old) s.close(); }, 60_000).unref();
}

const cache = indexCache<BuildingIndex>([...new Set(Object.values(READ_STORES).flatMap((s) => s.tables))], (warehouse) => buildBuildingIndex(warehouse));

/** The stores of the current files, opened (or written) in the background on first use after a refresh that changed them; null meanwhile (the SQL path answers the same). */
export function buildingIndexOf(warehouse: Warehouse): BuildingIndex | null {
  return cache.of(warehouse, 'fr');
}

/** Resolves when the current stores are open (null: no table, or the build failed). */
export function buildingIndexReady(warehouse: Warehouse): Promise<BuildingIndex | null> {
  return cache.ready(warehouse, 'fr');
}

/** The reads of a report: the stores once open, else SQL. */
export function buildingReadsOf(warehouse: Warehouse, index: BuildingIndex | null = buildingIndexOf(warehouse)): BuildingReads {
  return index ?? sqlReads(warehouse);
}

/**
 * Where a building's record is read: its own partition's file when the stores know it (the
 * records are sorted by id in each department's file, so an id probed in every file decompresses
 * a row group of records in each), every file otherwise; null when the stores know no such building.
 */
export async function buildingsFrom(warehouse: Warehouse, id: string, index: BuildingIndex | null = buildingIndexOf(warehouse)): Promise<string | null> {
  const partition = index ? await index.buildingPartition(id) : undefined;
  if (partition === null) return null;
  const file = partition === undefined ? undefined : filesOf(warehouse, 'buildings').find((f) => basename(f) === `${partition}.parquet`);
  return file ? `read_parquet(${quotedString(file)}, union_by_name = true, hive_partitioning = false)` : 'fr_buildings';
}
