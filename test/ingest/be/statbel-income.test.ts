import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckRows } from '../../helpers/duckdb.ts';
import { describe, expect, it } from 'vitest';
import { ingestStatbelIncome } from '../../../ingest/be/statbel-income.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

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
  const parts = await ingestStatbelIncome(silentContext(dataDir), { path: file });
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
    const file = join(dir, 'TF_PSNL_INC_TAX_SECTOR.txt');
    await writeFile(file, 'CD_YEAR|CD_SECTOR|MS_NBR_NON_ZERO_INC\r\n2022|21004A00-|100\r\n');
    await expect(ingestStatbelIncome(silentContext(join(dir, 'data')), { path: file })).rejects.toThrow(/missing columns CD_MUNTY_REFNIS, MS_NBR_ZERO_INC, MS_TOT_NET_TAXABLE_INC/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=be'))).toBe(false);
  });
});
