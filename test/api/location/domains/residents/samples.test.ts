import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { centroid } from '@turf/turf';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { REPO_ROOT } from '../../../../../ingest/jobs.ts';
import { partitionEntry, recordPartition } from '../../../../../ingest/core/manifest.ts';
import { FrResidents } from '../../../../../schemas/residents.ts';
import { buildFixtureData } from '../../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// France's residents on the committed samples, each figure checked against DuckDB reading INSEE's file layout directly.
let t: TestApp;
let dataDir: string;
const SOURCE = join(REPO_ROOT, 'datasets/fr/filosofi/BASE_TD_FILO_DISP_IRIS_2018.csv');
const COMMUNES = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_COM.csv');
const POVERTY = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_PAUVRES_COM.csv');
const DECLARED = join(REPO_ROOT, 'datasets/fr/filosofi/BASE_TD_FILO_DEC_IRIS_2018.csv');
const HOUSING = join(REPO_ROOT, 'datasets/fr/census/base-ic-logement-2019.csv');
const HOUSEHOLDS = join(REPO_ROOT, 'datasets/fr/census/base-ic-couples-familles-menages-2019.csv');

const query = duckRows;

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-residents-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const povertyOf = async (code: string) => (await query<{ tp: string }>(`SELECT TP6021 AS tp FROM read_csv('${POVERTY}', delim = ';', header = true, all_varchar = true) WHERE CODGEO = '${code}'`))[0]!.tp;

async function residentsIn(iris: string) {
  const [z] = await query<{ geometry: string }>(`SELECT geometry FROM '${dataDir}/tables/zones/country=fr/*.parquet' WHERE level = 'sublocality_level2' AND code = '${iris}'`);
  const [lng, lat] = centroid(JSON.parse(z!.geometry)).geometry.coordinates as [number, number];
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/report?lat=${lat}&lng=${lng}&include=residents&locale=en`, headers: { authorization: `Bearer ${t.key}` } });
  expect(res.statusCode, res.body).toBe(200);
  const body = ReportResponse.parse(res.json());
  return { residents: FrResidents.parse(body.data.residents), warnings: body.meta.warnings };
}

describe('residents in France on the samples', () => {
  it('serves every IRIS its own median and poverty rate, as DuckDB reads them in the published file', async () => {
    const source = await query<{ code: string; med: string; q1: string; q3: string; tp: string; note: string }>(
      `SELECT IRIS AS code, DISP_MED18 AS med, DISP_Q118 AS q1, DISP_Q318 AS q3, DISP_TP6018 AS tp, DISP_NOTE18 AS note
       FROM read_csv('${SOURCE}', delim = ';', header = true, all_varchar = true) WHERE IRIS LIKE '75103%'`);
    expect(source.length).toBe(8);
    for (const s of source) {
      const { residents } = await residentsIn(s.code);
      const med = residents.income.median_disposable_per_unit!;
      expect(med).toMatchObject({ value: Number(s.med), unit: 'EUR/year', zone: { level: 'sublocality_level2', code: s.code }, range: { low: Number(s.q1), high: Number(s.q3) }, period: { start: '2018-01-01', end: '2018-12-31' } });
      expect(med.reliability).toBe(s.note === '0' ? 'high' : 'medium');
      if (s.tp === null || s.tp === '') {
        // Withheld at the IRIS by INSEE: the finest zone publishing one serves it, here the arrondissement (commune file).
        expect(residents.income.poverty_rate).toMatchObject({ value: Number(await povertyOf('75103')), unit: '%', zone: { level: 'sublocality_level1', code: '75103' }, period: { start: '2021-01-01' } });
      } else {
        expect(residents.income.poverty_rate).toMatchObject({ value: Number(s.tp), unit: '%' });
      }
      expect(residents.status).toBe('ok');
    }
  });

  it("serves a point of a commune without IRIS figures the commune's own, from Filosofi's commune file as DuckDB reads it", async () => {
    const [s] = await query<{ med: string; n: string }>(`SELECT Q221 AS med, NBMEN21 AS n FROM read_csv('${COMMUNES}', delim = ';', header = true, all_varchar = true) WHERE CODGEO = '33138'`);
    const [z] = await query<{ geometry: string }>(`SELECT geometry FROM '${dataDir}/tables/zones/country=fr/*.parquet' WHERE level = 'locality' AND code = '33138'`);
    const [lng, lat] = centroid(JSON.parse(z!.geometry)).geometry.coordinates as [number, number];
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/report?lat=${lat}&lng=${lng}&include=residents&locale=en`, headers: { authorization: `Bearer ${t.key}` } });
    expect(res.statusCode, res.body).toBe(200);
    const residents = FrResidents.parse(ReportResponse.parse(res.json()).data.residents);
    expect(residents.income.median_disposable_per_unit).toMatchObject({ value: Number(s!.med), sample_size: Number(s!.n), zone: { level: 'locality', code: '33138' }, period: { start: '2021-01-01', end: '2021-12-31' } });
    expect(residents.income.poverty_rate).toMatchObject({ value: Number(await povertyOf('33138')), zone: { level: 'locality', code: '33138' } });
  });

  it('serves every IRIS its census figures, as DuckDB computes them on the published files', async () => {
    const source = await query<{ code: string; log: number; houses: number; owners: number; social: number; men: number }>(
      `SELECT l.IRIS AS code, round(CAST(P19_LOG AS DOUBLE)) AS log, round(100 * CAST(P19_MAISON AS DOUBLE) / CAST(P19_LOG AS DOUBLE), 1) AS houses,
         round(100 * CAST(P19_RP_PROP AS DOUBLE) / CAST(P19_RP AS DOUBLE), 1) AS owners, round(100 * CAST(P19_RP_LOCHLMV AS DOUBLE) / CAST(P19_RP AS DOUBLE), 1) AS social,
         round(CAST(C19_MEN AS DOUBLE)) AS men
       FROM read_csv('${HOUSING}', delim = ';', header = true, all_varchar = true) l
       JOIN read_csv('${HOUSEHOLDS}', delim = ';', header = true, all_varchar = true) m ON m.IRIS = l.IRIS
       WHERE l.IRIS LIKE '75103%' OR l.IRIS = '330010000'`);
    expect(source.length).toBe(9);
    for (const s of source) {
      const { residents } = await residentsIn(s.code);
      const zone = { level: 'sublocality_level2', code: s.code };
      const period = { start: '2019-01-01', end: '2019-01-01' };
      expect(residents.housing.dwellings).toMatchObject({ value: Number(s.log), unit: 'count', zone, period, reliability: 'high' });
      expect(residents.households.count).toMatchObject({ value: Number(s.men), unit: 'count', zone });
      expect(residents.housing.houses_share!.value).toBeCloseTo(Number(s.houses), 6);
      expect(residents.housing.owners_share!.value).toBeCloseTo(Number(s.owners), 6);
      expect(residents.housing.social_housing_share).toMatchObject({ unit: '%', zone });
      expect(residents.housing.social_housing_share!.value).toBeCloseTo(Number(s.social), 6);
    }
  });

  it("serves every IRIS its median declared income as its own measure, as DuckDB reads Filosofi's declared-income file, a withheld one null (suppressed)", async () => {
    const source = await query<{ code: string; med: string | null; q1: string | null; q3: string | null; note: string }>(
      `SELECT IRIS AS code, DEC_MED18 AS med, DEC_Q118 AS q1, DEC_Q318 AS q3, DEC_NOTE18 AS note
       FROM read_csv('${DECLARED}', delim = ';', header = true, all_varchar = true) WHERE IRIS LIKE '75103%' OR IRIS = '330010000'`);
    expect(source.length).toBe(9);
    expect(source.filter((s) => s.med === null).map((s) => s.code)).toEqual(['751031202']);
    for (const s of source) {
      const { residents, warnings } = await residentsIn(s.code);
      if (s.med === null) {
        // INSEE withholds it and publishes it at no wider zone: null, never zero, never the disposable median.
        expect(residents.income.median_declared_per_unit).toBeNull();
        expect(residents.missing['income.median_declared_per_unit']).toBe('suppressed');
        expect(residents.income.median_disposable_per_unit).not.toBeNull();
      } else {
        expect(residents.income.median_declared_per_unit).toMatchObject({
          value: Number(s.med), unit: 'EUR/year', zone: { level: 'sublocality_level2', code: s.code }, range: { low: Number(s.q1), high: Number(s.q3) },
          period: { start: '2018-01-01', end: '2018-12-31' }, sample_size: null, reliability: s.note === '0' ? 'high' : 'medium',
        });
        expect(residents.income.median_declared_per_unit!.value).not.toBe(residents.income.median_disposable_per_unit!.value);
      }
      // updated_on: the publication date each file was ingested with (the samples' first commit dates), never the import date.
      expect(residents.income.median_declared_per_unit?.updated_on ?? '2026-11-27').toBe('2026-11-27');
      expect(residents.income.median_disposable_per_unit!.updated_on).toBe('2026-11-24');
      expect(warnings.filter((w) => w.code === 'publication_date_unknown')).toEqual([]);
    }
  });

  it('serves the import date of a partition written before publication dates were required, and says so in meta.warnings', async () => {
    const { dataDir: legacy } = await samplesDataDir('lds-residents-legacy-');
    // The declared-income partition as the job wrote it before: no date in its rows, none in the manifest.
    const entry = (await partitionEntry(legacy, 'fr', 'zone_values', 'fr.filosofi.2018.declared'))!;
    const file = join(legacy, entry.file);
    await query(`COPY (SELECT * REPLACE (NULL::DATE AS published_on) FROM '${file}') TO '${file}.legacy' (FORMAT parquet)`);
    await rename(`${file}.legacy`, file);
    await recordPartition(legacy, 'fr', { ...entry, sources: entry.sources.map((x) => ({ ...x, published_at: null })), imported_at: '2026-11-20T09:00:00.000Z' });
    const app = await buildTestApp(legacy);
    try {
      const [z] = await query<{ geometry: string }>(`SELECT geometry FROM '${legacy}/tables/zones/country=fr/*.parquet' WHERE level = 'sublocality_level2' AND code = '751031101'`);
      const [lng, lat] = centroid(JSON.parse(z!.geometry)).geometry.coordinates as [number, number];
      const res = await app.app.inject({ method: 'GET', url: `/api/v1/fr/report?lat=${lat}&lng=${lng}&include=residents&locale=en`, headers: { authorization: `Bearer ${app.key}` } });
      const body = ReportResponse.parse(res.json());
      const residents = FrResidents.parse(body.data.residents);
      expect(residents.income.median_declared_per_unit!.updated_on).toBe('2026-11-20');
      // The other partitions of the source keep their own publication dates.
      expect(residents.income.median_disposable_per_unit!.updated_on).toBe('2026-11-24');
      expect(body.meta.warnings.filter((w) => w.code === 'publication_date_unknown')).toEqual([{
        domain: 'residents', code: 'publication_date_unknown',
        message: "income.median_declared_per_unit: updated_on is the import date, not fr.filosofi's publication date, which was not recorded when it was ingested (ingest it again with --published-on)",
      }]);
    } finally { await app.close(); }
  });

  it('answers unavailable, with the reason, where the incomes are not ingested', async () => {
    const app = await buildTestApp(await buildFixtureData());
    try {
      const res = await app.app.inject({ method: 'GET', url: '/api/v1/fr/report?lat=48.86305&lng=2.36196&include=residents', headers: { authorization: `Bearer ${app.key}` } });
      const residents = FrResidents.parse(ReportResponse.parse(res.json()).data.residents);
      expect(residents.status).toBe('unavailable');
      expect(residents.missing['income.median_disposable_per_unit']).toBe('unavailable');
    } finally { await app.close(); }
  });
});
