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

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv');

describe('ca.assessment', () => {
  it("writes each municipality's comparative factor as DuckDB reads the file, a body without one left", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-assessment-')), 'data');
    const [summary] = await ingestCaAssessment(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE, year: 2026 });
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
    const [summary] = await ingestCaAssessment({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file, year: 2026 });
    expect(summary).toMatchObject({ rows: 1, rejects: 2 });
    await writeFile(file, 'code,facteur\r\n66023,1.08\r\n');
    await expect(ingestCaAssessment(silentContext(join(dir, 'fresh')), { publishedAt: PUBLISHED, path: file, year: 2026 })).rejects.toThrow(/missing columns cod_geo, CSALX02163/);
    expect(existsSync(tableDir(join(dir, 'fresh'), 'ca', 'zone_values'))).toBe(false);
  });

  it("writes each municipality's residential tax rate of MAMH's données prévisionnelles (BOM) as DuckDB reads the file, in its own partition", async () => {
    const file = join(REPO_ROOT, 'datasets/ca/assessment/previsionnelles-2026.csv');
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-tax-rates-')), 'data');
    await ingestCaAssessment(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE, year: 2026 });
    const [summary] = await ingestCaAssessment(silentContext(dataDir), { path: file, year: 2026, publishedAt: '2026-01-20' });
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

  const PROFILE = join(REPO_ROOT, 'datasets/ca/assessment/PF-2024-2025.csv');
  const PROFILE_HEADER = 'an_edition,an_donnee,cod_geo,nom_organisme,desi_org,cod_mrc,nom_mrc,cod_cm,nom_cm,cod_ra,nom_ra,type_org,population,cod_cp,desc_cp,FIALX01959,FIALX01960,FIALX01961,FIALX01962,FIALX01963,FIALX01977,FIALX02005,FIALX02006,FIALX02007,FIALX02008,FIALX02009,FIALX02010,FIALX02011,FIALX02097';
  const profileRow = (year: string, code: string, name: string, type: string, single: string, perDwelling: string) =>
    `2024,${year},${code},${name},V,,,,,06,Montréal,${type},1000,1,0 à 1 999,1000,,,,,,80,20,0,,${single},${perDwelling},500,100`;

  it("writes each municipality's standardized average values of MAMH's profil financier as DuckDB reads the file, the year from an_donnee", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-profile-')), 'data');
    const summaries = await ingestCaAssessment(silentContext(dataDir), { publishedAt: PUBLISHED, path: PROFILE });
    expect(summaries.map((s) => [s.partition, s.rejects])).toEqual([['ca.financial-profile.2025', 0]]);
    const source = await duckRows<{ code: string; indicator: string; value: number; year: string }>(`
      SELECT cod_geo AS code, 'assessment.average_single_family' AS indicator, CAST(FIALX02009 AS DOUBLE) AS value, an_donnee AS year
        FROM read_csv('${PROFILE}', header = true, all_varchar = true) WHERE type_org = 'Municipalité locale' AND coalesce(FIALX02009, '') <> ''
      UNION ALL
      SELECT cod_geo, 'assessment.average_per_dwelling', CAST(FIALX02010 AS DOUBLE), an_donnee
        FROM read_csv('${PROFILE}', header = true, all_varchar = true) WHERE type_org = 'Municipalité locale' AND coalesce(FIALX02010, '') <> ''
      ORDER BY code, indicator`);
    const out = await duckRows<{ code: string; indicator: string; value: number; year: string; unit: string; level: string; end: string; reliability: string; source: string }>(
      `SELECT code, indicator, value, strftime(period_start, '%Y') AS year, unit, level, strftime(period_end, '%Y-%m-%d') AS end, reliability, source
         FROM '${tableGlob(dataDir, 'ca', 'zone_values')}' ORDER BY code, indicator`);
    expect(source).toHaveLength(6);
    expect(out.map((r) => [r.code, r.indicator, r.value, r.year])).toEqual(source.map((s) => [s.code, s.indicator, s.value, s.year]));
    expect(new Set(out.map((r) => `${r.level} ${r.unit} ${r.end} ${r.reliability} ${r.source}`))).toEqual(new Set(['locality CAD 2025-12-31 high ca.financial-profile']));
    // Vaudreuil-Dorion's cells are empty: nothing of it.
    expect(out.some((r) => r.code === '71083')).toBe(false);
  });

  it("reads a profile with a BOM, leaves other bodies' rows and empty cells, refuses a bad value or year, one partition per an_donnee", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-profile-bad-'));
    const file = join(dir, 'PF.csv');
    await writeFile(file, `\ufeff${PROFILE_HEADER}\r\n${[
      profileRow('2025', '66023', 'Montréal', 'Municipalité locale', '948200', '521730'),
      profileRow('2025', '66023', 'Agglomération de Montréal', 'Agglomération', '1', '1'),
      profileRow('2025', '66032', 'Westmount', 'Municipalité locale', '', '1498600'),
      profileRow('2024', '65005', 'Laval', 'Municipalité locale', '598000', '431000'),
      profileRow('2025', '71083', 'Vaudreuil-Dorion', 'Municipalité locale', 'n.d.', '400000'),
      profileRow('25', '58227', 'Longueuil', 'Municipalité locale', '500000', '400000'),
    ].join('\r\n')}\r\n`);
    const summaries = await ingestCaAssessment({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file });
    expect(summaries.map((s) => [s.partition, s.rows])).toEqual([['ca.financial-profile.2024', 2], ['ca.financial-profile.2025', 3]]);
    expect(summaries[0]!.rejects).toBe(2);
    const out = await duckRows<{ code: string; indicator: string; value: number }>(
      `SELECT code, indicator, value FROM '${tableGlob(join(dir, 'data'), 'ca', 'zone_values')}' WHERE strftime(period_start, '%Y') = '2025' ORDER BY code, indicator`);
    expect(out.map((r) => [r.code, r.indicator, r.value])).toEqual([
      ['66023', 'assessment.average_per_dwelling', 521730], ['66023', 'assessment.average_single_family', 948200],
      ['66032', 'assessment.average_per_dwelling', 1498600],
    ]);
    // --year keeps that year's rows only, refusing the others by line.
    const only = await ingestCaAssessment({ ...silentContext(join(dir, 'data2024')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file, year: 2024 });
    expect(only.map((s) => [s.partition, s.rows])).toEqual([['ca.financial-profile.2024', 2]]);
    expect(only[0]!.rejects).toBe(4);
    // The RFU without --year is refused before any row.
    await expect(ingestCaAssessment(silentContext(join(dir, 'rfu')), { publishedAt: PUBLISHED, path: SAMPLE })).rejects.toThrow(/does not say its fiscal year; give it with --year/);
  });
});
