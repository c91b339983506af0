import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestBuildingStock } from '../../../ingest/be/building-stock.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-25';

const SAMPLE = join(REPO_ROOT, 'datasets/be/building-stock/building_stock_open_data.txt');
const HEADER = 'CD_YEAR|CD_REFNIS|CD_REFNIS_NL|CD_REFNIS_FR|CD_REFNIS_LVL|CD_STAT_TYPE|CD_STAT_TYPE_NL|CD_STAT_TYPE_FR|CD_BUILDING_TYPE|CD_BUILDING_TYPE_NL|CD_BUILDING_TYPE_FR|MS_VALUE';

/** Dwellings and the share in houses per municipality and year, computed by DuckDB on the published file (Latin-1, pipe, every column as text). */
const reference = (file: string) => duckRows<{ year: string; code: string; dwellings: number; share: number }>(
  `SELECT CD_YEAR AS year, CD_REFNIS AS code, sum(CAST(MS_VALUE AS INTEGER)) AS dwellings,
     round(1000.0 * sum(CAST(MS_VALUE AS INTEGER)) FILTER (WHERE CD_BUILDING_TYPE IN ('R1', 'R2', 'R3')) / sum(CAST(MS_VALUE AS INTEGER))) / 10 AS share
   FROM read_csv('${file}', delim = '|', header = true, all_varchar = true, encoding = 'latin-1')
   WHERE CD_REFNIS_LVL = '5' AND CD_STAT_TYPE = 'T8' GROUP BY ALL HAVING count(MS_VALUE) = 6 ORDER BY year, code`);

describe('be.census (Statbel building stock)', () => {
  it('writes dwellings and the share of dwellings in houses of every municipality as DuckDB computes them on the file', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-census-')), 'data');
    const logged: string[] = [];
    const parts = await ingestBuildingStock({ ...silentContext(dataDir), log: (l) => logged.push(l) }, { path: SAMPLE, publishedAt: '2025-06-30' });
    expect(parts.map((p) => [p.partition, p.rejects])).toEqual([['be.building-stock.2024', 0], ['be.building-stock.2025', 0]]);
    const ref = await reference(SAMPLE);
    const out = await duckRows<{ year: string; code: string; indicator: string; value: number; level: string; unit: string; reliability: string; start: string; n: number | null }>(
      `SELECT strftime(period_start, '%Y') AS year, code, indicator, value, level, unit, reliability, strftime(period_start, '%Y-%m-%d') AS start, sample_size AS n
       FROM '${dataDir}/tables/zone_values/country=be/*.parquet' ORDER BY year, code, indicator`);
    const dwellings = out.filter((r) => r.indicator === 'housing.dwellings');
    const shares = out.filter((r) => r.indicator === 'housing.houses_share');
    expect(dwellings.map((r) => ({ year: r.year, code: r.code, dwellings: r.value }))).toEqual(ref.map((r) => ({ year: r.year, code: r.code, dwellings: Number(r.dwellings) })));
    expect(shares.map((r) => ({ year: r.year, code: r.code, share: r.value, n: r.n }))).toEqual(ref.map((r) => ({ year: r.year, code: r.code, share: r.share, n: Number(r.dwellings) })));
    expect(new Set(out.map((r) => `${r.level} ${r.reliability} ${r.start.slice(5)}`))).toEqual(new Set(['locality high 01-01']));
    // Machelen 2024 lacks its R6 dwellings (an empty cell): no figure rather than a partial total, said in the log.
    expect(ref.some((r) => r.code === '23047' && r.year === '2024')).toBe(false);
    expect(out.some((r) => r.code === '23047' && r.year === '2024')).toBe(false);
    expect(out.some((r) => r.code === '23047' && r.year === '2025')).toBe(true);
    expect(logged.join('\n')).toMatch(/no figure for 1 municipalities .*23047 \(2024\)/);
    // The country, region and arrondissement rows are left.
    expect(out.some((r) => ['01000', '04000', '21000'].includes(r.code))).toBe(false);
  });

  it('refuses a bad row with its line and reason, and a file of another layout naming the missing columns, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-be-census-bad-'));
    const good = (code: string) => ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((t) => `2025|${code}|X|X|5|T8|x|x|${t}|x|x|10`);
    const file = join(dir, 'building_stock_open_data.txt');
    await writeFile(file, [HEADER, ...Array.from({ length: 30 }, (_, i) => good(String(21001 + i))).flat(), '2025|2100|X|X|5|T8|x|x|R1|x|x|10', '2025|21001|X|X|5|T8|x|x|R7|x|x|10', '2025|21002|X|X|5|T8|x|x|R1|x|x|dix'].join('\r\n') + '\r\n');
    const [summary] = await ingestBuildingStock({ ...silentContext(join(dir, 'data')), maxRejectShare: 0.05 }, { publishedAt: PUBLISHED, path: file });
    expect(summary).toMatchObject({ rows: 60, rejects: 3 });
    const rejected = await duckRows<{ line: number; reason: string }>(`SELECT CAST(line AS INTEGER) AS line, reason FROM read_csv('${summary!.rejectsFile}', delim = ';', header = true) ORDER BY line`);
    expect(rejected.map((r) => r.line)).toEqual([182, 183, 184]);
    expect(rejected.map((r) => r.reason)).toEqual([
      'CD_REFNIS "2100" is not a 5-digit NIS code', 'CD_BUILDING_TYPE "R7" is not one of R1, R2, R3, R4, R5, R6', 'MS_VALUE "dix" is not a count of dwellings']);

    const other = join(dir, 'other.txt');
    await writeFile(other, 'CD_YEAR|CD_REFNIS|MS_VALUE\r\n2025|21004|10\r\n');
    await expect(ingestBuildingStock(silentContext(join(dir, 'fresh')), { publishedAt: PUBLISHED, path: other })).rejects.toThrow(/not Statbel's building stock .*missing columns CD_REFNIS_LVL, CD_STAT_TYPE, CD_BUILDING_TYPE; found CD_YEAR, CD_REFNIS, MS_VALUE/);
    expect(existsSync(join(dir, 'fresh', 'tables'))).toBe(false);
  });
});
