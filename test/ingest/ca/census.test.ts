import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCaCensus } from '../../../ingest/ca/census.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/ca/census/98-401-X2021013_English_CSV_data.csv');

describe('ca.census', () => {
  it("writes the average total income of Quebec's FSAs as DuckDB reads the profile; Ontario's left, a withheld value suppressed", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-census-')), 'data');
    const [summary] = await ingestCaCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE });
    expect(summary).toMatchObject({ partition: 'ca.census.2021', rejects: 0 });
    const source = await duckRows<{ fsa: string; value: number | null; symbol: string | null; flag: string }>(
      `SELECT ALT_GEO_CODE AS fsa, TRY_CAST(C1_COUNT_TOTAL AS DOUBLE) AS value, SYMBOL AS symbol, DATA_QUALITY_FLAG AS flag
       FROM read_csv('${SAMPLE}', delim = ',', header = true, all_varchar = true, encoding = 'latin-1')
       WHERE GEO_LEVEL = 'Forward sortation area' AND DGUID LIKE '2021A001124%' AND trim(CHARACTERISTIC_NAME) = 'Average total income in 2020 among recipients ($)' ORDER BY fsa`);
    expect(source.map((s) => s.fsa)).toEqual(['H2T', 'H2W', 'H3T', 'H4A', 'H7V', 'J0P']);
    const out = await duckRows<{ fsa: string; value: number | null; suppressed: boolean; reliability: string; level: string }>(
      `SELECT code AS fsa, value, suppressed, reliability, level FROM '${tableGlob(dataDir, 'ca', 'zone_values')}' ORDER BY code`);
    expect(out.map((r) => [r.fsa, r.value])).toEqual(source.map((s) => [s.fsa, s.symbol === 'x' ? null : s.value]));
    expect(out.find((r) => r.fsa === 'H3T')).toMatchObject({ suppressed: true, value: null });
    expect(out.find((r) => r.fsa === 'J0P')!.reliability).toBe('medium');
    expect(out.every((r) => r.level === 'postal_code_prefix')).toBe(true);
  });

  it('refuses a file of another layout, naming the missing columns, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-census-bad-'));
    const file = join(dir, 'profile.csv');
    await writeFile(file, '"CENSUS_YEAR","GEO_NAME","CHARACTERISTIC_NAME","C1_COUNT_TOTAL"\r\n2021,"H2T","Population, 2021",30000\r\n');
    await expect(ingestCaCensus(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns DGUID, ALT_GEO_CODE, GEO_LEVEL, DATA_QUALITY_FLAG, SYMBOL/);
    expect(existsSync(tableDir(join(dir, 'data'), 'ca', 'zone_values'))).toBe(false);
  });
});
