import { basename } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import { banSource } from '../../datasets/fr/ban/source.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { Stage } from '../core/stage.ts';
import { cleanStaleTemporaries, fileSize, type PreparedTable } from '../core/table-writer.ts';
import { createProgress, withProgress } from '../core/progress.ts';
import { partitionEntry } from '../core/manifest.ts';
import type { SourceEntry } from '../core/job.ts';
import { publishedPartitions } from '../../schemas/tables/layout.ts';
import { sha256InBackground } from '../core/file-hash.ts';
import { BAN_HEADER, BanRow, banPosition } from './ban-row.ts';
import type { Source } from '../../datasets/source.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * A commune address file read as the BAN's: which of its columns hold the BAN columns the table
 * is made of (fr.bal reads the BAL, whose `cle_interop` is the BAN's `id` of the same address).
 */
export interface AddressFileFormat {
  job: string;
  source: Source;
  /** What the file is called in the refusal of a file lacking columns. */
  title: string;
  /** The file column of each BAN column (BanRow's, and the former commune); null when the format has none. */
  columns: Record<BanColumn, string | null>;
  /** Columns the file must have. */
  required: readonly string[];
  /** SQL over the mapped columns: rows that are not addresses (skipped and counted, not refused). */
  skip?: string;
}
type BanColumn = keyof typeof BanRow.shape | 'code_insee_ancienne_commune';

/** The BAN's own layout. */
export const BAN_FORMAT: AddressFileFormat = {
  job: 'fr.ban', source: banSource, title: 'a BAN adresses file', required: BAN_HEADER,
  columns: Object.fromEntries([...Object.keys(BanRow.shape), 'code_insee_ancienne_commune'].map((c) => [c, c])) as Record<BanColumn, string>,
};

const q = quotedString;

/**
 * The BanRow schema as a SQL predicate over read_csv's text columns (empty fields read as NULL),
 * so DuckDB filters at its own speed; every refused row is then judged by BanRow itself, which
 * gives its reason. test/ingest/fr/ban-row.test.ts checks that both agree row by row.
 */
export const BAN_ROW_SQL = `
  coalesce(id, '') <> ''
  AND regexp_full_match(coalesce(numero, ''), '\\d{1,5}')
  AND coalesce(nom_voie, '') <> ''
  AND (code_postal IS NULL OR regexp_full_match(code_postal, '\\d{5}'))
  AND regexp_full_match(coalesce(code_insee, ''), '\\d{5}|2[AB]\\d{3}')
  AND coalesce(nom_commune, '') <> ''
  AND (x IS NULL OR coalesce(isfinite(TRY_CAST(x AS DOUBLE)), false))
  AND (y IS NULL OR coalesce(isfinite(TRY_CAST(y AS DOUBLE)), false))
  AND (lon IS NULL OR coalesce(TRY_CAST(lon AS DOUBLE) BETWEEN -180 AND 180, false))
  AND (lat IS NULL OR coalesce(TRY_CAST(lat AS DOUBLE) BETWEEN -90 AND 90, false))
  AND ((lon IS NOT NULL AND lat IS NOT NULL) OR (x IS NOT NULL AND y IS NOT NULL))`;

/** Projected system of BAN's x/y columns, as a SQL expression over code_insee. */
const CRS_SQL = `CASE WHEN code_insee LIKE '971%' OR code_insee LIKE '972%' THEN 'EPSG:5490' WHEN code_insee LIKE '973%' THEN 'EPSG:2972'
  WHEN code_insee LIKE '974%' THEN 'EPSG:2975' WHEN code_insee LIKE '976%' THEN 'EPSG:4471' ELSE 'EPSG:2154' END`;

/** The department of a commune code, as SQL over code_insee: 75113 -> 75, 2A004 -> 2A, 97411 -> 974. */
export const BAN_DEPARTMENT_SQL = `CASE WHEN code_insee LIKE '97%' THEN left(code_insee, 3) ELSE left(code_insee, 2) END`;

/**
 * Partition of the rows of one department, named as the BAN names its departmental file
 * (adresses-75): taken from the rows' commune codes, never from the input's file name.
 */
export function banPartition(department: string): string {
  return `adresses-${department}`;
}

/**
 * A partition as banPartition names it: it holds its department's addresses only, so the
 * keys of another department's rows cannot be there (publish does not scan it for them).
 */
const BAN_PARTITION = /^adresses-(\d{2}|2[AB]|97\d)$/;

/** Name of an input in its rejects file and logs: adresses-75.csv(.gz) -> adresses-75. */
function inputName(path: string): string {
  return basename(path).replace(/\.csv(\.gz)?$/i, '');
}

/**
 * Ingests one BAN file into `addresses`, one partition per department its rows belong to
 * (a departmental file gives one, the national file all of them). In each, the input replaces
 * the addresses of the communes it holds (and of the former communes its rows name) and any
 * address of the same id; the department's other communes stay (an extract of one
 * arrondissement leaves the others). DuckDB reads the CSV and writes the
 * Parquet files, TypeScript computes H3 cells, keys and (where lon/lat are missing) the
 * reprojection of x/y, vector by vector.
 */
/**
 * `cad_parcelles` (parcel ids joined by `|`, as the BAN and the BAL publish them) as a list: each
 * id trimmed, empty ones dropped; null when the column is empty.
 */
const PARCELS_SQL = `CASE WHEN nullif(trim(cad_parcelles), '') IS NULL THEN NULL
  ELSE list_filter(list_transform(string_split(cad_parcelles, '|'), p -> trim(p)), p -> p <> '') END`;

export async function ingestBanFile(ctx: JobContext, input: JobInput, format: AddressFileFormat = BAN_FORMAT): Promise<PartitionSummary[]> {
  const name = inputName(input.path);
  const header = await readCsvHeader(input.path, { separator: ';' });
  requireColumns(header, format.required, format.title);
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'addresses');
  const rejects = new Rejects(ctx.dataDir, 'fr', 'addresses', name, ctx.maxRejectShare);
  await rejects.init();
  const stage = await Stage.open(ctx.dataDir, `fr-addresses-${name}`);
  const c = stage.connection;
  const bytes = await fileSize(input.path);
  const progress = createProgress(`${format.job} ${name}`, bytes, ctx.progressOut);
  const prepared: { partition: string; table: PreparedTable; previous: SourceEntry[] }[] = [];
  // The input's checksum (for the manifest) is computed beside the job, on another thread.
  const inputSha = input.sha256 ? Promise.resolve(input.sha256) : sha256InBackground(input.path);
  inputSha.catch(() => {}); // awaited below; a failure surfaces there
  try {
    // Row order is never relied on (the file is written sorted by cell; refused rows find their
    // line numbers by a rescan), so DuckDB may read and stage the file in parallel without it.
    await c.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET preserve_insertion_order = false');
    // The layout is known and the header already read: every column as text, in the file's own
    // order, so DuckDB neither samples the file to guess it nor reads a value as anything else.
    const textColumns = `{${header.map((h) => `${q(h)}: 'VARCHAR'`).join(', ')}}`;
    const source = `read_csv(${q(input.path)}, delim = ';', header = true, quote = '"', escape = '"', auto_detect = false, columns = ${textColumns}, store_rejects = true, rejects_table = 'csv_rejects', rejects_scan = 'csv_scans')`;
    // The file is parsed once: the columns the table needs, and whether each row passes BanRow,
    // go to a temporary table (memory, spilling to the stage folder). Nothing is written yet.
    // Structurally broken lines (wrong number of fields...) are kept by DuckDB with their line number.
    // The file's columns under the BAN's names (the BAN's own file: the same names).
    const mapped = Object.entries(format.columns).map(([ban, file]) => `${file === null || !header.includes(file) ? 'NULL::VARCHAR' : `"${file.replace(/"/g, '""')}"`} AS ${ban}`).join(', ');
    const skip = format.skip ? ` WHERE NOT coalesce(${format.skip}, false)` : '';
    await withProgress(c, progress, () => c.run(
      `CREATE TEMP TABLE raw AS SELECT ${BAN_STAGED_COLUMNS.join(', ')}, nullif(code_insee_ancienne_commune, '') AS former_commune, (${BAN_ROW_SQL}) AS ok FROM (SELECT ${mapped} FROM ${source})${skip}`,
    ), bytes ?? 0);
    const skipped = format.skip ? Number((await c.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM (SELECT ${mapped} FROM ${source}) WHERE coalesce(${format.skip}, false)`)).getRowObjectsJS()[0]!.n) : 0;
    if (skipped > 0) ctx.log(`${format.job} ${name}: ${skipped} row(s) that are not addresses skipped`);
    const [{ total, bad }] = (await c.runAndReadAll(
      'SELECT count(*)::BIGINT AS total, count(*) FILTER (WHERE NOT ok)::BIGINT AS bad FROM raw',
    )).getRowObjectsJS() as [{ total: bigint; bad: bigint }];
    const structural = (await c.runAndReadAll('SELECT line::BIGINT AS line, arg_min(error_message, column_idx) AS error_message, any_value(csv_line) AS csv_line FROM csv_rejects GROUP BY line ORDER BY line')).getRowObjectsJS() as { line: bigint; error_message: string; csv_line: string }[];
    const refused = structural.map((r) => ({ line: Number(r.line), reason: firstLine(r.error_message), raw: r.csv_line as unknown }));
    if (bad > 0n) refused.push(...await invalidRows(c, input.path, format));
    for (const r of refused.sort((a, b) => a.line - b.line)) rejects.add(r.line, r.reason, r.raw);
    const rows = Number(total) + structural.length + skipped;
    rejects.check(rows);
    await rejects.close();
    // lon/lat as published when both are there, else x/y reprojected (never one of each: BanRow
    // has already checked that one pair or the other is complete).
    const published = 'lon IS NOT NULL AND lat IS NOT NULL';
    const lng = `CASE WHEN ${published} THEN CAST(lon AS DOUBLE) ELSE wgs84_lng(CAST(x AS DOUBLE), CAST(y AS DOUBLE), ${CRS_SQL}) END`;
    const lat = `CASE WHEN ${published} THEN CAST(lat AS DOUBLE) ELSE wgs84_lat(CAST(x AS DOUBLE), CAST(y AS DOUBLE), ${CRS_SQL}) END`;
    // Columns computed before the sort (the label is derived after it, so the sort does not
    // carry it). The source is carried: rows kept from the partition keep theirs (a BAL's
    // commune stays fr.bal when the BAN of its department is ingested over the others).
    type Derived = 'label';
    const columns: Record<Exclude<keyof typeof ADDRESS_COLUMNS, Derived>, string> = {
      id: 'id', cell: `h3_cell(${lat}, ${lng})`, longitude: lng, latitude: lat, number: 'CAST(numero AS INTEGER)', rep: 'rep',
      street: 'nom_voie', postcode: 'code_postal', locality_code: 'code_insee', locality_name: 'nom_commune',
      street_key: 'sk.k', locality_key: 'lk.k', position_kind: 'type_position', parcels: PARCELS_SQL, source: q(format.source.id),
    };
    const derived: Record<Derived, string> = {
      label: `concat_ws(' ', number::VARCHAR || coalesce(' ' || rep, ''), street, postcode, locality_name)`,
    };
    const cast = (k: string, v: string) => `CAST(${v} AS ${ADDRESS_COLUMNS[k as keyof typeof ADDRESS_COLUMNS]}) AS ${k}`;
    // From the staged rows, DuckDB writes the sorted Parquet file; TypeScript computes per vector
    // (H3 cells, reprojection). Keys are computed once per distinct street and locality name
    // (about one row in twenty), then joined. Each subquery reads `raw` itself: a CTE named
    // three times would be materialised, a second full copy of the rows (a third of the time).
    const select = `WITH sk AS (SELECT v, street_key(v) AS k FROM (SELECT DISTINCT nom_voie AS v FROM raw WHERE ok)),
      lk AS (SELECT v, locality_key(v) AS k FROM (SELECT DISTINCT nom_commune AS v FROM raw WHERE ok))
      SELECT ${Object.entries(columns).map(([k, v]) => cast(k, v)).join(', ')}
      FROM raw JOIN sk ON sk.v = raw.nom_voie JOIN lk ON lk.v = raw.nom_commune WHERE ok`;
    const afterSort = Object.keys(ADDRESS_COLUMNS).map((k) => (k in derived ? cast(k, derived[k as Derived]) : k)).join(', ');
    const departments = (await c.runAndReadAll(`SELECT DISTINCT ${BAN_DEPARTMENT_SQL} AS d FROM raw WHERE ok ORDER BY d`)).getRowObjectsJS().map((r) => r.d as string);
    // What the input covers: the communes of its rows, and the former communes they name (a
    // commune nouvelle's file replaces the addresses of the communes merged into it).
    await c.run(`CREATE TEMP TABLE covered AS SELECT code_insee AS commune FROM raw WHERE ok UNION SELECT former_commune FROM raw WHERE ok AND former_commune IS NOT NULL`);
    const publishedFiles = publishedPartitions(ctx.dataDir, 'fr', 'addresses');
    if (format.columns.code_postal === null) await postcodesFromPublished(c, departments.map((d) => publishedFiles.get(banPartition(d))).filter((f): f is string => f !== undefined));
    const kept = Object.keys(columns).join(', ');
    for (const department of departments) {
      const partition = banPartition(department);
      const path = publishedFiles.get(partition);
      // The published addresses of the department the input does not cover stay.
      const keep = path ? `FROM read_parquet(${q(path)}) WHERE locality_code NOT IN (SELECT commune FROM covered) AND id NOT IN (SELECT id FROM raw WHERE ok)` : null;
      const table = await stage.prepareParquet(`${select} AND ${BAN_DEPARTMENT_SQL} = ${q(department)}${keep ? ` UNION ALL SELECT ${kept} ${keep}` : ''}`,
        // The sources named without running the select twice: this input's, and the kept rows'.
        { dataDir: ctx.dataDir, country: 'fr', table: 'addresses', partition, orderBy: 'cell', afterSort,
          sources: { from: `(SELECT ${q(format.source.id)} AS source${keep ? ` UNION SELECT source ${keep}` : ''})` } });
      const keptRows = keep ? Number((await c.runAndReadAll(`SELECT count(*)::BIGINT AS n ${keep}`)).getRowObjectsJS()[0]!.n) : 0;
      const previous = keptRows > 0 ? (await partitionEntry(ctx.dataDir, 'fr', 'addresses', partition))?.sources ?? [] : [];
      prepared.push({ partition, table, previous });
    }
    if (departments.length === 0) ctx.log(`${format.job} ${name}: no valid row, nothing published`);
    progress.tick(rows);
    progress.done();
    await stage.close();
    const out: PartitionSummary[] = [];
    const sha256 = await inputSha;
    while (prepared.length > 0) {
      const p = prepared[0]!;
      out.push(...await publish(ctx, 'fr', format.job, format.source, { ...input, sha256 }, p.partition, [{ table: 'addresses', prepared: p.table }], rejects, { kept: p.previous, withdrawFrom: (other) => !BAN_PARTITION.test(other) }));
      prepared.shift();
    }
    return out;
  } catch (e) {
    await rejects.close();
    for (const p of prepared) await p.table.discard();
    await stage.close().catch(() => {});
    throw e;
  }
}

/**
 * A format without postcodes (the BAL) takes them from the addresses it replaces: the postcode of
 * the same id (the BAN's id is the BAL's cle_interop), else the commune's when it has only one.
 */
async function postcodesFromPublished(c: Stage['connection'], files: string[]): Promise<void> {
  if (files.length === 0) return;
  await c.run(`CREATE TEMP TABLE known_postcodes AS SELECT id, postcode, locality_code FROM read_parquet([${files.map(q).join(', ')}], union_by_name = true)
    WHERE postcode IS NOT NULL AND locality_code IN (SELECT DISTINCT code_insee FROM raw)`);
  await c.run(`UPDATE raw SET code_postal = p.postcode FROM (SELECT id, min(postcode) AS postcode FROM known_postcodes GROUP BY id) p WHERE raw.id = p.id AND raw.code_postal IS NULL`);
  await c.run(`UPDATE raw SET code_postal = p.postcode FROM (SELECT locality_code, min(postcode) AS postcode FROM known_postcodes GROUP BY locality_code HAVING count(DISTINCT postcode) = 1) p
    WHERE raw.code_insee = p.locality_code AND raw.code_postal IS NULL`);
}

/** The BAN columns the addresses table is made of, those BanRow checks (the others are not kept). */
const BAN_STAGED_COLUMNS = Object.keys(BanRow.shape);

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

/**
 * The rows the SQL check refused, judged by BanRow for their reason; their line numbers come
 * from one more streaming pass over the file, only when there are such rows.
 */
async function invalidRows(c: Stage['connection'], path: string, format: AddressFileFormat): Promise<{ line: number; reason: string; raw: unknown }[]> {
  const out: { line: number; reason: string; raw: unknown }[] = [];
  const bad = (await c.runAndReadAll(`SELECT * EXCLUDE (ok, former_commune) FROM raw WHERE NOT ok`)).getRowObjectsJS() as Record<string, string | null>[];
  const wanted = new Map<string, Record<string, string>>();
  for (const r of bad) {
    const record = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? '']));
    wanted.set(rowKey(record), record);
  }
  for await (const { line, record: published, error } of readCsv(path, { separator: ';' })) {
    if (error) continue;
    const record = Object.fromEntries(BAN_STAGED_COLUMNS.map((col) => { const f = format.columns[col as BanColumn]; return [col, f === null ? '' : published[f] ?? '']; }));
    const key = rowKey(record);
    const r = wanted.get(key);
    if (!r) continue;
    wanted.delete(key);
    const parsed = BanRow.safeParse(r);
    const reason = !parsed.success ? parsed.error.issues.map((i) => i.message).join('; ') : (() => { const p = banPosition(parsed.data); return typeof p === 'string' ? p : 'refused by the SQL form of the row schema'; })();
    out.push({ line, reason, raw: published });
    if (wanted.size === 0) break;
  }
  return out;
}

function rowKey(record: Record<string, string>): string {
  return BAN_STAGED_COLUMNS.map((c) => (record[c] ?? '').trim()).join('\u0001');
}
