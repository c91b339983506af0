import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobById } from '../../../ingest/jobs.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { CatalogDomainsResponse, CatalogFieldsResponse } from '../../../api/location/catalog.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { ReportResponse } from '../../../api/location/report.ts';
import { ZoneChildrenResponse, ZoneResponse } from '../../../api/location/zones/routes.ts';
import { ErrorBody } from '../../../schemas/error.ts';
import { BeResidents } from '../../../schemas/residents.ts';
import { BeMarket } from '../../../schemas/market.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// The Belgian samples (Statbel sectors in Lambert 2008 with REFNIS, BeST per region) through their jobs, served.
let t: TestApp;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
const locate = async (query: string) => {
  const res = await get(`/api/v1/be/location?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return LocationResponse.parse(res.json()).data.location;
};

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-')), 'data');
  const ctx = silentContext(dataDir);
  for (const id of ['be.zones', 'be.best', 'be.statbel-income', 'be.statbel-prices', 'be.census']) {
    const job = jobById(id)!;
    for (const argv of job.samples) for (const p of await job.run(ctx, argv)) expect(p.rejects).toBe(0);
  }
  // A German-speaking commune (Eupen, Walloon Region) in BeST's layout: German names first, French beside.
  const [x, y] = fromWgs84('EPSG:31370')([6.03640, 50.62830]);
  const eupen = join(dataDir, '..', 'openaddress-bewal-eupen.csv');
  const header = (await readFile(join(import.meta.dirname, '../../../datasets/be/best/openaddress-bewal.csv'), 'utf8')).split('\n')[0];
  await writeFile(eupen, `${header}\n${[x.toFixed(2), y.toFixed(2), '50.6283000', '6.0364000', 1305521, '', '', '14', '63023', 'Eupen', 'Eupen', '',
    '4700', 'Eupen', '', 'Eupen', 7801233, 'Rathausplatz', "Place de l'Hôtel de Ville", '', 'BE-WAL', 'current'].map((v) => (/[",']/.test(String(v)) ? `"${v}"` : v)).join(',')}\n`);
  for (const p of await jobById('be.best')!.run(ctx, ['--input', eupen])) expect(p.rejects).toBe(0);
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t?.close(); });

describe('Belgian location from the samples', () => {
  it('gives every level of spec 2.4 at the Grand-Place, with a null province in Brussels-Capital', async () => {
    const loc = await locate('lat=50.8466&lng=4.3524');
    const codes = Object.fromEntries(Object.entries(loc.zones).map(([l, z]) => [l, z?.code ?? null]));
    expect(codes).toEqual({
      country: 'BE', administrative_area_level1: '04000', administrative_area_level2: null, administrative_area_level3: '21000',
      locality: '21004', sublocality_level1: '21004A', sublocality_level2: '21004A01-', rental_survey_area: null, postal_code_prefix: null,
    });
    expect(loc.zones.locality?.name).toBe('Bruxelles / Brussel');
    expect(loc.missing['zones.administrative_area_level2']).toBe('not_applicable');
    expect(loc.address?.label).toBe('Grand-Place 1, 1000 Bruxelles');
  });

  it.each([
    // Brussels (Haren) / Flanders (Machelen), on both sides of the border at 50.905.
    [50.9035, 4.42, '04000', null, '21004'],
    [50.9065, 4.42, '02000', '20001', '23047'],
    // Flanders (Halle) / Wallonia (Tubize), on both sides of the border at 50.70.
    [50.7015, 4.23, '02000', '20001', '23027'],
    [50.6985, 4.23, '03000', '20002', '25105'],
  ])('places %f, %f in region %s, province %s, commune %s', async (lat, lng, region, province, commune) => {
    const loc = await locate(`lat=${lat}&lng=${lng}`);
    expect(loc.zones.administrative_area_level1?.code).toBe(region);
    expect(loc.zones.administrative_area_level2?.code ?? null).toBe(province);
    expect(loc.zones.locality?.code).toBe(commune);
  });

  it.each([
    ['Grand-Place 1, 1000 Bruxelles'], ['Grote Markt 1, 1000 Brussel'], ['grote markt 1 brussel'],
  ])('finds the same Brussels address in French or Dutch: %s', async (q) => {
    const loc = await locate(`address=${encodeURIComponent(q)}`);
    expect(loc.precision).toBe('address');
    expect(loc.latitude).toBeCloseTo(50.84655, 6);
    expect(loc.address).toMatchObject({ street_number: '1', street_name: 'Grand-Place', zipcode: '1000', locality: 'Bruxelles' });
    expect(loc.zones.locality?.code).toBe('21004');
  });

  it('finds Ixelles addresses by their Dutch names and Haren by its postal name', async () => {
    const flagey = await locate(`address=${encodeURIComponent('Eugène Flageyplein 18, 1050 Elsene')}`);
    expect(flagey.precision).toBe('address');
    expect(flagey.zones.locality?.code).toBe('21009');
    const haren = await locate(`address=${encodeURIComponent('Verdunstraat 500, 1130 Haren')}`);
    expect(haren.address?.label).toBe('Rue de Verdun 500, 1130 Haren');
    expect(haren.zones.sublocality_level1?.code).toBe('21004R');
  });

  it.each([['Rathausplatz 14, 4700 Eupen'], ["Place de l'Hôtel de Ville 14, 4700 Eupen"]])('finds an Eupen address by its German or French name: %s', async (q) => {
    const loc = await locate(`address=${encodeURIComponent(q)}`);
    expect(loc.precision).toBe('address');
    expect(loc.latitude).toBeCloseTo(50.6283, 4);
    expect(loc.address).toMatchObject({ street_number: '14', zipcode: '4700' });
  });

  it('tells the two Grand-Place apart by their commune (Bruxelles, Tubize)', async () => {
    const tubize = await locate(`address=${encodeURIComponent('Grand-Place 1, 1480 Tubize')}`);
    expect(tubize.zones.locality?.code).toBe('25105');
    expect(tubize.zones.administrative_area_level1?.name).toBe('Région wallonne');
  });
});

describe('Belgian report', () => {
  it("serves a municipality's median sale prices of the latest year on its zone route, as DuckDB reads Statbel's file; building is not a Belgian domain", async () => {
    const res = await get('/api/v1/be/report?lat=50.8275&lng=4.3723&include=location,market,building');
    expect(res.statusCode).toBe(200);
    const body = ReportResponse.parse(res.json());
    expect(body.data.location.zones.locality?.code).toBe('21009');
    const market = BeMarket.parse(ZoneResponse.parse((await get('/api/v1/be/zones/locality/21009?include=market')).json()).data.market);
    const file = join(import.meta.dirname, '../../../datasets/be/statbel-prices/TF_IMMO_MUNTY.txt');
    const source = await duckRows<{ type: string; n: number; p25: number; p50: number; p75: number }>(
      `SELECT CD_TYPE_NL AS type, CAST(MS_TOTAL_TRANSACTIONS AS INTEGER) AS n, CAST(MS_P_25 AS DOUBLE) AS p25, CAST(MS_P_50_median AS DOUBLE) AS p50, CAST(MS_P_75 AS DOUBLE) AS p75
       FROM read_csv('${file}', delim = '|', header = true, all_varchar = true)
       WHERE CD_REFNIS = '21009' AND CD_PERIOD = 'Y' AND CD_YEAR = '2024' AND CD_niveau_refnis = '5' AND (CD_TYPE_NL = 'Appartementen' OR CD_TYPE_NL LIKE 'Alle huizen%')`);
    expect(source).toHaveLength(2);
    for (const s of source) {
      const m = s.type === 'Appartementen' ? market.sale_price_median!.apartment : market.sale_price_median!.house;
      expect(m).toMatchObject({ value: s.p50, unit: 'EUR', sample_size: s.n, range: { low: s.p25, high: s.p75 }, period: { start: '2024-01-01', end: '2024-12-31' }, zone: { level: 'locality', code: '21009' } });
    }
    // Brussels: no permits served anywhere but Flanders.
    expect(BeMarket.parse(body.data['market']).missing.permits_nearby).toBe('not_covered');
    expect(body.data['building']).toEqual({ status: 'not_covered', missing: {} });
    expect(body.meta.warnings.map((w) => `${w.domain}:${w.code}`)).toEqual(expect.arrayContaining(['building:not_covered']));
  });

  it("serves at a point its sector's median where Statbel publishes a reliable one, else its municipality's, as DuckDB reads TF_IMMO_SECTOR; the zone routes the same figures", async () => {
    const res = await get('/api/v1/be/market?lat=50.8466&lng=4.3524');
    expect(res.statusCode, res.body).toBe(200);
    const market = BeMarket.parse(res.json().data.market);
    const file = join(import.meta.dirname, '../../../datasets/be/statbel-prices/TF_IMMO_SECTOR.txt');
    const sector = await duckRows<{ type: string; n: number; p50: number | null }>(
      `SELECT CD_TYPE AS type, CAST(MS_TRANSACTIONS AS INTEGER) AS n, TRY_CAST("MS_P50 (MEDIAN_PRICE)" AS DOUBLE) AS p50
       FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) WHERE CD_STAT_SECTOR = '21004A01-' AND CD_YEAR = '2024' AND CD_TYPE IN ('B015', 'B00A') ORDER BY type`);
    // Grand-Place: 44 apartment sales (a reliable sector median); 5 house sales, withheld by Statbel.
    expect(sector.map((s) => [s.type, s.n >= 30, s.p50 === null])).toEqual([['B00A', false, true], ['B015', true, false]]);
    expect(market.sale_price_median!.apartment).toMatchObject({ value: sector[1]!.p50, sample_size: sector[1]!.n, zone: { level: 'sublocality_level2', code: '21004A01-' }, reliability: 'high' });
    expect(market.sale_price_median!.house?.zone).toMatchObject({ level: 'locality', code: '21004' });
    const own = BeMarket.parse(ZoneResponse.parse((await get('/api/v1/be/zones/sublocality_level2/21004A01-?include=market')).json()).data.market);
    expect(own.sale_price_median!.apartment).toEqual(market.sale_price_median!.apartment);
    // The sector's own route: its house median is withheld, never its municipality's.
    expect(own.sale_price_median!.house).toBeNull();
    expect(own.missing['sale_price_median.house']).toBe('suppressed');
    const zone = BeMarket.parse(ZoneResponse.parse((await get('/api/v1/be/zones/locality/21004?include=market')).json()).data.market);
    expect(zone.sale_price_median!.house).toEqual(market.sale_price_median!.house);
    expect(zone.missing.permits_nearby).toBe('not_applicable');
  });

  it('serves a zone of another level (a section) no price of its commune', async () => {
    const first = ZoneChildrenResponse.parse((await get('/api/v1/be/zones/locality/21004/children')).json()).data.children[0]!;
    expect(first.level).toBe('sublocality_level1');
    const own = BeMarket.parse(ZoneResponse.parse((await get(`/api/v1/be/zones/${first.level}/${first.code}?include=market`)).json()).data.market);
    expect(own.sale_price_median).toBeNull();
    expect(own.missing.sale_price_median).toBe('not_applicable');
  });
});

describe('Belgian zone routes', () => {
  it('serves a statistical sector with its parents, no province in Brussels', async () => {
    const res = await get('/api/v1/be/zones/sublocality_level2/21009A01-');
    expect(res.statusCode).toBe(200);
    const d = ZoneResponse.parse(res.json()).data;
    expect(d.parents.map((p) => `${p.level}:${p.code}`)).toEqual([
      'country:BE', 'administrative_area_level1:04000', 'administrative_area_level3:21000', 'locality:21009', 'sublocality_level1:21009A',
    ]);
  });

  it('lists the communes of an arrondissement and the statistical sectors of a commune, with outlines on request', async () => {
    const arr = ZoneChildrenResponse.parse((await get('/api/v1/be/zones/administrative_area_level3/23000/children')).json()).data;
    expect(arr.children.map((c) => c.code)).toEqual(['23027', '23047']);
    const res = await get('/api/v1/be/zones/locality/21004/children?geometry=true');
    const com = ZoneChildrenResponse.parse(res.json()).data;
    expect(com.children.map((c) => c.code)).toEqual(['21004A', '21004R']);
    expect(com.children[0]!.geometry?.type).toBe('Polygon');
    const regions = ZoneChildrenResponse.parse((await get('/api/v1/be/zones/country/BE/children')).json()).data;
    expect(regions.children.map((c) => c.name)).toEqual(['Vlaams Gewest', 'Région wallonne', 'Région de Bruxelles-Capitale / Brussels Hoofdstedelijk Gewest']);
  });

  it('serves the outline of Brussels-Capital as the union of its communes, and 404 zone_not_found elsewhere', async () => {
    const d = ZoneResponse.parse((await get('/api/v1/be/zones/administrative_area_level1/04000?geometry=true')).json()).data;
    expect(['Polygon', 'MultiPolygon']).toContain(d.geometry?.type);
    const res = await get('/api/v1/be/zones/locality/99999');
    expect(res.statusCode).toBe(404);
    expect(ErrorBody.parse(res.json()).error.code).toBe('zone_not_found');
  });
});

describe('Belgian catalog routes', () => {
  it('lists the domains with their routes and fields, location served here', async () => {
    const res = await get('/api/v1/be/catalog/domains?locale=en');
    expect(res.statusCode).toBe(200);
    const { domains } = CatalogDomainsResponse.parse(res.json()).data;
    expect(domains.map((d) => d.id)).toEqual(['location', 'risks', 'market', 'places', 'access', 'residents', 'urbanism']);
    const location = domains[0]!;
    expect(location).toMatchObject({ label: 'Location', served: true, routes: ['/api/v1/be/location', '/api/v1/be/report'] });
    expect(location.fields).toContain('zones.sublocality_level2');
    expect(domains.find((d) => d.id === 'residents')).toMatchObject({ served: true, fields: expect.arrayContaining(['income.taxable_median', 'income.taxable_mean_per_return']) });
    expect(domains.find((d) => d.id === 'risks')).toMatchObject({ served: true, routes: ['/api/v1/be/risks', '/api/v1/be/report'] });
    // Catalog routes consume no unit.
    const quota = Number(res.headers['x-quota-remaining']);
    const again = await get('/api/v1/be/catalog/domains');
    expect(Number(again.headers['x-quota-remaining'])).toBe(quota);
  });

  it('defines each field with its unit, update rhythm and coverage, BeST covering the three regions', async () => {
    const { fields } = CatalogFieldsResponse.parse((await get('/api/v1/be/catalog/fields')).json()).data;
    const address = fields.find((f) => f.id === 'location.address')!;
    expect(address).toMatchObject({ label: 'Adresse', unit: null, update_frequency: 'weekly', sources: ['be.best'] });
    expect(address.coverage).toEqual({ status: 'available', territories: ['Brussels-Capital Region', 'Flemish Region', 'Walloon Region'], updated_on: '2026-11-20' });
    const province = fields.find((f) => f.id === 'location.zones.administrative_area_level2')!;
    expect(province.definition).toContain('Bruxelles-Capitale');
    expect(province.coverage.status).toBe('available');
    // The price sample has municipalities of the three regions (Bruxelles, Halle, Tubize): every region covered.
    expect(fields.find((f) => f.id === 'market.sale_price_median')!.coverage).toMatchObject({ status: 'available', territories: expect.arrayContaining([expect.stringContaining('Bruxelles')]) });
    expect(fields.find((f) => f.id === 'market.sale_price_median')!.coverage.territories).toHaveLength(3);
  });
});

describe('Belgian residents from the samples', () => {
  it('serves /residents at the Grand-Place with the mean per return of Bruxelles, as the published file gives it', async () => {
    const res = await get('/api/v1/be/residents?lat=50.8466&lng=4.3524&locale=en');
    expect(res.statusCode, res.body).toBe(200);
    const residents = BeResidents.parse(res.json().data.residents);
    // 2022 row of 21004 in the sample: total net taxable income / (returns with + without income).
    const line = (await readFile(join(import.meta.dirname, '../../../datasets/be/statbel-income/TF_PSNL_INC_TAX_MUNTY.txt'), 'utf8')).split('\r\n').find((l) => l.startsWith('2022|21004|'))!.split('|');
    const returns = Number(line[2]) + Number(line[3]);
    expect(residents.income.taxable_mean_per_return).toMatchObject({
      value: Math.round((Number(line[4]) / returns) * 100) / 100, sample_size: returns, unit: 'EUR/year',
      zone: { level: 'locality', code: '21004' }, period: { start: '2022-01-01', end: '2022-12-31' },
    });
    expect(residents.status).toBe('ok');
  });

  it("serves the median per return of the point's statistical sector as DuckDB reads TF_PSNL_INC_TAX_SECTOR; a withheld sector's is null (suppressed), on its zone route too, never a wider zone's", async () => {
    const file = join(import.meta.dirname, '../../../datasets/be/statbel-income/TF_PSNL_INC_TAX_SECTOR.txt');
    const ref = await duckRows<{ code: string; median: number | null; n: number }>(
      `SELECT CD_SECTOR AS code, TRY_CAST(MS_MEDIAN_NET_TAXABLE_INC AS DOUBLE) AS median, CAST(MS_NBR_NON_ZERO_INC AS INTEGER) AS n
       FROM read_csv('${file}', delim = '|', header = true, all_varchar = true) WHERE CD_YEAR = '2022' ORDER BY code`);
    const grandPlace = ref.find((r) => r.code === '21004A01-')!;
    const expected = { value: grandPlace.median, unit: 'EUR/year', sample_size: grandPlace.n, reliability: 'high', range: null,
      zone: { level: 'sublocality_level2', code: '21004A01-' }, period: { start: '2022-01-01', end: '2022-12-31' } };
    const report = BeResidents.parse((await get('/api/v1/be/residents?lat=50.8466&lng=4.3524&locale=en')).json().data.residents);
    expect(report.income.taxable_median).toMatchObject(expected);
    expect(report.income.taxable_median!.definition).toMatch(/^Median total net taxable income per tax return of the statistical sector/);
    const own = BeResidents.parse(ZoneResponse.parse((await get('/api/v1/be/zones/sublocality_level2/21004A01-?include=residents&locale=en')).json()).data.residents);
    expect(own.income.taxable_median).toEqual(report.income.taxable_median);
    // The sector's route serves its own values only: no mean per return of its municipality.
    expect(own.income.taxable_mean_per_return).toBeNull();
    // Haren (21004R01-): Statbel withholds its 2022 median (C); the municipality publishes none: null, suppressed.
    expect(ref.find((r) => r.code === '21004R01-')!.median).toBeNull();
    const haren = BeResidents.parse(ZoneResponse.parse((await get('/api/v1/be/zones/sublocality_level2/21004R01-?include=residents')).json()).data.residents);
    expect(haren.income.taxable_median).toBeNull();
    expect(haren.missing['income.taxable_median']).toBe('suppressed');
    // The municipality's route: no median of its own.
    const commune = BeResidents.parse(ZoneResponse.parse((await get('/api/v1/be/zones/locality/21004?include=residents')).json()).data.residents);
    expect(commune.income.taxable_median).toBeNull();
    expect(commune.missing['income.taxable_median']).toBe('not_found');
  });

  it("serves the dwellings and the share in houses of the point's municipality, its zone route too, as DuckDB computes them on Statbel's building stock", async () => {
    const file = join(import.meta.dirname, '../../../datasets/be/building-stock/building_stock_open_data.txt');
    const [ref] = await duckRows<{ dwellings: number; share: number }>(
      `SELECT sum(CAST(MS_VALUE AS INTEGER)) AS dwellings, round(1000.0 * sum(CAST(MS_VALUE AS INTEGER)) FILTER (WHERE CD_BUILDING_TYPE IN ('R1', 'R2', 'R3')) / sum(CAST(MS_VALUE AS INTEGER))) / 10 AS share
       FROM read_csv('${file}', delim = '|', header = true, all_varchar = true, encoding = 'latin-1')
       WHERE CD_YEAR = '2025' AND CD_REFNIS = '21004' AND CD_REFNIS_LVL = '5' AND CD_STAT_TYPE = 'T8'`);
    const expected = (r: BeResidents) => {
      const zone = { level: 'locality', code: '21004' };
      expect(r.housing.dwellings).toMatchObject({ value: Number(ref!.dwellings), unit: 'count', zone, period: { start: '2025-01-01', end: '2025-01-01' }, reliability: 'high' });
      expect(r.housing.houses_share).toMatchObject({ value: ref!.share, unit: '%', zone, sample_size: Number(ref!.dwellings) });
    };
    expected(BeResidents.parse((await get('/api/v1/be/residents?lat=50.8466&lng=4.3524')).json().data.residents));
    const zoneRes = await get('/api/v1/be/zones/locality/21004?include=residents');
    expect(zoneRes.statusCode, zoneRes.body).toBe(200);
    expected(BeResidents.parse(ZoneResponse.parse(zoneRes.json()).data.residents));
  });
});
