import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { CatalogFieldsResponse } from '../../../api/location/catalog.ts';
import { ReportResponse } from '../../../api/location/report.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => { t = await buildTestApp(await buildFixtureData()); });
afterAll(async () => { await t.close(); });

describe('GET /api/v1/fr/report', () => {
  it('serves the location and says honestly which domains are not computed yet', async () => {
    const res = await get('/api/v1/fr/report?lat=48.86305&lng=2.36196');
    expect(res.statusCode).toBe(200);
    const body = ReportResponse.parse(res.json());
    expect(body.data.location.zones.locality?.code).toBe('75056');
    // Building and property are computed in France (issue 17): this fixture has no buildings.
    expect(body.data.building).toEqual({ status: 'unavailable', missing: { building: 'unavailable' } });
    expect(body.data.property).toEqual({ status: 'unavailable', missing: { property: 'unavailable' } });
    for (const d of <const>['building', 'property', 'urbanism']) {
      if (d === 'urbanism') expect(body.data[d]).toEqual({ status: 'unavailable', missing: {} });
      expect(body.meta.warnings.some((w) => w.domain === d && w.code === 'data_unavailable')).toBe(true);
    }
    // Places and access have their shape: no places table in this fixture, every part unavailable and named.
    expect(body.data.places).toMatchObject({ status: 'unavailable', counts: { transport: null }, items: [], missing: { items: 'unavailable', 'counts.transport': 'unavailable' } });
    expect(body.data.access).toMatchObject({ status: 'unavailable', nearest: { station: null }, stations: [], missing: { 'nearest.station': 'unavailable', stations: 'unavailable' } });
    for (const d of <const>['places', 'access']) expect(body.meta.warnings.some((w) => w.domain === d && w.code === 'data_unavailable')).toBe(true);
    // Risks has its shape: radon and seismic not ingested in this fixture, so nothing assessed and each with its reason.
    expect(body.data.risks).toMatchObject({ status: 'unavailable', hazards: [], missing: { 'hazards.radon': 'unavailable', 'hazards.seismic': 'unavailable' } });
    expect(body.meta.warnings.some((w) => w.domain === 'risks' && w.code === 'data_unavailable')).toBe(true);
    // Residents has its shape: incomes not ingested in this fixture, each field null with its reason.
    expect(body.data.residents).toMatchObject({ status: 'unavailable', income: { median_disposable_per_unit: null }, missing: { 'income.median_disposable_per_unit': 'unavailable' } });
    // The market domain has its shape: every field null, each with its reason (no sales ingested in this fixture).
    expect(body.data.market).toMatchObject({ status: 'unavailable', sales_nearby: null, price_trend: null, missing: { sales_nearby: 'unavailable', price_trend: 'unavailable' } });
    expect(body.meta.warnings.some((w) => w.domain === 'market' && w.code === 'data_unavailable')).toBe(true);
  });

  it('computes only the included domains, location always', async () => {
    const body = ReportResponse.parse((await get('/api/v1/fr/report?lat=48.86&lng=2.36&include=market.sale_price_median,risks')).json());
    expect(Object.keys(body.data).sort()).toEqual(['location', 'market', 'risks']);
  });

  it('refuses an unknown domain with 400 invalid_parameter naming include', async () => {
    const res = await get('/api/v1/fr/report?lat=48.86&lng=2.36&include=weather');
    expect(res.statusCode).toBe(400);
    const e = ErrorBody.parse(res.json()).error;
    expect(e.code).toBe('invalid_parameter');
    expect(e.details).toEqual({ parameter: 'include', value: 'weather' });
  });

  it('omits a domain outside the key and reports it in meta.warnings', async () => {
    const { key } = await t.keys.create({ countries: ['fr'], domains: ['location', 'market'], sandbox: false });
    const body = ReportResponse.parse((await get('/api/v1/fr/report?lat=48.86&lng=2.36&include=market,risks', key)).json());
    expect(Object.keys(body.data).sort()).toEqual(['location', 'market']);
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ domain: 'risks', code: 'domain_not_allowed' }));
  });

  it('checks radius and property_type', async () => {
    for (const [q, parameter] of [['radius=50', 'radius'], ['radius=abc', 'radius'], ['property_type=castle', 'property_type'], ['property_id=123', 'property_id']]) {
      const res = await get(`/api/v1/fr/report?lat=48.86&lng=2.36&${q}`);
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json()).error.details.parameter).toBe(parameter);
    }
  });
});

describe('GET /api/v1/fr/catalog/fields', () => {
  it('describes each field with its coverage from the manifest, without consuming a unit', async () => {
    const res = await get('/api/v1/fr/catalog/fields?locale=en');
    expect(res.statusCode).toBe(200);
    const body = CatalogFieldsResponse.parse(res.json());
    const iris = body.data.fields.find((f) => f.id === 'location.zones.sublocality_level2');
    expect(iris?.label).toBe('IRIS');
    expect(iris?.coverage.status).toBe('available');
    const address = body.data.fields.find((f) => f.id === 'location.address');
    expect(address?.coverage.status).toBe('available');
    expect(address?.update_frequency).toBe('weekly');
    expect(res.headers['x-quota-remaining']).toBeDefined();
  });
});
