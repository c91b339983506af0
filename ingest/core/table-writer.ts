import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { PARTITION_KEY, partitionFile, partitionPath, tableDir } from '../../schemas/tables/layout.ts';
import { CELL_DIRECTORY_KEY, CELL_DIRECTORY_RES, isCoverTable, cellDirectory, directoryKeySql, type CellDirectory } from '../../schemas/tables/cells.ts';
import { sourceIdsOf, sourceLicence, type SourcesOf } from './source-metadata.ts';
import { BBOX_COLUMN, GEOMETRY_COLUMN, geoColumnsSql, geoMetadataOf, geoShapeOf, kvMetadataOption, type KnownGeo } from './geoparquet.ts';
import { basename, dirname, join } from 'node:path';
import { DuckDBDataChunk, DuckDBInstance, quotedIdentifier, quotedString, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import {
  BLOB, BOOLEAN, DOUBLE, INTEGER, TINYINT, VARCHAR, BIGINT, DATE, LIST,
} from '@duckdb/node-api';

// No unsigned types: Spark reads a UINT_64 as decimal(20,0) and Trino refuses unsigned columns.
// Lists as Parquet lists (a row's value: an array of strings, or null).
const DUCK_TYPES: Record<string, DuckDBType> = { VARCHAR, DOUBLE, INTEGER, TINYINT, BOOLEAN, BIGINT, DATE, BLOB, 'VARCHAR[]': LIST(VARCHAR) };
const CHUNK_ROWS = 2048;

export interface TableTarget {
  dataDir: string;
  country: string;
  table: string;
  /** One file of the table: a department, a layer... Re-running a job replaces only its partition. */
  partition: string;
  /** Column name -> DuckDB type, in order. */
  columns: Readonly<Record<string, string>>;
  /**
   * Column the Parquet file is sorted by (the H3 cell), so row-group statistics prune lookups (row
   * groups of 8,192 rows); then the columns that break its ties, so that the same rows give the same bytes.
   */
  orderBy: string | readonly string[];
}

export interface WrittenTable { path: string; relativePath: string; rows: number; sha256: string }
export interface PreparedTable {
  written: WrittenTable;
  /** Where the file waits until `commit` (a job may read it before publishing, e.g. to aggregate it). */
  pendingPath: string;
  commit(): Promise<WrittenTable>;
  discard(): Promise<void>;
}

export { partitionPath };

/**
 * One disk-backed DuckDB database shared by the TableWriters of a run (`TableWriter.open(target,
 * stage)`): each writer stages into its own table of it, dropped once its file is written. A job
 * writing thousands of small partitions (a cadastre commune each) then opens one database per run
 * instead of one per partition and table, which dominated the cost of a small partition.
 */
export class StageDatabase {
  private tables = 0;
  private constructor(readonly instance: DuckDBInstance, readonly connection: DuckDBConnection, private readonly workDir: string) {}

  /** `name` tells the run's staging folder apart (data/.tmp/<country>-<name>-<pid>, removed by close). */
  static async open(dataDir: string, country: string, name: string): Promise<StageDatabase> {
    const workDir = join(dataDir, '.tmp', `${country}-${name}-${process.pid}`);
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    const instance = await DuckDBInstance.create(join(workDir, 'stage.duckdb'), {
      temp_directory: join(workDir, 'spill'),
      memory_limit: '1GB',
      preserve_insertion_order: 'false',
    });
    return new StageDatabase(instance, await instance.connect(), workDir);
  }

  /** A table name not used before in this database. */
  nextTable(): string { return `stage_${this.tables++}`; }

  private closed = false;
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.workDir, { recursive: true, force: true });
  }
}

/**
 * Buffers rows in a disk-backed DuckDB database (so memory stays bounded whatever the input),
 * then writes one sorted Parquet file next to the old one and renames it over it: readers see
 * the previous partition until the new one is complete.
 */
/**
 * Rows appended to a new table of a staging database a chunk of CHUNK_ROWS at a time, as DuckDB
 * data chunks: nothing is held in JS beyond the chunk being filled (TableWriter stages through it;
 * fr.buildings stages its inputs through it to join them in DuckDB).
 */
export class StagedRows {
  private buffer: DuckDBValue[][];
  private constructor(private readonly appender: DuckDBAppender, private readonly types: DuckDBType[]) {
    this.buffer = types.map(() => []);
  }

  /** Creates `table` with `columns` (name -> DuckDB type, in order) and opens its appender. */
  static async create(connection: DuckDBConnection, table: string, columns: Readonly<Record<string, string>>): Promise<StagedRows> {
    const names = Object.keys(columns);
    await connection.run(`CREATE TABLE ${quoteIdent(table)} (${names.map((n) => `${quoteIdent(n)} ${columns[n]}`).join(', ')})`);
    const types = names.map((n) => {
      const t = DUCK_TYPES[columns[n]!];
      if (!t) throw new Error(`unsupported column type ${columns[n]} for ${n}`);
      return t;
    });
    return new StagedRows(await connection.createAppender(table), types);
  }

  /** Appends one row, values in column order (a list column's value: `listValue([...])` or null). */
  append(values: readonly DuckDBValue[]): void {
    for (let i = 0; i < values.length; i++) this.buffer[i]!.push(values[i]!);
    if (this.buffer[0]!.length >= CHUNK_ROWS) this.flush();
  }

  private flush(): void {
    const n = this.buffer[0]!.length;
    if (n === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, n);
    chunk.setColumns(this.buffer);
    this.appender.appendDataChunk(chunk);
    this.buffer = this.types.map(() => []);
  }

  /** Closes the appender without appending what is buffered (the rows are dropped). */
  discard(): void {
    try { this.appender.closeSync(); } catch { /* already closed */ }
  }

  /** Appends what is buffered and closes the appender: the table is complete. */
  close(): void {
    this.flush();
    this.appender.flushSync();
    this.appender.closeSync();
  }
}

export class TableWriter {
  private rows = 0;
  private constructor(
    private readonly target: TableTarget,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly staged: StagedRows,
    /** The staging folder of its own database, null when it stages into a run's shared StageDatabase. */
    private readonly workDir: string | null,
    /** Its table in the database. */
    private readonly stage: string,
  ) {}

  /** A writer with its own staging database, or staging into a table of a run's shared one. */
  static async open(target: TableTarget, shared?: StageDatabase): Promise<TableWriter> {
    let instance: DuckDBInstance, connection: DuckDBConnection, workDir: string | null = null, stage = 'stage';
    if (shared) {
      ({ instance, connection } = shared);
      stage = shared.nextTable();
    } else {
      workDir = join(target.dataDir, '.tmp', `${target.country}-${target.table}-${target.partition}-${process.pid}`);
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true });
      instance = await DuckDBInstance.create(join(workDir, 'stage.duckdb'), {
        temp_directory: join(workDir, 'spill'),
        memory_limit: '1GB',
        preserve_insertion_order: 'false',
      });
      connection = await instance.connect();
    }
    return new TableWriter(target, instance, connection, await StagedRows.create(connection, stage, target.columns), workDir, stage);
  }

  /** Appends one row, values in column order (a list column's value: `listValue([...])` or null). */
  append(values: readonly DuckDBValue[]): void {
    this.staged.append(values);
    this.rows++;
  }

  get rowCount(): number { return this.rows; }

  /** Sorts, writes the Parquet file and swaps it in atomically. */
  async finish(known?: KnownRows): Promise<WrittenTable> {
    const prepared = await this.prepare(known);
    return prepared.commit();
  }

  /**
   * Writes the sorted Parquet file beside the published one without replacing it yet, so a job
   * writing several tables swaps them in together once all are written. `known`: what the caller
   * kept of its rows as it appended them, so that they are not scanned again for it.
   */
  async prepare(known: KnownRows = {}): Promise<PreparedTable> {
    try {
      this.endAppending();
      return await writeSortedParquet(this.connection, `SELECT * FROM ${quoteIdent(this.stage)}`, {
        ...this.target,
        ...(known.sources ? { sources: known.sources } : {}),
        known: { wkb: known.wkb, geo: known.geo, rows: known.rows ? this.rows : undefined },
      });
    } finally {
      await this.close();
    }
  }

  private appending = true;
  private endAppending(): void {
    if (!this.appending) return;
    this.appending = false;
    this.staged.close();
  }

  /**
   * Adds the rows of the published partition that the staged rows do not cover: those whose
   * `cover` column (a municipality...) no staged row has, and whose id no staged row has. An
   * input then replaces what it covers and leaves the rest (docs/architecture.md). Call it
   * after the last append; returns the rows kept.
   */
  async keepUncovered(cover: string, key = 'id'): Promise<number> {
    this.endAppending();
    const published = partitionPath(this.target.dataDir, this.target.country, this.target.table, this.target.partition);
    if (!existsSync(published)) return 0;
    const [c, k] = [quotedIdentifier(cover), quotedIdentifier(key)];
    const names = Object.keys(this.target.columns).map(quotedIdentifier).join(', ');
    const stage = quoteIdent(this.stage);
    const reader = await this.connection.runAndReadAll(`INSERT INTO ${stage} SELECT ${names} FROM read_parquet(${quotedString(published)})
      WHERE coalesce(${c} NOT IN (SELECT DISTINCT ${c} FROM ${stage} WHERE ${c} IS NOT NULL), true) AND ${k} NOT IN (SELECT ${k} FROM ${stage})`);
    const kept = reader.rowsChanged;
    this.rows += kept;
    return kept;
  }

  /** Drops everything staged; the published partition is untouched. */
  async abort(): Promise<void> {
    this.staged.discard();
    await this.close();
  }

  private closed = false;
  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.workDir === null) {
      // A shared database: only this writer's table goes.
      await this.connection.run(`DROP TABLE IF EXISTS ${quoteIdent(this.stage)}`);
      return;
    }
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.workDir, { recursive: true, force: true });
  }
}

/**
 * What a writer may know of its rows as it appends them (TableWriter.prepare): their sources;
 * `wkb`, a staged BLOB column holding the WKB of each row's `geometry` (polygonWkb; null where
 * the SQL derives it), left out of the file and written as its `geom`; `geo`, the outlines' types
 * and extent; `rows`: the writer's own count of its appended rows is the file's (no count read back).
 */
export interface KnownRows { sources?: readonly string[]; wkb?: string; geo?: KnownGeo; rows?: boolean }

/** Where a sorted Parquet file goes, and what is done after sorting. */
export interface SortedTarget {
  dataDir: string; country: string; table: string; partition: string;
  /** Column the rows are sorted by, then the columns breaking its ties. */
  orderBy: string | readonly string[];
  /**
   * Select list applied to the sorted rows, for columns derived from others (a label, a
   * constant): computed after the sort, they are not carried through it.
   */
  afterSort?: string;
  /**
   * The sources of the rows, for the file's `sources` metadata (licence, attribution): ids, or a
   * relation whose `source` column holds them. Default: the `source` column of `select`, when it
   * has one (a scan of it; give them when `select` is costly to run twice).
   */
  sources?: SourcesOf;
  /** What the writer knows of the rows (KnownRows), instead of scanning them; `rows`: their count. */
  known?: { wkb?: string; geo?: KnownGeo; rows?: number };
}

/** The cell directory of a cover's rows (schemas/tables/cells.ts): one scan of their cells. */
async function cellDirectoryOf(connection: DuckDBConnection, select: string): Promise<CellDirectory> {
  const reader = await connection.runAndReadAll(`SELECT DISTINCT ${directoryKeySql('cell', CELL_DIRECTORY_RES)} AS k FROM (${select}) WHERE cell IS NOT NULL`);
  return cellDirectory(reader.getColumnsJS()[0] as bigint[] ?? []);
}

/**
 * Writes the rows of `select` sorted by `orderBy` as one Parquet file beside the published
 * partition (row groups of 8,192 rows, so cell statistics prune lookups), without replacing it:
 * `commit` renames it over the published file, `discard` drops it.
 */
export async function writeSortedParquet(connection: DuckDBConnection, select: string, target: SortedTarget): Promise<PreparedTable> {
  const finalPath = partitionPath(target.dataDir, target.country, target.table, target.partition);
  const tmpPath = pendingPath(finalPath);
  const literal = quotedString(tmpPath);
  await mkdir(tableDir(target.dataDir, target.country, target.table), { recursive: true });
  const sorted = `${select} ORDER BY ${[target.orderBy].flat().map(quoteIdent).join(', ')}`;
  // A projection keeps its input's order, so the derived columns come out sorted too.
  let rows = target.afterSort ? `SELECT ${target.afterSort} FROM (${sorted})` : sorted;
  const columns = (await connection.runAndReadAll(`SELECT * FROM (${rows}) LIMIT 0`)).columnNames();
  // The GeoParquet columns are derived here, for every writer: dropped when the rows come from a
  // published file (a partition rewritten), then computed again from the row's own columns.
  // So is the partition key, which DuckDB adds when it reads a published file of the hive layout.
  const derived = columns.filter((c) => c === GEOMETRY_COLUMN || c === BBOX_COLUMN || c === PARTITION_KEY);
  if (derived.length > 0) rows = `SELECT * EXCLUDE (${derived.map(quoteIdent).join(', ')}) FROM (${rows})`;
  const wkb = target.known?.wkb;
  const shape = geoShapeOf(columns.filter((c) => c !== wkb));
  const metadata: Record<string, unknown> = {};
  const sources = target.sources ?? (columns.includes('source') ? { from: `(${select})` } : null);
  if (sources) metadata.sources = (await sourceIdsOf(connection, sources)).map(sourceLicence);
  if (isCoverTable(target.table)) metadata[CELL_DIRECTORY_KEY] = await cellDirectoryOf(connection, select);
  if (shape) {
    metadata.geo = await geoMetadataOf(connection, select, shape, target.known?.geo);
    rows = `SELECT *${wkb ? ` EXCLUDE (${quoteIdent(wkb)})` : ''}, ${geoColumnsSql(shape, { wkb })} FROM (${rows})`;
  } else if (wkb) rows = `SELECT * EXCLUDE (${quoteIdent(wkb)}) FROM (${rows})`;
  await connection.run(`COPY (${rows}) TO ${literal} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192, GEOPARQUET_VERSION 'NONE'${kvMetadataOption(metadata)})`);
  const count = target.known?.rows ?? (await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${literal})`)).getRowObjectsJS()[0]!.n as number;
  const written: WrittenTable = {
    path: finalPath,
    relativePath: partitionFile(target.country, target.table, target.partition),
    rows: count,
    sha256: await fileSha256(tmpPath),
  };
  return {
    written,
    pendingPath: tmpPath,
    commit: async () => { await rename(tmpPath, finalPath); return written; },
    discard: async () => { await rm(tmpPath, { force: true }); },
  };
}

export function quoteIdent(name: string): string {
  return quotedIdentifier(name);
}

/**
 * Where a file waits before its rename: beside it, named with a leading dot so readers of the
 * table folder skip it (pyarrow and pandas skip `.` and `_` names, DuckDB's `*.parquet` glob
 * does not match the suffix), and with the writer's pid so a later run can remove it once dead.
 */
export function pendingPath(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.tmp-${process.pid}`);
}

/** The pid of a pending file's writer (see pendingPath), or null for any other name. */
export function pendingWriter(name: string): number | null {
  const m = /^\.(.+)\.tmp-(\d+)$/.exec(name) ?? /\.parquet\.tmp-(\d+)$/.exec(name);
  return m ? Number(m.at(-1)) : null;
}

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Removes leftovers of killed runs (temporary Parquet files, staging databases). */
export async function cleanStaleTemporaries(dataDir: string, country: string, table: string): Promise<void> {
  // The table's pending files, and the manifest's (data/<country>/.manifest.json.tmp-<pid>).
  for (const dir of [tableDir(dataDir, country, table), join(dataDir, country)]) {
    try {
      for (const name of await readdir(dir)) {
        // Also the names of the versions before pendingPath (`x.parquet.tmp-<pid>`).
        const pid = pendingWriter(name);
        if (pid !== null && !isAlive(pid)) await rm(join(dir, name), { force: true });
      }
    } catch { /* no table yet */ }
  }
  try {
    const tmp = join(dataDir, '.tmp');
    for (const name of await readdir(tmp)) {
      const m = /-(\d+)$/.exec(name);
      if (m && !isAlive(Number(m[1]))) await rm(join(tmp, name), { recursive: true, force: true });
    }
  } catch { /* nothing staged */ }
}

/** Whether a process of this machine is running (this one counts). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try { process.kill(pid, 0); return true; } catch { return false; }
}

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}
