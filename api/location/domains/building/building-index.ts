import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import type { Warehouse } from '../../../core/warehouse.ts';
import { isAlive } from '../../../core/state/lock.ts';
import { openKeyedStore, type KeyedStore } from '../../../core/keyed-store.ts';
import { indexCache } from '../../search/warehouse-index.ts';
import { READ_STORES, sqlReads, storeReads, type BuildingReads, type ReadStores } from './reads.ts';
import { writeStoresHere, writeStoresInChild, type StoreSpec, type StoreWriting } from './store-writer.ts';


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
  /** The stores this build wrote: how many, from how many bytes of Parquet, the child process's peak RSS (null when written in process); null when it reused them all. */
  readonly written: { stores: number; input_bytes: number; peak_rss_mb: number | null } | null;
}

/** The stores' format: a change of the SELECTs or of the file layout writes them again. */
const FORMAT = 'building-reads-5';
/** DuckDB's memory while it sorts a table into a store (it spills to a temporary folder past it). */
export const STORE_BUILD_MEMORY = '512MB';
/**
 * Stores read from this many bytes of Parquet or more are written in a child process
 * (store-writer.ts), smaller ones in process: the sample data's stores cost less to sort than a
 * child's start.
 */
export const STORE_CHILD_FROM = 64 * 1024 * 1024;


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
 * first start) in a DuckDB of their own with a bounded memory, in a child process from
 * `childFrom` bytes of input (store-writer.ts): the server's own DuckDB and heap hold none of the
 * rows. Stores of earlier files are removed.
 */
export async function buildBuildingIndex(warehouse: Warehouse, o: { dir?: string; memory?: string; childFrom?: number } = {}): Promise<BuildingIndex | null> {
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
  const stores: ReadStores = {};
  const wanted: [keyof typeof READ_STORES, string][] = [];
  const missing: StoreSpec[] = [];
  let rows = 0, inputBytes = 0, written: BuildingIndex['written'] = null;
  for (const read of reads) {
    const spec = READ_STORES[read];
    const views = Object.fromEntries(spec.tables.map((t) => [t, filesOf(warehouse, t)]));
    if (Object.values(views).some((f) => f.length === 0)) continue;
    const files = Object.values(views).flat();
    const name = storeName(read, `${spec.select} ORDER BY ${spec.order}`, files);
    const path = join(dir, name);
    wanted.push([read, path]);
    if (existsSync(path)) continue;
    missing.push({ views, select: spec.select, order: spec.order, partial: join(dir, `.${name}.${token}`), path });
    for (const f of files) inputBytes += statSync(f).size;
  }
  // The warehouse closing (a shutdown, a test's end) stops the stores being written, and waits for it.
  let writing: StoreWriting | null = null, stopped = false;
  const forget = warehouse.onClose?.(() => { stopped = true; writing?.stop(); return writing?.done.then(() => {}, () => {}); });
  try {
    if (missing.length > 0) {
      if (stopped) throw new Error('the warehouse closed before the building stores were written');
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      const job = { memory: o.memory ?? STORE_BUILD_MEMORY, tmp, stores: missing };
      writing = inputBytes >= (o.childFrom ?? STORE_CHILD_FROM) ? writeStoresInChild(job) : writeStoresHere(job);
      written = { stores: missing.length, input_bytes: inputBytes, ...(await writing.done) };
    }
    // Opened once DuckDB is done: its memory and the stores' block indexes do not add up.
    for (const [read, path] of wanted) stores[read] = openKeyedStore(path);
    const counted = new Set(reads.flatMap((r) => READ_STORES[r].tables));
    for (const table of counted) {
      const files = filesOf(warehouse, table);
      if (files.length > 0) rows += Number((await warehouse.query<{ n: bigint }>(`SELECT sum(num_rows)::BIGINT AS n FROM parquet_file_metadata([${files.map(quotedString).join(', ')}])`))[0]!.n);
    }
  } catch (e) {
    for (const s of Object.values(stores)) s.close();
    throw stopped ? new Error('the warehouse closed while the building stores were written') : e;
  } finally {
    forget?.();
    rmSync(tmp, { recursive: true, force: true });
    // A killed child leaves its partial store and its lines.
    for (const m of missing) for (const f of [m.partial, `${m.partial}.lines`]) rmSync(f, { force: true });
  }
  const kept = new Set(wanted.map(([, path]) => basename(path)));
  // Stores of earlier files: an open one stays readable by its holder until closed.
  // (`.jsonl`: the uncompressed stores of before.)
  for (const f of readdirSync(dir)) if ((f.endsWith('.kstore') || f.endsWith('.jsonl')) && !kept.has(f) && !f.startsWith('.')) rmSync(join(dir, f), { force: true });
  const all = Object.values(stores) as KeyedStore[];
  retire(warehouse, all);
  return { ...storeReads(stores), rows, bytes: all.reduce((s, x) => s + x.bytes, 0), blocks: all.reduce((s, x) => s + x.blocks, 0), written };
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
