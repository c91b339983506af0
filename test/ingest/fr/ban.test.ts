import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { latLngToCell } from 'h3-js';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { generateBan } from '../../../bench/generate.ts';
import { RejectShareError } from '../../../ingest/core/rejects.ts';
import { fileSha256 } from '../../../ingest/core/table-writer.ts';
import { Manifest, TABLE_SCHEMA_VERSION } from '../../../schemas/tables/manifest.ts';
import { AddressRow } from '../../../schemas/tables/addresses.ts';
import { BAN_HEADER, BAN_ROWS, banLine, silentContext } from '../../helpers/fixture-data.ts';

async function analyst<T>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJS() as T[]; } finally { c.closeSync(); db.closeSync(); }
}

/** The fixture's addresses of department 75 (the others are in Gironde, department 33). */
const PARIS = BAN_ROWS.filter((r) => r.insee.startsWith('75'));

async function workdir() {
  const root = await mkdtemp(join(tmpdir(), 'lds-ban-'));
  return { root, dataDir: join(root, 'data') };
}

/** A data folder where the fixture's adresses-75 partition is already published. */
async function publishedFixture() {
  const { root, dataDir } = await workdir();
  const file = join(root, 'adresses-75.csv');
  await writeFile(file, `${BAN_HEADER}\n${PARIS.map(banLine).join('\n')}\n`);
  await ingestBanFile(silentContext(dataDir), { path: file });
  const published = join(dataDir, 'tables/addresses/country=fr/adresses-75.parquet');
  return { root, dataDir, file, published, before: await fileSha256(published) };
}

describe('fr.ban', () => {
  it('writes a Parquet table sorted by cell that an analyst reads with DuckDB, and records it in the manifest', async () => {
    const { root, dataDir } = await workdir();
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${PARIS.map(banLine).join('\n')}\n`);
    const [summary] = await ingestBanFile(silentContext(dataDir), { path: file });
    expect(summary).toMatchObject({ table: 'addresses', partition: 'adresses-75', rows: PARIS.length, rejects: 0, rejectsFile: null });
    const rows = await analyst<Record<string, unknown>>(`SELECT * FROM '${dataDir}/tables/addresses/country=fr/adresses-75.parquet'`);
    expect(rows).toHaveLength(PARIS.length);
    for (const r of rows) AddressRow.parse(r);
    const cells = rows.map((r) => r.cell as bigint);
    expect([...cells].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(cells);
    const bretagne = rows.find((r) => r.id === '75103_1205_00012_bis')!;
    expect(bretagne).toMatchObject({ number: 12, rep: 'bis', street: 'Rue de Bretagne', postcode: '75003', locality_code: '75103', street_key: 'rue bretagne', label: '12 bis Rue de Bretagne 75003 Paris 3e Arrondissement' });
    const manifest = Manifest.parse(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')));
    const entry = manifest.partitions.find((p) => p.table === 'addresses')!;
    expect(entry).toMatchObject({ partition: 'adresses-75', job: 'fr.ban', rows: PARIS.length, rejects: 0, schema_version: TABLE_SCHEMA_VERSION, imported_at: '2026-11-20T10:00:00.000Z' });
    expect(entry.sha256).toBe(await fileSha256(join(dataDir, 'tables/addresses/country=fr/adresses-75.parquet')));
    expect(entry.sources[0]).toMatchObject({ id: 'fr.ban', input: 'adresses-75.csv', input_sha256: await fileSha256(file) });
  });

  it('writes cad_parcelles as a Parquet list: the ids of the published text, split on |, in their order; null when empty', async () => {
    const { root, dataDir } = await workdir();
    const file = join(root, 'adresses-75.csv');
    const forms = ['75103000AK0034', '75103000AK0036|75103000AK0035', ' 75103000AK0037 | 75103000AK0038 ', ''];
    const lines = PARIS.slice(0, forms.length).map((r, i) => banLine({ ...r, parcelle: forms[i] }));
    await writeFile(file, `${BAN_HEADER}\n${lines.join('\n')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: file });
    const published = `${dataDir}/tables/addresses/country=fr/adresses-75.parquet`;
    const [schema] = await analyst<{ t: string }>(`SELECT typeof(parcels) AS t FROM '${published}' LIMIT 1`);
    expect(schema!.t).toBe('VARCHAR[]');
    // The published text, read by DuckDB from the CSV, against the list written.
    const got = await analyst<{ id: string; parcels: string[] | null; published: string | null }>(`SELECT a.id, a.parcels, s.cad_parcelles AS published
      FROM '${published}' a JOIN read_csv('${file}', delim = ';', header = true, all_varchar = true) s ON s.id = a.id ORDER BY a.id`);
    expect(got).toHaveLength(forms.length);
    for (const r of got) {
      const ids = (r.published ?? '').split('|').map((x) => x.trim()).filter((x) => x !== '');
      expect(r.parcels, r.id).toEqual(ids.length === 0 ? null : ids);
    }
    expect(got.map((r) => r.parcels?.length ?? null).sort()).toEqual([1, 2, 2, null]);
  });

  it('keeps a file of many row groups sorted by cell, each cell the one h3-js gives, whichever thread computed it', async () => {
    const { root, dataDir } = await workdir();
    const file = join(root, 'adresses-99.csv');
    await generateBan(file, 40_000, [-4.5, 43.3, 7.5, 50.9]);
    const summary = await ingestBanFile(silentContext(dataDir), { path: file });
    expect(summary.reduce((n, s) => n + s.rows, 0)).toBe(40_000);
    // The generated communes span departments: one partition each, each sorted by cell.
    const path = `${dataDir}/tables/addresses/country=fr/*.parquet`;
    const [{ unsorted, groups }] = await analyst<{ unsorted: bigint; groups: bigint }>(`SELECT
      (SELECT count(*) FROM (SELECT cell < lag(cell) OVER (PARTITION BY filename ORDER BY file_row_number) AS down FROM read_parquet('${path}', filename = true, file_row_number = true)) WHERE down) AS unsorted,
      (SELECT count(DISTINCT (file_name, row_group_id)) FROM parquet_metadata('${path}')) AS groups`);
    expect(unsorted).toBe(0n);
    expect(groups).toBeGreaterThan(4n);
    const sample = await analyst<{ cell: bigint; latitude: number; longitude: number }>(`SELECT cell, latitude, longitude FROM '${path}' USING SAMPLE 500 ROWS (reservoir, 1)`);
    for (const r of sample) expect(r.cell.toString(16)).toBe(latLngToCell(r.latitude, r.longitude, 15));
  });

  it('writes malformed rows to a rejects file with their line and reason, and keeps the others', async () => {
    const { root, dataDir } = await workdir();
    const good = PARIS.map(banLine);
    const lines = [
      ...good,
      good[0]!.replace(';12;', ';douze;'), // line 8: numero not a number
      good[1]!.split(';').slice(0, 10).join(';'), // line 9: truncated row
      good[2]!.replace(/;48\.86316\d*;/, ';95.1;'), // line 10: latitude out of range
    ];
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${lines.join('\n')}\n`);
    const [summary] = await ingestBanFile({ ...silentContext(dataDir), maxRejectShare: 0.5 }, { path: file });
    expect(summary!.rows).toBe(good.length);
    expect(summary!.rejects).toBe(3);
    const rejects = await readFile(summary!.rejectsFile!, 'utf8');
    const byLine = rejects.trim().split('\n').slice(1).map((l) => l.split(';').slice(0, 2));
    expect(byLine.map(([l]) => l)).toEqual(['8', '9', '10']);
    expect(byLine[0]![1]).toMatch(/numero/);
    expect(byLine[2]![1]).toMatch(/lat is not a latitude/);
  });

  it('reads the file gzip-compressed, as BAN publishes it (adresses-75.csv.gz), into the same partition', async () => {
    const { root, dataDir } = await workdir();
    const file = join(root, 'adresses-75.csv.gz');
    await writeFile(file, gzipSync(`${BAN_HEADER}\n${PARIS.map(banLine).join('\n')}\n`));
    const [summary] = await ingestBanFile(silentContext(dataDir), { path: file });
    expect(summary).toMatchObject({ partition: 'adresses-75', rows: PARIS.length, rejects: 0 });
    const [{ n }] = await analyst<{ n: bigint }>(`SELECT count(*) AS n FROM '${dataDir}/tables/addresses/country=fr/adresses-75.parquet' WHERE street = 'Rue de Bretagne'`);
    expect(n).toBe(3n);
  });

  it('reprojects x/y from Lambert-93 when lon/lat are not both published, never mixing the two pairs', async () => {
    const { root, dataDir } = await workdir();
    const blank = (line: string, fields: number[]) => line.split(';').map((v, i) => (fields.includes(i) ? '' : v)).join(';');
    const [bretagne, , , , , roquette] = PARIS.map(banLine);
    // Field 12 is lon, 13 lat. Rue de Bretagne: x/y only; Rue de la Roquette: x/y and lon alone.
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${blank(bretagne!, [12, 13])}\n${blank(roquette!, [13]).replace(/;2\.373200;/, ';9.999999;')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: file });
    const rows = await analyst<{ id: string; longitude: number; latitude: number; cell: bigint }>(`SELECT id, longitude, latitude, cell FROM '${dataDir}/tables/addresses/country=fr/adresses-75.parquet' ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual(['75103_1205_00012', '75111_8304_00030']);
    // x/y are written to the centimetre: back in WGS84 that is well under 1e-6 degree.
    expect(rows[0]!.longitude).toBeCloseTo(2.36195, 6);
    expect(rows[0]!.latitude).toBeCloseTo(48.86305, 6);
    expect(rows[1]!.longitude).toBeCloseTo(2.37320, 6);
    expect(rows[1]!.latitude).toBeCloseTo(48.85490, 6);
    for (const r of rows) expect(r.cell.toString(16)).toBe(latLngToCell(r.latitude, r.longitude, 15));
  });

  it('fails past the allowed share of rejects and leaves the published table as it was', async () => {
    const { dataDir, file, published, before } = await publishedFixture();
    const manifestBefore = await readFile(join(dataDir, 'fr/manifest.json'), 'utf8');
    await writeFile(file, `${BAN_HEADER}\n${PARIS.map(banLine).map((l) => l.replace(/;(750\d\d|33230);/, ';7500;')).join('\n')}\n`);
    await expect(ingestBanFile(silentContext(dataDir), { path: file })).rejects.toBeInstanceOf(RejectShareError);
    expect(await fileSha256(published)).toBe(before);
    expect(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')).toBe(manifestBefore);
    expect(readdirSync(join(dataDir, 'tables/addresses/country=fr'))).toEqual(['adresses-75.parquet']);
  });

  it('refuses a file that is not a BAN file', async () => {
    const { root, dataDir } = await workdir();
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, 'a;b;c\n1;2;3\n');
    await expect(ingestBanFile(silentContext(dataDir), { path: file })).rejects.toThrow(/not a BAN adresses file/);
  });

  it('keeps the previous table when the job is killed half-way, and the next run cleans up', async () => {
    const { dataDir, file, published, before } = await publishedFixture();
    // A file big enough to be caught in the middle.
    const big = createWriteStream(file);
    big.write(`${BAN_HEADER}\n`);
    const base = banLine(BAN_ROWS[0]!);
    for (let i = 0; i < 400_000; i++) big.write(`${base.replace('_00012;', `_${String(i).padStart(5, '0')};`)}\n`);
    await new Promise((r) => big.end(r));
    const child = spawn(process.execPath, ['--import', 'tsx', 'ingest/cli.ts', 'fr.ban', '--input', file, '--data-dir', dataDir], { stdio: 'ignore' });
    // Kill it once it has started staging rows.
    for (let i = 0; i < 600 && !(existsSync(join(dataDir, '.tmp')) && readdirSync(join(dataDir, '.tmp')).length > 0); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect(await fileSha256(published)).toBe(before);
    expect(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')).partitions[0].rows).toBe(PARIS.length);
    // The next run publishes the new table and removes what the killed run left.
    const [summary] = await ingestBanFile(silentContext(dataDir), { path: file });
    // The new file covers Paris 3e only: the published addresses of the other arrondissement stay.
    expect(summary!.rows).toBe(400_000 + PARIS.filter((a) => a.insee !== '75103').length);
    expect(readdirSync(join(dataDir, '.tmp'))).toEqual([]);
    expect(readdirSync(join(dataDir, 'tables/addresses/country=fr'))).toEqual(['adresses-75.parquet']);
  }, 180_000);
});
