import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckRows } from '../../helpers/duckdb.ts';
import { describe, expect, it } from 'vitest';
import { ingestStatbelIncome } from '../../../ingest/be/statbel-income.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/be/statbel-income/TF_PSNL_INC_TAX_MUNTY.txt');
const REAL = join(REPO_ROOT, '../shared/realdata/be/statbel_fiscal_income_municipality/TF_PSNL_INC_TAX_MUNTY.txt');

const rows = duckRows;

/** The mean per return computed by DuckDB from the published file itself (pipe, BOM, every column as text). */
const reference = (file: string) => rows<{ year: string; code: string; mean: number; returns: number }>(
  `SELECT CD_YEAR AS year, CD_MUNTY_REFNIS AS code, round(CAST(MS_TOT_NET_TAXABLE_INC AS DOUBLE) / (CAST(MS_NBR_NON_ZERO_INC AS INTEGER) + CAST(MS_NBR_ZERO_INC AS INTEGER)), 2) AS mean,
     CAST(MS_NBR_NON_ZERO_INC AS INTEGER) + CAST(MS_NBR_ZERO_INC AS INTEGER) AS returns
   FROM read_csv('${file}', delim = '|', header = true, all_varchar = true) ORDER BY year, code`);

async function check(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-statbel-income-')), 'data');
  const parts = await ingestStatbelIncome(silentContext(dataDir), { publishedAt: PUBLISHED, path: file });
  const ref = await reference(file);
  const years = [...new Set(ref.map((r) => r.year))].sort();
  // One partition per income year, named from the rows.
  expect(parts.map((p) => p.partition)).toEqual(years.map((y) => `be.statbel-income.${y}`));
  expect((await readdir(join(dataDir, 'tables', 'zone_values', 'country=be'))).sort()).toEqual(years.map((y) => `be.statbel-income.${y}.parquet`));
  const out = await rows<{ year: string; code: string; value: number; n: number; level: string; unit: string }>(
    `SELECT strftime(period_start, '%Y') AS year, code, value, sample_size AS n, level, unit FROM '${dataDir}/tables/zone_values/country=be/*.parquet' ORDER BY year, code`);
  expect(out.map((r) => ({ year: r.year, code: r.code, mean: r.value, returns: r.n }))).toEqual(ref);
  expect(new Set(out.map((r) => `${r.level} ${r.unit}`))).toEqual(new Set(['locality EUR/year']));
  return out;
}

describe('be.statbel-income', () => {
  it('writes the mean net taxable income per return of the sample as DuckDB computes it from the file', async () => {
    expect((await check(SAMPLE)).length).toBe(10);
  });

  it.skipIf(!existsSync(REAL))('reads the real file (BOM, CRLF, 589 municipalities over nine years) as DuckDB does', async () => {
    const out = await check(REAL);
    expect(out.length).toBe(5301);
  });

  it('refuses a file of another layout, naming the missing columns, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-statbel-bad-'));
    const file = join(dir, 'income.txt');
    await writeFile(file, 'CD_YEAR|CD_REFNIS|MS_NBR_NON_ZERO_INC\r\n2022|21004|100\r\n');
    await expect(ingestStatbelIncome(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns CD_MUNTY_REFNIS, MS_NBR_ZERO_INC, MS_TOT_NET_TAXABLE_INC/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=be'))).toBe(false);
  });
});

describe('be.statbel-income by statistical sector', () => {
  const FILE = join(REPO_ROOT, 'datasets/be/statbel-income/TF_PSNL_INC_TAX_SECTOR.txt');

  it('writes the median per return of every sector as DuckDB reads the file, withheld cells as suppressed (never 0)', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-statbel-income-sectors-')), 'data');
    const parts = await ingestStatbelIncome(silentContext(dataDir), { publishedAt: PUBLISHED, path: FILE });
    expect(parts.map((p) => [p.partition, p.rejects])).toEqual([['be.statbel-income-sectors.2021', 0], ['be.statbel-income-sectors.2022', 0]]);
    type Row = { year: string; code: string; median: number | null; n: number };
    const source = await rows<Row>(
      `SELECT CD_YEAR AS year, CD_SECTOR AS code, TRY_CAST(MS_MEDIAN_NET_TAXABLE_INC AS DOUBLE) AS median, CAST(MS_NBR_NON_ZERO_INC AS INTEGER) AS n
       FROM read_csv('${FILE}', delim = '|', header = true, all_varchar = true) ORDER BY year, code`);
    const out = await rows<Row & { level: string; unit: string; indicator: string; suppressed: boolean; reliability: string; source: string }>(
      `SELECT strftime(period_start, '%Y') AS year, code, value AS median, sample_size AS n, level, unit, indicator, suppressed, reliability, source
       FROM '${dataDir}/tables/zone_values/country=be/*.parquet' ORDER BY year, code`);
    expect(source).toHaveLength(18);
    expect(out.map((r) => ({ year: r.year, code: r.code, median: r.median, n: r.n }))).toEqual(source);
    expect(new Set(out.map((r) => `${r.level} ${r.unit} ${r.indicator} ${r.source}`))).toEqual(new Set(['sublocality_level2 EUR/year income.taxable_median be.statbel-income-sectors']));
    // `C` cells: withheld by Statbel (Haren 2022, the unlocated returns), kept as withheld.
    expect(out.filter((r) => r.median === null).map((r) => `${r.year} ${r.code}`)).toEqual(['2021 21004ZZZZ', '2022 21004R01-', '2022 21004ZZZZ']);
    expect(out.every((r) => r.suppressed === (r.median === null))).toBe(true);
    // Reliability from the number of returns (8: low, 18: medium, 412: high).
    expect(out.filter((r) => r.code === '23047A00-').map((r) => r.reliability)).toEqual(['low', 'medium']);
    expect(out.find((r) => r.code === '21004A01-')!.reliability).toBe('high');
  });

  it('reads the older files naming the sector CD_REFNIS_SECTOR, and refuses a broken row with its reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-statbel-income-sectors-old-'));
    const file = join(dir, 'TF_PSNL_INC_TAX_SECTOR.txt');
    await writeFile(file, '\ufeffCD_YEAR|CD_REFNIS_SECTOR|MS_NBR_NON_ZERO_INC|MS_TOT_NET_TAXABLE_INC|MS_AVG_TOT_NET_TAXABLE_INC|MS_MEDIAN_NET_TAXABLE_INC\r\n2015|21004A01-|300|9000000|30000|24000.5\r\n2015|21004|900|27000000|30000|24100\r\n2015|21004A02-|x|9000000|30000|24000\r\n2015|2100|300|9000000|30000|24000\r\n');
    const [summary] = await ingestStatbelIncome({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file });
    expect(summary).toMatchObject({ partition: 'be.statbel-income-sectors.2015', rows: 2, rejects: 2 });
    // A row of a whole municipality (5-digit code), were the file to hold one, is its median at the municipality.
    expect(await rows<{ level: string; code: string; value: number }>(`SELECT level, code, value FROM '${dir}/data/tables/zone_values/country=be/*.parquet' ORDER BY code`))
      .toEqual([{ level: 'locality', code: '21004', value: 24100 }, { level: 'sublocality_level2', code: '21004A01-', value: 24000.5 }]);
  });

  it('refuses a sector file without its median, naming it, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-statbel-income-sectors-bad-'));
    const file = join(dir, 'TF_PSNL_INC_TAX_SECTOR.txt');
    await writeFile(file, 'CD_YEAR|CD_SECTOR|MS_NBR_NON_ZERO_INC|MS_AVG_TOT_NET_TAXABLE_INC\r\n2022|21004A01-|100|30000\r\n');
    await expect(ingestStatbelIncome(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/fiscal income file by statistical sector.*missing columns MS_MEDIAN_NET_TAXABLE_INC/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=be'))).toBe(false);
  });
});
