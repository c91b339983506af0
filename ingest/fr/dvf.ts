import { existsSync, readdirSync } from 'node:fs';
import { quotedString } from '@duckdb/node-api';
import { basename, join } from 'node:path';
import { dvfRawSource, dvfSource } from '../../datasets/fr/dvf/source.ts';
import type { Source } from '../../datasets/source.ts';
import { readCsvHeader } from '../core/readers/csv.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { recordPartition } from '../core/manifest.ts';
import { Rejects } from '../core/rejects.ts';
import { Stage } from '../core/stage.ts';
import { cleanStaleTemporaries, fileSha256, type PreparedTable } from '../core/table-writer.ts';
import { TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
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

/** Partition of an input: csv/2024/departements/33.csv(.gz) -> 2024-33; ValeursFoncieres-2025-S1.txt -> valeursfoncieres-2025-s1. */
export function dvfPartition(path: string): string {
  const m = /(\d{4})[\\/]departements[\\/]([0-9AB]{2,3})\.csv(\.gz)?$/i.exec(path);
  if (m) return `${m[1]}-${m[2]}`;
  return basename(path).replace(/\.(csv|txt)(\.gz)?$/i, '').toLowerCase();
}

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
 * fr.dvf: every input becomes one partition of `sales` (one row per mutation), then
 * `market_indicators` is computed again over all sales partitions (the published ones and the new
 * ones) and everything is published together: a 24-month median spans two yearly files, a
 * region several departments.
 */
export async function ingestDvf(ctx: JobContext, inputs: JobInput[], { linesPerBucket = LINES_PER_BUCKET } = {}): Promise<PartitionSummary[]> {
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'sales');
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'market_indicators');
  const prepared: { input: JobInput; source: Source; partition: string; table: PreparedTable; rejects: Rejects }[] = [];
  try {
    for (const input of inputs) prepared.push(await prepareSales(ctx, input, linesPerBucket));
    const indicators = await prepareIndicators(ctx, prepared.map((p) => ({ partition: p.partition, path: p.table.pendingPath })));
    const out: PartitionSummary[] = [];
    for (const p of prepared) out.push(...await publish(ctx, 'fr', 'fr.dvf', p.source, p.input, p.partition, [{ table: 'sales', prepared: p.table }], p.rejects));
    const written = await indicators.commit();
    await recordPartition(ctx.dataDir, 'fr', {
      table: 'market_indicators', partition: 'all', file: written.relativePath, job: 'fr.dvf',
      sources: await Promise.all(prepared.map(async (p) => ({ id: p.source.id, input: basename(p.input.path), input_sha256: p.input.sha256 ?? await fileSha256(p.input.path), published_at: p.input.publishedAt ?? null, downloaded_from: p.input.downloadedFrom ?? null }))),
      rows: written.rows, rejects: 0, rejects_file: null, imported_at: ctx.now().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: written.sha256,
    }, ctx.now());
    out.push({ table: 'market_indicators', partition: 'all', rows: written.rows, rejects: 0, rejectsFile: null, file: written.path });
    return out;
  } catch (e) {
    for (const p of prepared) await p.table.discard();
    throw e;
  }
}

/** Lines aggregated into mutations at once (about 40 % of the stage's memory at the peak). */
export const LINES_PER_BUCKET = 400_000;

async function prepareSales(ctx: JobContext, input: JobInput, linesPerBucket: number) {
  const layout = LAYOUTS[await layoutOf(input.path)];
  const partition = dvfPartition(input.path);
  const rejects = new Rejects(ctx.dataDir, 'fr', 'sales', partition, ctx.maxRejectShare);
  await rejects.init();
  const stage = await Stage.open(ctx.dataDir, `fr-sales-${partition}`);
  const c = stage.connection;
  try {
    const zones = await registerIrisFunction(c, ctx.dataDir);
    if (zones === 0) ctx.log(`fr.dvf ${partition}: no IRIS published yet (run fr.zones first): sales get no IRIS`);
    // The reader keeps the file's order into the table (preserve_insertion_order, DuckDB's
    // default, set here because the line numbers rely on it): a row's rowid is its rank in the
    // file, numbered in parallel, where row_number() OVER () numbered on one thread.
    await c.run('SET preserve_insertion_order = true');
    await c.run(`CREATE TABLE text_lines AS SELECT * FROM read_csv(${q(input.path)}, delim = ${q(layout.separator)}, header = true,
      all_varchar = true, quote = '', escape = '', store_rejects = true, rejects_table = 'csv_rejects', rejects_scan = 'csv_scans')`);
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
    const addresses = join(ctx.dataDir, 'fr', 'addresses');
    if (existsSync(addresses) && readdirSync(addresses).some((f) => f.endsWith('.parquet'))) {
      await c.run(placeAtAddressesSql('lines', q(join(addresses, '*.parquet'))));
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
    const table = await stage.prepareParquet('SELECT * FROM mutations', { dataDir: ctx.dataDir, country: 'fr', table: 'sales', partition, orderBy: 'cell' });
    ctx.log(`fr.dvf ${partition}: ${Number(total)} lines, ${table.written.rows} sales, ${rejects.count} refused`);
    return { input, source: layout.source, partition, table, rejects };
  } catch (e) {
    await rejects.close();
    throw e;
  } finally {
    await stage.close().catch(() => {});
  }
}

/** market_indicators over the published sales partitions, the ones of this run replacing theirs. */
async function prepareIndicators(ctx: JobContext, fresh: { partition: string; path: string }[]): Promise<PreparedTable> {
  const dir = join(ctx.dataDir, 'fr', 'sales');
  const replaced = new Set(fresh.map((f) => `${f.partition}.parquet`));
  const files = [
    ...(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.parquet') && !replaced.has(f)).map((f) => join(dir, f)) : []),
    ...fresh.map((f) => f.path),
  ];
  const stage = await Stage.open(ctx.dataDir, 'fr-market-indicators');
  try {
    const sales = `read_parquet([${files.map(q).join(', ')}], union_by_name = true)`;
    return await stage.prepareParquet(indicatorsSelect(sales), { dataDir: ctx.dataDir, country: 'fr', table: 'market_indicators', partition: 'all', orderBy: 'code' });
  } finally {
    await stage.close().catch(() => {});
  }
}
