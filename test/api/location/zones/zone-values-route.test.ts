import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckRows } from '../../../helpers/duckdb.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZoneResponse } from '../../../../api/location/zones/routes.ts';
import { runSamples } from '../../../../ingest/jobs.ts';
import { ErrorBody } from '../../../../schemas/error.ts';
import { FrZoneMarket } from '../../../../schemas/market.ts';
import { FrResidents } from '../../../../schemas/residents.ts';
import { silentContext } from '../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../helpers/app.ts';

// The zone routes with include=market,residents on the samples (spec 4.4): a zone's own values only.
let t: TestApp;
let dataDir: string;
const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

const query = duckRows;

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-zone-values-route-')), 'data');
  await runSamples(silentContext(dataDir));
  t = await buildTestApp(dataDir);
}, 300_000); // every sample job runs first: minutes on a loaded machine
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
    // Paris itself: INSEE's IRIS file publishes nothing for the commune, so nothing is served for it.
    const paris = FrResidents.parse(ZoneResponse.parse((await get('/api/v1/fr/zones/locality/75056?include=residents')).json()).data.residents);
    expect(paris.income.median_disposable_per_unit).toBeNull();
    expect(paris.missing['income.median_disposable_per_unit']).toBe('not_found');
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
