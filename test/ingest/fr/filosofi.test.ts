import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckRows } from '../../helpers/duckdb.ts';
import { describe, expect, it } from 'vitest';
import { ingestFilosofi } from '../../../ingest/fr/filosofi.ts';
import { readManifest } from '../../../ingest/core/manifest.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

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
  const [summary] = await ingestFilosofi(silentContext(dataDir), { path: file });
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
    await ingestFilosofi(silentContext(dataDir), { path: SAMPLE });
    await ingestFilosofi(silentContext(dataDir), { path: renamed });
    expect(await readdir(join(dataDir, 'tables', 'zone_values', 'country=fr'))).toEqual(['fr.filosofi.2018.parquet']);
    expect((await readManifest(dataDir, 'fr')).partitions.filter((p) => p.table === 'zone_values')).toHaveLength(1);
  });

  it('refuses a file of another layout, naming what is missing, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-filosofi-bad-'));
    const file = join(dir, 'BASE_TD_FILO_DISP_IRIS_2018.csv');
    await writeFile(file, 'IRIS;DISP_MED18;DISP_Q118\r\n751031101;25000;15000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { path: file })).rejects.toThrow(/DISP_TP6018, DISP_Q318, DISP_NOTE18/);
    await writeFile(file, 'CODGEO;MED18\r\n75056;26000\r\n');
    await expect(ingestFilosofi(silentContext(join(dir, 'data')), { path: file })).rejects.toThrow(/expected columns IRIS and DISP_MEDyy/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});
