import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckRows } from '../../helpers/duckdb.ts';
import { describe, expect, it } from 'vitest';
import { ingestFilosofi } from '../../../ingest/fr/filosofi.ts';
import { filosofiJob } from '../../../ingest/fr/filosofi.job.ts';
import { readManifest } from '../../../ingest/core/manifest.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/filosofi/BASE_TD_FILO_DISP_IRIS_2018.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/insee_filosofi/BASE_TD_FILO_DISP_IRIS_2018_HEAD30_transcribed.csv');

const rows = duckRows;

/** The published file read directly by DuckDB, every column as text: the reference the job must match. */
const direct = (file: string) => rows<{ code: string; med: number | null; q1: number | null; q3: number | null; tp: number | null; note: string }>(
  `SELECT IRIS AS code, TRY_CAST(DISP_MED18 AS DOUBLE) AS med, TRY_CAST(DISP_Q118 AS DOUBLE) AS q1, TRY_CAST(DISP_Q318 AS DOUBLE) AS q3,
     TRY_CAST(DISP_TP6018 AS DOUBLE) AS tp, DISP_NOTE18 AS note FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) ORDER BY code`);

const written = (dataDir: string) => rows<{ code: string; indicator: string; value: number | null; suppressed: boolean; range_low: number | null; range_high: number | null; reliability: string; period_start: string }>(
  `SELECT code, indicator, value, suppressed, range_low, range_high, reliability, strftime(period_start, '%Y-%m-%d') AS period_start
   FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' ORDER BY code, indicator`);

async function checkAgainstSource(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-')), 'data');
  const [summary] = await ingestFilosofi(silentContext(dataDir), { publishedAt: PUBLISHED, path: file });
  expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.filosofi.2018', rejects: 0 });
  const out = await written(dataDir);
  const source = await direct(file);
  expect(out).toHaveLength(source.length * 2);
  for (const s of source) {
    const med = out.find((r) => r.code === s.code && r.indicator === 'income.median_disposable_per_unit')!;
    const tp = out.find((r) => r.code === s.code && r.indicator === 'income.poverty_rate')!;
    expect(med).toMatchObject({ value: s.med, suppressed: s.med === null, range_low: s.q1, range_high: s.q3, reliability: s.note === '0' ? 'high' : 'medium', period_start: '2018-01-01' });
    // An empty cell is statistical secrecy: withheld, never zero.
    expect(tp).toMatchObject({ value: s.tp, suppressed: s.tp === null });
  }
  return { dataDir, out };
}

describe('fr.filosofi', () => {
  it('writes every IRIS of the sample as DuckDB reads the published file, the withheld cell as suppressed', async () => {
    const { out } = await checkAgainstSource(SAMPLE);
    expect(out.find((r) => r.code === '751031202' && r.indicator === 'income.poverty_rate')).toMatchObject({ value: null, suppressed: true });
  });

  it.skipIf(!existsSync(REAL))('reads the real file (CRLF, IRIS with a leading zero, empty cells) as DuckDB does', async () => {
    const { out } = await checkAgainstSource(REAL);
    expect(out.some((r) => r.code.startsWith('0100'))).toBe(true);
  });

  it('takes the edition from the header, not the file name: the same content under another name replaces it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-renamed-'));
    const dataDir = join(dir, 'data');
    const renamed = join(dir, 'revenus.csv');
    await copyFile(SAMPLE, renamed);
    await ingestFilosofi(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE });
    await ingestFilosofi(silentContext(dataDir), { publishedAt: PUBLISHED, path: renamed });
    expect(await readdir(join(dataDir, 'tables', 'zone_values', 'country=fr'))).toEqual(['fr.filosofi.2018.parquet']);
    expect((await readManifest(dataDir, 'fr')).partitions.filter((p) => p.table === 'zone_values')).toHaveLength(1);
  });

  it('refuses a file of another layout, naming what is missing, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-bad-'));
    const file = join(dir, 'BASE_TD_FILO_DISP_IRIS_2018.csv');
    await writeFile(file, 'IRIS;DISP_MED18;DISP_Q118\r\n751031101;25000;15000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/DISP_TP6018, DISP_Q318, DISP_NOTE18/);
    await writeFile(file, 'CODGEO;MED18\r\n75056;26000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/expected columns IRIS and DISP_MEDyy/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});

const COMMUNES = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_COM.csv');
const POVERTY = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_PAUVRES_COM.csv');

/** The commune files read directly by DuckDB, every column as text ('s' is secret): the reference. */
const directCommunes = (file: string, columns: string) => rows<Record<string, string | null>>(
  `SELECT CODGEO AS code, ${columns} FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) ORDER BY code`);
const num = (v: string | null) => (v === null || v === 's' ? null : Number(v.replace(',', '.')));

describe('fr.filosofi by commune', () => {
  it('writes the median of every commune and arrondissement as DuckDB reads FILO2021_DISP_COM, quartiles as range, fiscal households as sample', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-com-')), 'data');
    const [summary] = await ingestFilosofi(silentContext(dataDir), { path: COMMUNES, publishedAt: '2023-11-08' });
    expect(summary).toMatchObject({ partition: 'fr.filosofi.2021.communes', rejects: 0 });
    const source = await directCommunes(COMMUNES, 'Q121 AS q1, Q221 AS med, Q321 AS q3, NBMEN21 AS households');
    const out = await rows<{ code: string; level: string; indicator: string; value: number; range_low: number; range_high: number; sample_size: number; period_start: string; published_on: string }>(
      `SELECT code, level, indicator, value, range_low, range_high, sample_size, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(published_on, '%Y-%m-%d') AS published_on
       FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' ORDER BY code`);
    expect(out.map((r) => ({ code: r.code, med: r.value, q1: r.range_low, q3: r.range_high, households: r.sample_size })))
      .toEqual(source.map((s) => ({ code: s.code, med: num(s.med), q1: num(s.q1), q3: num(s.q3), households: num(s.households) })));
    // Municipal arrondissements are zones of their own level; Paris itself a commune.
    expect(out.find((r) => r.code === '75103')).toMatchObject({ level: 'sublocality_level1', indicator: 'income.median_disposable_per_unit', period_start: '2021-01-01', published_on: '2023-11-08' });
    expect(out.find((r) => r.code === '75056')?.level).toBe('locality');
    expect(out.find((r) => r.code === '33001')?.level).toBe('locality');
  });

  it('writes the poverty rate of FILO2021_DISP_PAUVRES_COM in its own partition, a secret cell (s) as withheld', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-pauv-')), 'data');
    await ingestFilosofi(silentContext(dataDir), { publishedAt: PUBLISHED, path: COMMUNES });
    const [summary] = await ingestFilosofi(silentContext(dataDir), { publishedAt: PUBLISHED, path: POVERTY });
    expect(summary).toMatchObject({ partition: 'fr.filosofi.2021.communes-poverty', rejects: 0 });
    const source = await directCommunes(POVERTY, 'TP6021 AS tp');
    const out = await rows<{ code: string; value: number | null; suppressed: boolean }>(
      `SELECT code, value, suppressed FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' WHERE indicator = 'income.poverty_rate' ORDER BY code`);
    expect(out).toEqual(source.map((s) => ({ code: s.code, value: num(s.tp), suppressed: s.tp === 's' })));
    expect(out.find((r) => r.code === '33447')).toEqual({ code: '33447', value: null, suppressed: true });
    expect((await readdir(join(dataDir, 'tables', 'zone_values', 'country=fr'))).sort()).toEqual(['fr.filosofi.2021.communes-poverty.parquet', 'fr.filosofi.2021.communes.parquet']);
  });

  it('reads a decimal comma and the 2019 names, leaves nd/ns/so unwritten and refuses a bad code or number with its line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-com-bad-'));
    const file = join(dir, 'FILO2019_DISP_Pauvres_COM.csv');
    await writeFile(file, ['CODGEO;TP6019;TP60AGE119', '33001;12,5;s', '33138;nd;nd', '3300;10,0;s', '33393;douze;s', ...Array.from({ length: 300 }, (_, i) => `${String(33400 + i)};10.${i % 10};s`)].join('\r\n') + '\r\n');
    const dataDir = join(dir, 'data');
    const [summary] = await ingestFilosofi({ ...silentContext(dataDir), maxRejectShare: 0.05 }, { publishedAt: PUBLISHED, path: file });
    expect(summary).toMatchObject({ partition: 'fr.filosofi.2019.communes-poverty', rows: 301, rejects: 2 });
    const out = await rows<{ code: string; value: number }>(`SELECT code, value FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' WHERE code IN ('33001', '33138') ORDER BY code`);
    expect(out).toEqual([{ code: '33001', value: 12.5 }]);
    const rejected = await rows<{ line: number; reason: string }>(`SELECT CAST(line AS INTEGER) AS line, reason FROM read_csv('${summary!.rejectsFile}', delim = ';', header = true) ORDER BY line`);
    expect(rejected.map((r) => r.line)).toEqual([4, 5]);
    expect(rejected[0]!.reason).toMatch(/CODGEO: commune code "3300"/);
    expect(rejected[1]!.reason).toMatch(/TP6019 "douze" is not a number/);
  });

  it('refuses a commune distribution file without its quartiles, naming them, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-com-layout-'));
    const file = join(dir, 'FILO2021_DISP_COM.csv');
    await writeFile(file, 'CODGEO;NBMEN21;Q221\r\n75056;1000;28000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns Q121, Q321; found CODGEO, NBMEN21, Q221/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});

const DECLARED = join(REPO_ROOT, 'datasets/fr/filosofi/BASE_TD_FILO_DEC_IRIS_2018.csv');

describe('fr.filosofi declared income by IRIS', () => {
  it('writes the median declared income of every IRIS as DuckDB reads BASE_TD_FILO_DEC_IRIS_2018, quartiles as range, an empty cell withheld (never 0)', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-dec-')), 'data');
    const [summary] = await ingestFilosofi(silentContext(dataDir), { path: DECLARED, publishedAt: PUBLISHED });
    expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.filosofi.2018.declared', rejects: 0 });
    const source = await rows<{ code: string; med: string | null; q1: string | null; q3: string | null; note: string }>(
      `SELECT IRIS AS code, DEC_MED18 AS med, DEC_Q118 AS q1, DEC_Q318 AS q3, DEC_NOTE18 AS note FROM read_csv('${DECLARED}', delim = ';', header = true, all_varchar = true) ORDER BY code`);
    const out = await rows<{ code: string; level: string; indicator: string; value: number | null; suppressed: boolean; range_low: number | null; range_high: number | null; sample_size: number | null; reliability: string; unit: string; period_start: string; period_end: string; published_on: string }>(
      `SELECT code, level, indicator, value, suppressed, range_low, range_high, sample_size, reliability, unit, strftime(period_start, '%Y-%m-%d') AS period_start,
         strftime(period_end, '%Y-%m-%d') AS period_end, strftime(published_on, '%Y-%m-%d') AS published_on FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' ORDER BY code`);
    expect(source.length).toBe(15);
    expect(out).toEqual(source.map((s) => ({
      code: s.code, level: 'sublocality_level2', indicator: 'income.median_declared_per_unit', unit: 'EUR/year',
      value: s.med === null ? null : Number(s.med), suppressed: s.med === null, range_low: s.q1 === null ? null : Number(s.q1), range_high: s.q3 === null ? null : Number(s.q3),
      sample_size: null, reliability: s.note === '0' ? 'high' : 'medium', period_start: '2018-01-01', period_end: '2018-12-31', published_on: PUBLISHED,
    })));
    expect(out.find((r) => r.code === '751031202')).toMatchObject({ value: null, suppressed: true, range_low: null });
  });

  it('keeps the declared and the disposable medians of an IRIS as two measures, each in its partition', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-both-')), 'data');
    await ingestFilosofi(silentContext(dataDir), { path: SAMPLE, publishedAt: PUBLISHED });
    await ingestFilosofi(silentContext(dataDir), { path: DECLARED, publishedAt: '2026-11-27' });
    expect((await readdir(join(dataDir, 'tables', 'zone_values', 'country=fr'))).sort()).toEqual(['fr.filosofi.2018.declared.parquet', 'fr.filosofi.2018.parquet']);
    const both = await rows<{ indicator: string; value: number; published_on: string }>(
      `SELECT indicator, value, strftime(published_on, '%Y-%m-%d') AS published_on FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' WHERE code = '751030901' AND indicator LIKE 'income.median%' ORDER BY indicator`);
    expect(both).toEqual([
      { indicator: 'income.median_declared_per_unit', value: 44893, published_on: '2026-11-27' },
      { indicator: 'income.median_disposable_per_unit', value: 39470, published_on: PUBLISHED },
    ]);
  });

  it('reads the later layout (DEC_INCERT, decimal comma, s withheld, nd not written) and refuses a bad number or code with its line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-dec-2020-'));
    const file = join(dir, 'BASE_TD_FILO_DEC_IRIS_2020.csv');
    const header = 'IRIS;DEC_PIMP20;DEC_TP6020;DEC_INCERT20;DEC_Q120;DEC_MED20;DEC_Q320;DEC_EQ20;DEC_D120;DEC_NOTE20';
    const good = Array.from({ length: 300 }, (_, i) => `33001${String(i).padStart(4, '0')};60,1;12,0;0;10000,5;20000,5;30000;1,0;5000;0`);
    await writeFile(file, [header, '751031101;70,2;s;0;s;s;s;s;s;0', '751031102;nd;nd;0;nd;nd;nd;nd;nd;0', '75103110;70;10;0;1;2;3;1;1;0', '751031201;70;10;0;1;vingt;3;1;1;0', ...good].join('\r\n') + '\r\n');
    const dataDir = join(dir, 'data');
    const [summary] = await ingestFilosofi({ ...silentContext(dataDir), maxRejectShare: 0.05 }, { path: file, publishedAt: PUBLISHED });
    expect(summary).toMatchObject({ partition: 'fr.filosofi.2020.declared', rows: 301, rejects: 2 });
    const out = await rows<{ code: string; value: number | null; suppressed: boolean; range_low: number | null }>(
      `SELECT code, value, suppressed, range_low FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' WHERE code IN ('751031101', '751031102', '330010007') ORDER BY code`);
    expect(out).toEqual([
      { code: '330010007', value: 20000.5, suppressed: false, range_low: 10000.5 },
      { code: '751031101', value: null, suppressed: true, range_low: null },
    ]);
    const rejected = await rows<{ line: number; reason: string }>(`SELECT CAST(line AS INTEGER) AS line, reason FROM read_csv('${summary!.rejectsFile}', delim = ';', header = true) ORDER BY line`);
    expect(rejected.map((r) => r.line)).toEqual([4, 5]);
    expect(rejected[0]!.reason).toMatch(/IRIS code "75103110" is not 9 characters/);
    expect(rejected[1]!.reason).toMatch(/DEC_MED20 "vingt" is not a number/);
  });

  it('refuses a declared-income file without its quartiles or caution note, naming them, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-dec-bad-'));
    const file = join(dir, 'BASE_TD_FILO_DEC_IRIS_2018.csv');
    await writeFile(file, 'IRIS;DEC_MED18;DEC_Q118\r\n751031101;25000;15000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { path: file, publishedAt: PUBLISHED })).rejects.toThrow(/declared-income file by IRIS \(edition 2018\): missing columns DEC_Q318, DEC_NOTE18/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});

describe('fr.filosofi publication date', () => {
  it('fails before writing anything without --published-on, telling the operator where to find the date', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-filosofi-nodate-')), 'data');
    await expect(async () => filosofiJob.run(silentContext(dataDir), ['--input', DECLARED])).rejects.toThrow("--published-on YYYY-MM-DD is required: the date the producer's page gives for this edition (served as updated_on, never the import date)");
    await expect(ingestFilosofi(silentContext(dataDir), { path: DECLARED })).rejects.toThrow(/fr\.filosofi: the producer's publication date of BASE_TD_FILO_DEC_IRIS_2018\.csv is not known; give --published-on YYYY-MM-DD/);
    expect(existsSync(dataDir)).toBe(false);
    await filosofiJob.run(silentContext(dataDir), ['--input', DECLARED, '--published-on', '2026-11-27']);
    const entry = (await readManifest(dataDir, 'fr')).partitions.find((p) => p.partition === 'fr.filosofi.2018.declared')!;
    expect(entry.sources).toEqual([expect.objectContaining({ id: 'fr.filosofi', input: 'BASE_TD_FILO_DEC_IRIS_2018.csv', published_at: '2026-11-27' })]);
  });
});
