import { hasPartitions, publishedPartitions, tableGlob } from '../../schemas/tables/layout.ts';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { quotedString } from '@duckdb/node-api';
import { basename, join } from 'node:path';
import { dvfRawSource, dvfSource } from '../../datasets/fr/dvf/source.ts';
import type { Source } from '../../datasets/source.ts';
import { readCsvHeader } from '../core/readers/csv.ts';
import type { JobContext, JobInput, PartitionSummary, SourceEntry } from '../core/job.ts';
import { readManifest, recordPartition, removePartition } from '../core/manifest.ts';
import { createProgress, withProgress } from '../core/progress.ts';
import { Rejects } from '../core/rejects.ts';
import { Stage } from '../core/stage.ts';
import { cleanStaleTemporaries, fileSha256, partitionPath, type PreparedTable } from '../core/table-writer.ts';
import { TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import { SALE_COLUMNS } from '../../schemas/tables/sales.ts';
import { DVF_GEO_HEADER, DVF_RAW_HEADER, DvfGeoLine, DvfRawLine, GEO_LINE_SELECT, RAW_LINE_SELECT } from './dvf-lines.ts';
import { indicatorsSelect } from './dvf-indicators.ts';
import { placeAtAddressesSql, salesSelect } from './dvf-sales.ts';
import { registerIrisFunction } from './dvf-zones.ts';

const q = quotedString;

/** The two published layouts: Etalab's geolocated CSV and the DGFiP's raw text. */
const LAYOUTS = {
  geo: { source: dvfSource, separator: ',', header: DVF_GEO_HEADER as readonly string[], schema: DvfGeoLine, select: GEO_LINE_SELECT },
  raw: { source: dvfRawSource, separator: '|', header: DVF_RAW_HEADER as readonly string[], schema: DvfRawLine, select: RAW_LINE_SELECT },
} as const;
type Layout = keyof typeof LAYOUTS;

/**
 * Name of an input in its rejects file and logs (never a partition): csv/2024/departements/33.csv(.gz)
 * -> 2024-33; ValeursFoncieres-2025-S1.txt -> valeursfoncieres-2025-s1.
 */
export function dvfInputName(path: string): string {
  const m = /(\d{4})[\\/]departements[\\/]([0-9AB]{2,3})\.csv(\.gz)?$/i.exec(path);
  if (m) return `${m[1]}-${m[2]}`;
  return basename(path).replace(/\.(csv|txt)(\.gz)?$/i, '').toLowerCase();
}

/** Partition of a sale, from its own columns: the year of its deed and its department (2021-33). */
export const SALE_PARTITION_SQL = `strftime(date, '%Y') || '-' || department_code`;
/** A partition name as SALE_PARTITION_SQL gives it; any other name is a file of the earlier layout. */
export const SALE_PARTITION = /^\d{4}-(\d{2}|2[AB]|97\d)$/;

/** The .csv(.gz) and .txt(.gz) files of a folder, at any depth (the layout of each is checked by its header). */
export function dvfFiles(input: string): string[] {
  if (!existsSync(input)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(csv|txt)(\.gz)?$/i.test(e.name)) out.push(p);
    }
  };
  walk(input);
  return out;
}

async function layoutOf(path: string): Promise<Layout> {
  const header = await readCsvHeader(path);
  for (const [name, l] of Object.entries(LAYOUTS) as [Layout, (typeof LAYOUTS)[Layout]][]) {
    if (l.header.every((c) => header.includes(c))) return name;
  }
  const geoMissing = DVF_GEO_HEADER.filter((c) => !header.includes(c));
  throw new Error(`${basename(path)} is not a DVF file: neither the geolocated layout (missing ${geoMissing.slice(0, 4).join(', ')}...) nor the DGFiP text layout`);
}

/**
 * fr.dvf: the sales of every input are partitioned by what they are, the year of the deed and
 * the department (2021-33), whatever the file they came from. In each (year, department) it has
 * sales for, an input replaces the published sales dated within its first and last deed there,
 * and any published sale of the same id: the departmental file and the national file of a year
 * give the same partitions, and a national file of 2022 leaves 2021 as it was. Inputs apply in
 * the order given. `market_indicators` is then computed again over all sales partitions and
 * everything is published together: a 24-month median spans two years, a region several
 * departments.
 */
export async function ingestDvf(ctx: JobContext, inputs: JobInput[], { linesPerBucket = LINES_PER_BUCKET } = {}): Promise<PartitionSummary[]> {
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'sales');
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'market_indicators');
  const work = join(ctx.dataDir, '.tmp', `fr-dvf-inputs-${process.pid}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  let merged: MergedSales | null = null;
  try {
    const staged: StagedInput[] = [];
    for (const [i, input] of inputs.entries()) staged.push(await stageSales(ctx, input, join(work, `input-${i}.parquet`), linesPerBucket));
    merged = await mergeSales(ctx, staged);
    const manifest = await readManifest(ctx.dataDir, 'fr');
    const unchanged = [...publishedPartitions(ctx.dataDir, 'fr', 'sales')].filter(([p]) => !merged!.affected.has(p));
    const indicators = await prepareIndicators(ctx, [...unchanged.map(([, path]) => path), ...merged.partitions.map((p) => p.table.pendingPath)]);
    const out: PartitionSummary[] = [];
    const salesSources: SourceEntry[] = unchanged.flatMap(([p]) => manifest.partitions.find((e) => e.table === 'sales' && e.partition === p)?.sources ?? []);
    for (const p of merged.partitions) {
      const written = await p.table.commit();
      await recordPartition(ctx.dataDir, 'fr', {
        table: 'sales', partition: p.partition, file: written.relativePath, job: 'fr.dvf', sources: p.sources,
        rows: written.rows, rejects: p.rejects, rejects_file: p.rejectsFile, imported_at: ctx.now().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: written.sha256,
      }, ctx.now());
      salesSources.push(...p.sources);
      out.push({ table: 'sales', partition: p.partition, rows: written.rows, rejects: p.rejects, rejectsFile: p.rejectsFile, file: written.path });
    }
    for (const partition of merged.removed) {
      await rm(partitionPath(ctx.dataDir, 'fr', 'sales', partition), { force: true });
      await removePartition(ctx.dataDir, 'fr', 'sales', partition, ctx.now());
      ctx.log(`fr.dvf: sales/${partition} removed (its sales now live in the partitions of their year and department)`);
    }
    if (indicators) {
      const written = await indicators.commit();
      await recordPartition(ctx.dataDir, 'fr', {
        table: 'market_indicators', partition: 'all', file: written.relativePath, job: 'fr.dvf', sources: uniqueSources(salesSources),
        rows: written.rows, rejects: 0, rejects_file: null, imported_at: ctx.now().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: written.sha256,
      }, ctx.now());
      out.push({ table: 'market_indicators', partition: 'all', rows: written.rows, rejects: 0, rejectsFile: null, file: written.path });
    }
    return out;
  } catch (e) {
    for (const p of merged?.partitions ?? []) await p.table.discard();
    throw e;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function uniqueSources(sources: SourceEntry[]): SourceEntry[] {
  const seen = new Map<string, SourceEntry>();
  for (const s of sources) seen.set(`${s.id}|${s.input}|${s.input_sha256}`, s);
  return [...seen.values()];
}

interface StagedInput { input: JobInput; source: Source; name: string; path: string; rejects: Rejects; entry: SourceEntry }
interface MergedSales {
  partitions: { partition: string; table: PreparedTable; sources: SourceEntry[]; rejects: number; rejectsFile: string | null }[];
  /** Published partitions read again: rewritten (in `partitions`) or removed. */
  affected: Set<string>;
  removed: string[];
}

/**
 * The new sales partitions: the published partitions the inputs touch (their year and
 * department, the ones holding one of their ids, and any partition of the earlier file-named
 * layout) read again, each input applied in turn, the result split by year and department.
 */
async function mergeSales(ctx: JobContext, staged: StagedInput[]): Promise<MergedSales> {
  const published = publishedPartitions(ctx.dataDir, 'fr', 'sales');
  if (staged.length === 0) return { partitions: [], affected: new Set(), removed: [] };
  const stage = await Stage.open(ctx.dataDir, 'fr-sales-merge');
  const partitions: MergedSales['partitions'] = [];
  try {
    const c = stage.connection;
    const columns = Object.keys(SALE_COLUMNS).join(', ');
    await c.run(`CREATE TABLE fresh AS ${staged.map((s, i) => `SELECT *, ${SALE_PARTITION_SQL} AS k, ${i} AS _input FROM read_parquet(${q(s.path)})`).join(' UNION ALL BY NAME ')}`);
    const freshKeys = new Set((await c.runAndReadAll('SELECT DISTINCT k FROM fresh')).getRowObjectsJS().map((r) => r.k as string));
    const affected = new Set([...published.keys()].filter((p) => freshKeys.has(p) || !SALE_PARTITION.test(p)));
    const others = [...published].filter(([p]) => !affected.has(p));
    if (others.length > 0) {
      const holding = (await c.runAndReadAll(`SELECT DISTINCT filename FROM read_parquet([${others.map(([, f]) => q(f)).join(', ')}], filename = true, union_by_name = true) WHERE id IN (SELECT id FROM fresh)`)).getRowObjectsJS();
      for (const r of holding) affected.add(others.find(([, f]) => f === r.filename)![0]);
    }
    const read = [...affected].map((p) => published.get(p)!);
    const readSql = `read_parquet([${read.map(q).join(', ')}], filename = true, union_by_name = true)`;
    // A partition written before a column was added (carrez_area, units) reads it as null.
    const had = read.length === 0 ? new Set<string>() : new Set((await c.runAndReadAll(`DESCRIBE SELECT * FROM ${readSql}`)).getRowObjectsJS().map((r) => r.column_name as string));
    const publishedColumns = Object.entries(SALE_COLUMNS).map(([k, t]) => (had.has(k) ? k : `CAST(NULL AS ${t}) AS ${k}`)).join(', ');
    await c.run(read.length === 0
      ? `CREATE TABLE state AS SELECT ${columns}, k, _input, NULL::VARCHAR AS _from FROM fresh LIMIT 0`
      : `CREATE TABLE state AS SELECT ${publishedColumns}, ${SALE_PARTITION_SQL} AS k, -1 AS _input, regexp_extract(filename, '([^/\\\\]+)\\.parquet$', 1) AS _from FROM ${readSql}`);
    for (let i = 0; i < staged.length; i++) {
      await c.run(`CREATE OR REPLACE TABLE span AS SELECT k, min(date) AS lo, max(date) AS hi FROM fresh WHERE _input = ${i} GROUP BY k`);
      await c.run(`DELETE FROM state WHERE id IN (SELECT id FROM fresh WHERE _input = ${i})
        OR EXISTS (SELECT 1 FROM span WHERE span.k = state.k AND state.date BETWEEN span.lo AND span.hi)`);
      await c.run(`INSERT INTO state SELECT ${columns}, k, _input, NULL FROM fresh WHERE _input = ${i}`);
    }
    const manifest = await readManifest(ctx.dataDir, 'fr');
    const keys = (await c.runAndReadAll('SELECT k, list(DISTINCT _input) AS inputs, list(DISTINCT _from) FILTER (WHERE _from IS NOT NULL) AS kept FROM state GROUP BY k ORDER BY k')).getRowObjectsJS() as { k: string; inputs: number[]; kept: string[] | null }[];
    for (const { k, inputs, kept } of keys) {
      const from = inputs.filter((i) => i >= 0).sort((a, b) => a - b).map((i) => staged[i]!);
      // Sales kept from a published partition keep that partition's sources.
      const keptSources = (kept ?? []).flatMap((p) => manifest.partitions.find((e) => e.table === 'sales' && e.partition === p)?.sources ?? []);
      const table = await stage.prepareParquet(`SELECT ${columns} FROM state WHERE k = ${q(k)}`, { dataDir: ctx.dataDir, country: 'fr', table: 'sales', partition: k, orderBy: 'cell' });
      const withRejects = from.filter((s) => s.rejects.count > 0);
      partitions.push({
        partition: k, table, sources: uniqueSources([...keptSources, ...from.map((s) => s.entry)]),
        rejects: from.reduce((n, s) => n + s.rejects.count, 0), rejectsFile: withRejects[0]?.rejects.path ?? null,
      });
    }
    const removed = [...affected].filter((p) => !keys.some((r) => r.k === p));
    return { partitions, affected, removed };
  } catch (e) {
    for (const p of partitions) await p.table.discard();
    throw e;
  } finally {
    await stage.close().catch(() => {});
  }
}

/** Lines aggregated into mutations at once (about 40 % of the stage's memory at the peak). */
export const LINES_PER_BUCKET = 400_000;

/** One input's sales (one row per mutation) staged as a Parquet file of the run's work folder. */
async function stageSales(ctx: JobContext, input: JobInput, out: string, linesPerBucket: number): Promise<StagedInput> {
  const layout = LAYOUTS[await layoutOf(input.path)];
  const partition = dvfInputName(input.path);
  const rejects = new Rejects(ctx.dataDir, 'fr', 'sales', partition, ctx.maxRejectShare);
  await rejects.init();
  const inputSha = input.sha256 ?? await fileSha256(input.path);
  const stage = await Stage.open(ctx.dataDir, `fr-sales-${partition}`);
  const c = stage.connection;
  try {
    const zones = await registerIrisFunction(c, ctx.dataDir);
    if (zones === 0) ctx.log(`fr.dvf ${partition}: no IRIS published yet (run fr.zones first): sales get no IRIS`);
    // The reader keeps the file's order into the table (preserve_insertion_order, DuckDB's
    // default, set here because the line numbers rely on it): a row's rowid is its rank in the
    // file, numbered in parallel, where row_number() OVER () numbered on one thread.
    await c.run('SET preserve_insertion_order = true; SET enable_progress_bar = true; SET enable_progress_bar_print = false');
    // The read is most of the run: its percentage and remaining time from DuckDB's progress on the file's bytes.
    const bytes = (await stat(input.path)).size;
    const progress = createProgress(`fr.dvf ${partition}`, bytes, ctx.progressOut);
    await withProgress(c, progress, () => c.run(`CREATE TABLE text_lines AS SELECT * FROM read_csv(${q(input.path)}, delim = ${q(layout.separator)}, header = true,
      all_varchar = true, quote = '', escape = '', store_rejects = true, rejects_table = 'csv_rejects', rejects_scan = 'csv_scans')`), bytes);
    progress.tick(Number((await c.runAndReadAll('SELECT count(*)::BIGINT AS n FROM text_lines')).getRowObjectsJS()[0]!.n));
    progress.done();
    // Lines DuckDB could not split (wrong number of fields) are left out of text_lines: the
    // physical line of the others is their rank plus the header plus the broken lines before them.
    const structural = (await c.runAndReadAll('SELECT line::BIGINT AS line, arg_min(error_message, column_idx) AS error_message, any_value(csv_line) AS csv_line FROM csv_rejects GROUP BY line ORDER BY line')).getRowObjectsJS() as { line: bigint; error_message: string; csv_line: string }[];
    if (structural.length === 0) {
      // A view, not a copy: every line is where its rank says.
      await c.run('CREATE VIEW published_lines AS SELECT rowid + 2 AS line, * FROM text_lines');
    } else {
      await c.run(`CREATE TABLE broken AS SELECT line::BIGINT AS line, row_number() OVER (ORDER BY line) AS j FROM (SELECT DISTINCT line FROM csv_rejects)`);
      await c.run(`CREATE TABLE published_lines AS SELECT t.rowid + 2 + (SELECT count(*) FROM broken b WHERE b.line - b.j - 1 < t.rowid + 1) AS line, t.* FROM text_lines t`);
    }
    const refused: { line: number; reason: string; raw: unknown }[] = structural.map((r) => ({ line: Number(r.line), reason: r.error_message.split('\n')[0]!.trim(), raw: r.csv_line }));
    const invalid = (await c.runAndReadAll(`SELECT * FROM published_lines WHERE NOT (${layout.schema.sql})`)).getRowObjectsJS() as Record<string, unknown>[];
    for (const r of invalid) {
      const record = Object.fromEntries(layout.header.map((h) => [h, r[h] == null ? '' : String(r[h])]));
      const parsed = layout.schema.zod.safeParse(record);
      refused.push({ line: Number(r.line), reason: parsed.success ? 'refused by the SQL form of the line schema' : parsed.error.issues.map((i) => i.message).join('; '), raw: record });
    }
    for (const r of refused.sort((a, b) => a.line - b.line)) rejects.add(r.line, r.reason, r.raw);
    const [{ total }] = (await c.runAndReadAll('SELECT count(*)::BIGINT AS total FROM published_lines')).getRowObjectsJS() as [{ total: bigint }];
    rejects.check(Number(total) + structural.length);
    await rejects.close();
    // A mutation with a refused line is left out whole: without one of its locals it would be mispriced.
    const dropped = layout === LAYOUTS.geo ? `AND id_mutation NOT IN (SELECT id_mutation FROM published_lines WHERE NOT (${layout.schema.sql}) AND id_mutation IS NOT NULL)` : '';
    await c.run(`CREATE TABLE lines AS SELECT ${layout.select} FROM published_lines WHERE (${layout.schema.sql}) ${dropped}`);
    if (hasPartitions(ctx.dataDir, 'fr', 'addresses')) {
      await c.run(placeAtAddressesSql('lines', q(tableGlob(ctx.dataDir, 'fr', 'addresses'))));
    }
    // One row per mutation, in buckets of mutations (all lines of a mutation in one bucket):
    // DuckDB's DISTINCT and string aggregates hold their state in memory, so a national file
    // aggregated at once exhausts the stage's memory; each bucket stays well within it, and
    // the sort by cell, which spills to disk, then runs over all of them.
    const [{ kept }] = (await c.runAndReadAll('SELECT count(*)::BIGINT AS kept FROM lines')).getRowObjectsJS() as [{ kept: bigint }];
    const buckets = Math.max(1, Math.ceil(Number(kept) / linesPerBucket));
    for (let b = 0; b < buckets; b++) {
      const bucket = buckets === 1 ? 'lines' : `(SELECT * FROM lines WHERE hash(id_mutation) % ${buckets} = ${b})`;
      await c.run(`${b === 0 ? 'CREATE TABLE mutations AS' : 'INSERT INTO mutations'} ${salesSelect(bucket, layout.source.id)}`);
    }
    await c.run(`COPY mutations TO ${q(out)} (FORMAT parquet)`);
    const [{ sales }] = (await c.runAndReadAll('SELECT count(*)::BIGINT AS sales FROM mutations')).getRowObjectsJS() as [{ sales: bigint }];
    ctx.log(`fr.dvf ${partition}: ${Number(total)} lines, ${sales} sales, ${rejects.count} refused`);
    const entry: SourceEntry = { id: layout.source.id, input: basename(input.path), input_sha256: inputSha, published_at: input.publishedAt ?? null, downloaded_from: input.downloadedFrom ?? null };
    return { input, source: layout.source, name: partition, path: out, rejects, entry };
  } catch (e) {
    await rejects.close();
    throw e;
  } finally {
    await stage.close().catch(() => {});
  }
}

/** market_indicators over the given sales files (none: nothing to compute). */
async function prepareIndicators(ctx: JobContext, files: string[]): Promise<PreparedTable | null> {
  if (files.length === 0) return null;
  const stage = await Stage.open(ctx.dataDir, 'fr-market-indicators');
  try {
    const sales = `read_parquet([${files.map(q).join(', ')}], union_by_name = true)`;
    return await stage.prepareParquet(indicatorsSelect(sales), { dataDir: ctx.dataDir, country: 'fr', table: 'market_indicators', partition: 'all', orderBy: 'code', sources: { from: sales } });
  } finally {
    await stage.close().catch(() => {});
  }
}
