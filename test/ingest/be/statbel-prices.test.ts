import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestStatbelPrices } from '../../../ingest/be/statbel-prices.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/be/statbel-prices/TF_IMMO_MUNTY.txt');
const HEAD = 'CD_YEAR|CD_TYPE_NL|CD_TYPE_FR|CD_REFNIS|CD_REFNIS_NL|CD_REFNIS_FR|CD_PERIOD|CD_CLASS_SURFACE|MS_TOTAL_TRANSACTIONS|MS_P_25|MS_P_50_median|MS_P_75|CD_niveau_refnis';

describe('be.statbel-prices', () => {
  it("writes the year's medians of apartments and all houses per municipality, as DuckDB reads them in the file", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-statbel-prices-')), 'data');
    const parts = await ingestStatbelPrices(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE });
    expect(parts.map((p) => [p.partition, p.rejects])).toEqual([['be.statbel-prices.2023', 0], ['be.statbel-prices.2024', 0]]);
    expect((await readdir(tableDir(dataDir, 'be', 'zone_values'))).sort()).toEqual(['be.statbel-prices.2023.parquet', 'be.statbel-prices.2024.parquet']);
    const source = await duckRows<{ year: string; code: string; type: string; n: number; p25: number | null; p50: number | null; p75: number | null }>(
      `SELECT CD_YEAR AS year, CD_REFNIS AS code, CASE WHEN CD_TYPE_NL = 'Appartementen' THEN 'apartment' ELSE 'house' END AS type, CAST(MS_TOTAL_TRANSACTIONS AS INTEGER) AS n,
         TRY_CAST(MS_P_25 AS DOUBLE) AS p25, TRY_CAST(MS_P_50_median AS DOUBLE) AS p50, TRY_CAST(MS_P_75 AS DOUBLE) AS p75
       FROM read_csv('${SAMPLE}', delim = '|', header = true, all_varchar = true)
       WHERE CD_PERIOD = 'Y' AND CD_niveau_refnis = '5' AND (CD_TYPE_NL = 'Appartementen' OR CD_TYPE_NL LIKE 'Alle huizen%') ORDER BY year, code, type`);
    const out = await duckRows<{ year: string; code: string; type: string; n: number; p25: number | null; p50: number | null; p75: number | null }>(
      `SELECT strftime(period_start, '%Y') AS year, code, breakdown AS type, sample_size AS n, range_low AS p25, value AS p50, range_high AS p75
       FROM '${tableGlob(dataDir, 'be', 'zone_values')}' ORDER BY year, code, type`);
    expect(source).toHaveLength(20);
    expect(out).toEqual(source);
    // Machelen's 2024 apartments: withheld by Statbel, kept as withheld (never 0).
    const [withheld] = await duckRows<{ suppressed: boolean; value: number | null; reliability: string }>(
      `SELECT suppressed, value, reliability FROM '${tableGlob(dataDir, 'be', 'zone_values')}' WHERE code = '23047' AND breakdown = 'apartment' AND period_start = DATE '2024-01-01'`);
    expect(withheld).toEqual({ suppressed: true, value: null, reliability: 'low' });
  });

  it('refuses a broken row with its reason, and a file of another layout naming the missing columns, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-statbel-prices-bad-'));
    const file = join(dir, 'prices.txt');
    await writeFile(file, `${HEAD}\r\n2024|Appartementen|Appartements|2100|Brussel|Bruxelles|Y||10|1|2|3|5\r\n2024|Appartementen|Appartements|21009|Elsene|Ixelles|Y||x|1|2|3|5\r\n2024|Appartementen|Appartements|21004|Brussel|Bruxelles|Y||40|190000|240000|310000|5\r\n`);
    const [summary] = await ingestStatbelPrices({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file });
    expect(summary).toMatchObject({ rows: 1, rejects: 2 });
    await writeFile(file, 'CD_YEAR|CD_REFNIS|MS_P_50_median\r\n2024|21004|240000\r\n');
    await expect(ingestStatbelPrices(silentContext(join(dir, 'fresh')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns CD_TYPE_NL, CD_PERIOD, MS_TOTAL_TRANSACTIONS, MS_P_25, MS_P_75, CD_niveau_refnis/);
    expect(existsSync(tableDir(join(dir, 'fresh'), 'be', 'zone_values'))).toBe(false);
  });

  it("writes the year's medians of every statistical sector of TF_IMMO_SECTOR as DuckDB reads the file, withheld percentiles as suppressed", async () => {
    const file = join(REPO_ROOT, 'datasets/be/statbel-prices/TF_IMMO_SECTOR.txt');
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-statbel-sectors-')), 'data');
    const parts = await ingestStatbelPrices(silentContext(dataDir), { publishedAt: PUBLISHED, path: file });
    expect(parts.map((p) => [p.partition, p.rejects])).toEqual([['be.statbel-prices-sectors.2023', 0], ['be.statbel-prices-sectors.2024', 0]]);
    type Row = { year: string; code: string; type: string; n: number; p25: number | null; p50: number | null; p75: number | null };
    const source = await duckRows<Row>(
      `SELECT CD_YEAR AS year, CD_STAT_SECTOR AS code, CASE CD_TYPE WHEN 'B015' THEN 'apartment' ELSE 'house' END AS type, CAST(MS_TRANSACTIONS AS INTEGER) AS n,
         TRY_CAST(MS_P25 AS DOUBLE) AS p25, TRY_CAST("MS_P50 (MEDIAN_PRICE)" AS DOUBLE) AS p50, TRY_CAST(MS_P75 AS DOUBLE) AS p75
       FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) WHERE CD_TYPE IN ('B00A', 'B015') ORDER BY year, code, type`);
    const out = await duckRows<Row & { level: string; suppressed: boolean }>(
      `SELECT strftime(period_start, '%Y') AS year, code, breakdown AS type, sample_size AS n, range_low AS p25, value AS p50, range_high AS p75, level, suppressed
       FROM '${tableGlob(dataDir, 'be', 'zone_values')}' ORDER BY year, code, type`);
    expect(out.map(({ level: _l, suppressed: _s, ...r }) => r)).toEqual(source);
    expect(new Set(out.map((r) => r.level))).toEqual(new Set(['sublocality_level2']));
    // Under 16 sales Statbel withholds the percentiles: suppressed, never 0.
    expect(out.filter((r) => r.n < 16).every((r) => r.suppressed && r.p50 === null)).toBe(true);
    expect(out.filter((r) => r.n >= 16).every((r) => !r.suppressed && r.p50 !== null)).toBe(true);
  });

  it('refuses a sector file without its median column, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-statbel-sectors-bad-'));
    const file = join(dir, 'TF_IMMO_SECTOR.txt');
    await writeFile(file, 'CD_STAT_SECTOR;CD_YEAR;CD_TYPE;MS_TRANSACTIONS;MS_P25;MS_P75\r\n21004A01-;2024;B015;40;1;2\r\n');
    await expect(ingestStatbelPrices(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/not Statbel's real-estate sales by statistical sector .*missing columns MS_P50 \(MEDIAN_PRICE\)/);
  });
});
