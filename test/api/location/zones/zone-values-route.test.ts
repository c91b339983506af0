import { join } from 'node:path';
import { duckRows } from '../../../helpers/duckdb.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZoneResponse } from '../../../../api/location/zones/routes.ts';
import { REPO_ROOT } from '../../../../ingest/jobs.ts';
import { ErrorBody } from '../../../../schemas/error.ts';
import { FrZoneMarket } from '../../../../schemas/market.ts';
import { FrResidents } from '../../../../schemas/residents.ts';
import { buildTestApp, type TestApp } from '../../../helpers/app.ts';
import { samplesDataDir } from '../../../helpers/samples.ts';

// The zone routes with include=market,residents on the samples (spec 4.4): a zone's own values only.
let t: TestApp;
let dataDir: string;
const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

const query = duckRows;

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-zone-values-route-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

describe('zone routes with the zone values of market and residents', () => {
  it('serves a commune its own 24-month medians and series, as the indicators table holds them', async () => {
    const res = await get('/api/v1/fr/zones/locality/75056?include=market');
    expect(res.statusCode, res.body).toBe(200);
    const body = ZoneResponse.parse(res.json());
    expect(body.data.residents).toBeUndefined();
    const market = FrZoneMarket.parse(body.data.market);
    const [row] = await query<{ median: number; n: number; start: string }>(`SELECT median, sample_size AS n, strftime(period_start, '%Y-%m-%d') AS start
      FROM '${dataDir}/tables/market_indicators/country=fr/*.parquet' WHERE level = 'locality' AND code = '75056' AND property_type = 'apartment' AND period = '24m'`);
    expect(market.median_price_per_m2.apartment).toMatchObject({ value: Math.round(row!.median), sample_size: row!.n, zone: { level: 'locality', code: '75056' }, period: { start: row!.start } });
    const quarters = await query<{ n: bigint }>(`SELECT count(*) AS n FROM '${dataDir}/tables/market_indicators/country=fr/*.parquet'
      WHERE level = 'locality' AND code = '75056' AND property_type = 'apartment' AND period = 'quarter' AND reliability IS NOT NULL`);
    expect(market.quarterly.apartment?.points.length ?? 0).toBe(Number(quarters[0]!.n));
  });

  it('never gives a zone a wider zone’s value: a withheld IRIS figure stays null', async () => {
    const body = ZoneResponse.parse((await get('/api/v1/fr/zones/sublocality_level2/751031202?include=residents')).json());
    const residents = FrResidents.parse(body.data.residents);
    expect(residents.income.poverty_rate).toBeNull();
    expect(residents.missing['income.poverty_rate']).toBe('suppressed');
    expect(residents.income.median_disposable_per_unit?.zone).toMatchObject({ level: 'sublocality_level2', code: '751031202' });
    // Its declared income withheld too: null, never the disposable median nor a wider zone's.
    expect(residents.income.median_declared_per_unit).toBeNull();
    expect(residents.missing['income.median_declared_per_unit']).toBe('suppressed');
  });

  it("serves an IRIS its median declared income, as DuckDB reads Filosofi's declared-income file, and a commune none (published by IRIS only)", async () => {
    const file = join(REPO_ROOT, 'datasets/fr/filosofi/BASE_TD_FILO_DEC_IRIS_2018.csv');
    const source = await query<{ code: string; med: string; q1: string; q3: string; note: string }>(
      `SELECT IRIS AS code, DEC_MED18 AS med, DEC_Q118 AS q1, DEC_Q318 AS q3, DEC_NOTE18 AS note FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) WHERE DEC_MED18 IS NOT NULL`);
    expect(source.length).toBe(14);
    for (const s of source) {
      const body = ZoneResponse.parse((await get(`/api/v1/fr/zones/sublocality_level2/${s.code}?include=residents&locale=en`)).json());
      const res = FrResidents.parse(body.data.residents);
      expect(res.income.median_declared_per_unit).toMatchObject({
        value: Number(s.med), unit: 'EUR/year', zone: { level: 'sublocality_level2', code: s.code }, range: { low: Number(s.q1), high: Number(s.q3) }, sample_size: null,
        period: { start: '2018-01-01', end: '2018-12-31' }, reliability: s.note === '0' ? 'high' : 'medium', updated_on: '2026-11-27',
      });
      expect(res.income.median_declared_per_unit!.definition).toMatch(/^Median annual declared income per consumption unit/);
    }
    const commune = FrResidents.parse(ZoneResponse.parse((await get('/api/v1/fr/zones/locality/33001?include=residents')).json()).data.residents);
    expect(commune.income.median_declared_per_unit).toBeNull();
    expect(commune.missing['income.median_declared_per_unit']).toBe('not_found');
  });

  it("serves a commune and an arrondissement their own figures of Filosofi's commune files, as DuckDB reads them", async () => {
    const file = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_COM.csv');
    const poverty = join(REPO_ROOT, 'datasets/fr/filosofi/FILO2021_DISP_PAUVRES_COM.csv');
    for (const [level, code] of [['locality', '75056'], ['sublocality_level1', '75103'], ['locality', '33001']] as const) {
      const [s] = await query<{ med: string; q1: string; q3: string; n: string; tp: string }>(
        `SELECT d.Q221 AS med, d.Q121 AS q1, d.Q321 AS q3, d.NBMEN21 AS n, p.TP6021 AS tp FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) d
         JOIN read_csv('${poverty}', delim = ';', header = true, all_varchar = true) p USING (CODGEO) WHERE CODGEO = '${code}'`);
      const res = FrResidents.parse(ZoneResponse.parse((await get(`/api/v1/fr/zones/${level}/${code}?include=residents`)).json()).data.residents);
      expect(res.income.median_disposable_per_unit).toMatchObject({
        value: Number(s!.med), unit: 'EUR/year', zone: { level, code }, range: { low: Number(s!.q1), high: Number(s!.q3) }, sample_size: Number(s!.n),
        period: { start: '2021-01-01', end: '2021-12-31' }, reliability: 'high',
      });
      expect(res.income.poverty_rate).toMatchObject({ value: Number(s!.tp), unit: '%', zone: { level, code } });
      // The census is published by IRIS only: a commune's route serves none of its IRIS' figures.
      expect(res.housing.dwellings).toBeNull();
    }
  });

  it('answers a bad include with invalid_parameter, and omits a domain outside the key with a warning', async () => {
    const bad = await get('/api/v1/fr/zones/locality/75056?include=market,weather');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'include' } });
    const { key } = await t.keys.create({ countries: ['fr'], domains: ['location', 'market'], sandbox: false, label: 'market only' });
    const body = ZoneResponse.parse((await get('/api/v1/fr/zones/locality/75056', key)).json());
    expect(body.data.market).toBeDefined();
    expect(body.data.residents).toBeUndefined();
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ domain: 'residents', code: 'domain_not_allowed' }));
  });

  it("serves a commune's regulation on its own zone route only: the arrondissement, not on the lists, gets none", async () => {
    const paris = FrZoneMarket.parse(ZoneResponse.parse((await get('/api/v1/fr/zones/locality/75056?include=market')).json()).data.market);
    expect(paris.regulation).toMatchObject({ abc_zone: 'Abis', tense_zone: true, rent_control: { zone: { code: '75056' } } });
    const third = FrZoneMarket.parse(ZoneResponse.parse((await get('/api/v1/fr/zones/sublocality_level1/75103?include=market')).json()).data.market);
    expect(third.regulation).toBeNull();
    expect(third.missing.regulation).toBe('not_found');
    const iris = FrZoneMarket.parse(ZoneResponse.parse((await get('/api/v1/fr/zones/sublocality_level2/751031202?include=market')).json()).data.market);
    expect(iris.missing.regulation).toBe('not_applicable');
  });

  it('answers an unknown zone 404 zone_not_found, whatever is included', async () => {
    const res = await get('/api/v1/fr/zones/locality/57463?include=market');
    expect(res.statusCode).toBe(404);
    expect(ErrorBody.parse(res.json()).error.code).toBe('zone_not_found');
  });
});
