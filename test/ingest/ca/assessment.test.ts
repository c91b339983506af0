import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCaAssessment } from '../../../ingest/ca/assessment.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv');

describe('ca.assessment', () => {
  it("writes each municipality's comparative factor as DuckDB reads the file, a body without one left", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-assessment-')), 'data');
    const [summary] = await ingestCaAssessment(silentContext(dataDir), { path: SAMPLE, year: 2026 });
    expect(summary).toMatchObject({ partition: 'ca.assessment.2026', rejects: 0 });
    const source = await duckRows<{ code: string; factor: number }>(
      `SELECT cod_geo AS code, CAST(CSALX02163 AS DOUBLE) AS factor FROM read_csv('${SAMPLE}', header = true, all_varchar = true) WHERE CSALX02163 IS NOT NULL AND CSALX02163 <> '' ORDER BY code`);
    const out = await duckRows<{ code: string; factor: number; unit: string; level: string; start: string }>(
      `SELECT code, value AS factor, unit, level, strftime(period_start, '%Y-%m-%d') AS start FROM '${tableGlob(dataDir, 'ca', 'zone_values')}' ORDER BY code`);
    expect(out.map((r) => [r.code, r.factor])).toEqual(source.map((s) => [s.code, s.factor]));
    expect(source).toHaveLength(3);
    expect(new Set(out.map((r) => `${r.level} ${r.unit} ${r.start}`))).toEqual(new Set(['locality ratio 2026-01-01']));
  });

  it('refuses a bad factor with its line and a file of another layout naming the missing columns, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-assessment-bad-'));
    const file = join(dir, 'rfu.csv');
    await writeFile(file, 'cod_geo,nom_organisme,CSALX02163\r\n66023,Montréal,-1\r\n6602,X,1.1\r\n65005,Laval,1.04\r\n');
    const [summary] = await ingestCaAssessment({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file, year: 2026 });
    expect(summary).toMatchObject({ rows: 1, rejects: 2 });
    await writeFile(file, 'code,facteur\r\n66023,1.08\r\n');
    await expect(ingestCaAssessment(silentContext(join(dir, 'fresh')), { path: file, year: 2026 })).rejects.toThrow(/missing columns cod_geo, CSALX02163/);
    expect(existsSync(tableDir(join(dir, 'fresh'), 'ca', 'zone_values'))).toBe(false);
  });

  it("writes each municipality's residential tax rate of MAMH's données prévisionnelles (BOM) as DuckDB reads the file, in its own partition", async () => {
    const file = join(REPO_ROOT, 'datasets/ca/assessment/previsionnelles-2026.csv');
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-tax-rates-')), 'data');
    await ingestCaAssessment(silentContext(dataDir), { path: SAMPLE, year: 2026 });
    const [summary] = await ingestCaAssessment(silentContext(dataDir), { path: file, year: 2026, publishedOn: '2026-01-20' });
    expect(summary).toMatchObject({ partition: 'ca.tax-rates.2026', rejects: 0 });
    const source = await duckRows<{ code: string; rate: number }>(
      `SELECT cod_geo AS code, CAST(CPALB01726 AS DOUBLE) AS rate FROM read_csv('${file}', header = true, all_varchar = true) WHERE CPALB01726 IS NOT NULL AND CPALB01726 <> '' ORDER BY code`);
    const out = await duckRows<{ code: string; rate: number; unit: string; published: string }>(
      `SELECT code, value AS rate, unit, strftime(published_on, '%Y-%m-%d') AS published FROM '${tableGlob(dataDir, 'ca', 'zone_values')}' WHERE indicator = 'tax.residential_rate' ORDER BY code`);
    expect(source).toHaveLength(3);
    expect(out).toEqual(source.map((s) => ({ ...s, unit: 'CAD/100CAD', published: '2026-01-20' })));
    // The factors of the RFU stay: another partition.
    expect((await duckRows<{ n: bigint }>(`SELECT count(*) AS n FROM '${tableGlob(dataDir, 'ca', 'zone_values')}' WHERE indicator = 'assessment.market_factor'`))[0]!.n).toBe(3n);
  });
});
