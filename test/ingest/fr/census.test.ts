import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CENSUS_RELIABLE_COUNT, censusLayout, ingestCensus } from '../../../ingest/fr/census.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const HOUSING = join(REPO_ROOT, 'datasets/fr/census/base-ic-logement-2019.csv');
const HOUSEHOLDS = join(REPO_ROOT, 'datasets/fr/census/base-ic-couples-familles-menages-2019.csv');

type Written = { code: string; indicator: string; value: number | null; unit: string; suppressed: boolean; reliability: string | null; period_start: string; period_end: string };
const written = (dataDir: string) => duckRows<Written>(
  `SELECT code, indicator, value, unit, suppressed, reliability, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end
   FROM '${tableGlob(dataDir, 'fr', 'zone_values')}' ORDER BY code, indicator`);

const newDataDir = async () => join(await mkdtemp(join(tmpdir(), 'lds-census-')), 'data');

describe('fr.census', () => {
  it('writes dwellings and the three shares of every IRIS as DuckDB computes them on the published housing file', async () => {
    const dataDir = await newDataDir();
    const [summary] = await ingestCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: HOUSING });
    expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.census.2019.housing', rejects: 0 });
    // The reference: DuckDB reading INSEE's layout directly (every column as text, decimals cast).
    const source = await duckRows<{ code: string; dwellings: number; houses: number; owners: number; social: number; log: number; rp: number }>(
      `SELECT IRIS AS code, round(CAST(P19_LOG AS DOUBLE))::DOUBLE AS dwellings,
         round(100 * CAST(P19_MAISON AS DOUBLE) / CAST(P19_LOG AS DOUBLE), 1) AS houses,
         round(100 * CAST(P19_RP_PROP AS DOUBLE) / CAST(P19_RP AS DOUBLE), 1) AS owners,
         round(100 * CAST(P19_RP_LOCHLMV AS DOUBLE) / CAST(P19_RP AS DOUBLE), 1) AS social,
         CAST(P19_LOG AS DOUBLE) AS log, CAST(P19_RP AS DOUBLE) AS rp
       FROM read_csv('${HOUSING}', delim = ';', header = true, all_varchar = true) ORDER BY code`);
    expect(source.length).toBe(15);
    const out = await written(dataDir);
    expect(out).toHaveLength(source.length * 4);
    for (const s of source) {
      const of = (i: string) => out.find((r) => r.code === s.code && r.indicator === i)!;
      expect(of('housing.dwellings')).toMatchObject({ value: s.dwellings, unit: 'count', period_start: '2019-01-01', period_end: '2019-01-01', suppressed: false });
      expect(of('housing.houses_share').value).toBeCloseTo(s.houses, 6);
      expect(of('housing.owners_share').value).toBeCloseTo(s.owners, 6);
      expect(of('housing.social_housing_share')).toMatchObject({ unit: '%', reliability: s.rp >= CENSUS_RELIABLE_COUNT ? 'high' : 'low' });
      expect(of('housing.social_housing_share').value).toBeCloseTo(s.social, 6);
    }
    // Abzac, a commune not divided into IRIS, under its commune code + 0000.
    expect(out.some((r) => r.code === '330010000')).toBe(true);
  });

  it('writes households from the couples-families-households file, its own partition', async () => {
    const dataDir = await newDataDir();
    await ingestCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: HOUSING });
    const [summary] = await ingestCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: HOUSEHOLDS });
    expect(summary).toMatchObject({ partition: 'fr.census.2019.households', rejects: 0 });
    const source = await duckRows<{ code: string; men: number }>(
      `SELECT IRIS AS code, round(CAST(C19_MEN AS DOUBLE))::DOUBLE AS men FROM read_csv('${HOUSEHOLDS}', delim = ';', header = true, all_varchar = true)`);
    const out = (await written(dataDir)).filter((r) => r.indicator === 'households.count');
    expect(out).toHaveLength(source.length);
    for (const s of source) expect(out.find((r) => r.code === s.code)).toMatchObject({ value: s.men, unit: 'count' });
    expect((await readdir(tableDir(dataDir, 'fr', 'zone_values'))).sort()).toEqual(['fr.census.2019.households.parquet', 'fr.census.2019.housing.parquet']);
  });

  it('takes the edition and the kind from the header, not the file name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-census-renamed-'));
    const renamed = join(dir, 'logements.csv');
    await copyFile(HOUSING, renamed);
    const dataDir = join(dir, 'data');
    await ingestCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: HOUSING });
    await ingestCensus(silentContext(dataDir), { publishedAt: PUBLISHED, path: renamed });
    expect(await readdir(tableDir(dataDir, 'fr', 'zone_values'))).toEqual(['fr.census.2019.housing.parquet']);
    expect(censusLayout(['IRIS', 'COM', 'TYP_IRIS', 'C21_MEN'])).toMatchObject({ kind: 'households', yy: '21' });
  });

  it('keeps an empty cell as withheld, writes no share over no dwelling, refuses a bad count or a code outside its commune with the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-census-rows-'));
    const file = join(dir, 'base-ic-logement-2019.csv');
    const head = 'IRIS;COM;TYP_IRIS;LAB_IRIS;P19_LOG;P19_RP;P19_MAISON;P19_RP_PROP;P19_RP_LOCHLMV\r\n';
    await writeFile(file, head
      + '751031101;75103;H;1;1500.5;1200.25;10;400;\r\n' // social housing withheld
      + '751031102;75103;A;3;0;0;0;0;0\r\n' // an activity IRIS without dwellings: a count of 0, no share
      + '751031201;75103;H;1;12x;1200;10;400;100\r\n'
      + '751041301;75103;H;1;1500;1200;10;400;100\r\n'
      + '751031202;75103;H;1;150,5;120;10;40;10\r\n');
    const dataDir = join(dir, 'data');
    const [summary] = await ingestCensus({ ...silentContext(dataDir), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file });
    expect(summary!.rejects).toBe(2);
    const out = await written(dataDir);
    expect(out.find((r) => r.code === '751031101' && r.indicator === 'housing.social_housing_share')).toMatchObject({ value: null, suppressed: true });
    expect(out.filter((r) => r.code === '751031102').map((r) => [r.indicator, r.value])).toEqual([['housing.dwellings', 0]]);
    // A decimal comma is read; a count under 200 is low.
    expect(out.find((r) => r.code === '751031202' && r.indicator === 'housing.dwellings')).toMatchObject({ value: 151, reliability: 'low' });
  });

  it('refuses a file of another layout, naming what is missing, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-census-bad-'));
    const file = join(dir, 'base-ic-logement-2019.csv');
    await writeFile(file, 'IRIS;COM;TYP_IRIS;P19_LOG;P19_RP\r\n751031101;75103;H;10;8\r\n');
    await expect(ingestCensus(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/P19_MAISON, P19_RP_PROP, P19_RP_LOCHLMV/);
    await writeFile(file, 'CODGEO;P19_POP\r\n75056;2000000\r\n');
    await expect(ingestCensus(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns IRIS, COM, TYP_IRIS, P<yy>_LOG/);
    expect(existsSync(tableDir(join(dir, 'data'), 'fr', 'zone_values'))).toBe(false);
  });
});
