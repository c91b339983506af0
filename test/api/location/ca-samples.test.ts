import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobById } from '../../../ingest/jobs.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { ZoneResponse } from '../../../api/location/zones/routes.ts';
import { ErrorBody } from '../../../schemas/error.ts';
import { ReportResponse } from '../../../api/location/report.ts';
import { CaResidents } from '../../../schemas/residents.ts';
import { CaMarket } from '../../../schemas/market.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// The Quebec samples (SDA layers named from MUN.csv, FSA in EPSG:3347, rental areas, Adresses Québec in EPSG:32198), served.
let t: TestApp;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
const locate = async (query: string) => {
  const res = await get(`/api/v1/ca/location?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return LocationResponse.parse(res.json()).data.location;
};

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-')), 'data');
  const ctx = silentContext(dataDir);
  for (const id of ['ca.zones', 'ca.adresses-quebec', 'ca.montreal-roll', 'ca.census', 'ca.assessment']) {
    const job = jobById(id)!;
    for (const argv of job.samples) for (const p of await job.run(ctx, argv)) expect(p.rejects).toBe(0);
  }
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t?.close(); });

describe('Quebec location from the samples', () => {
  it('finds an Adresses Québec address of the Plateau at the number, with every level of spec 2.4', async () => {
    const loc = await locate(`address=${encodeURIComponent('4115 rue Saint-Denis, Montréal H2W 2M7')}`);
    expect(loc.precision).toBe('address');
    expect(loc.latitude).toBeCloseTo(45.5205, 5);
    expect(loc.address).toMatchObject({ street_number: '4115', street_name: 'rue Saint-Denis', zipcode: 'H2W2M7', locality: 'Montréal' });
    const codes = Object.fromEntries(Object.entries(loc.zones).map(([l, z]) => [l, z?.code ?? null]));
    expect(codes).toEqual({
      country: 'CA', administrative_area_level1: '24', administrative_area_level2: '06', administrative_area_level3: '66',
      locality: '66023', sublocality_level1: 'REM21', sublocality_level2: null, rental_survey_area: 'Q0105', postal_code_prefix: 'H2W',
    });
    expect(loc.zones.sublocality_level1?.name).toBe('Le Plateau-Mont-Royal');
    expect(loc.missing['zones.sublocality_level2']).toBe('not_applicable');
  });

  it('places Côte-des-Neiges and Laval (off the island, no arrondissement) in their zones', async () => {
    const cdn = await locate(`address=${encodeURIComponent('3101 boul. Édouard-Montpetit Montréal')}`);
    expect(cdn.zones.sublocality_level1?.code).toBe('REM34');
    expect(cdn.zones.rental_survey_area?.code).toBe('Q0109');
    expect(cdn.zones.postal_code_prefix?.code).toBe('H3T');
    const laval = await locate(`address=${encodeURIComponent('1, place du Souvenir, Laval')}`);
    expect(laval.precision).toBe('address');
    expect(laval.zones.locality).toEqual({ level: 'locality', code: '65005', name: 'Laval' });
    expect(laval.zones.administrative_area_level2?.code).toBe('13');
    expect(laval.zones.sublocality_level1).toBeNull();
    expect(laval.missing['zones.sublocality_level1']).toBe('not_applicable');
  });

  it('finds a number known only from the assessment roll, placed between its official neighbours, zipcode null (spec 2.6)', async () => {
    const loc = await locate(`address=${encodeURIComponent('4121 rue Saint-Denis, Montréal')}`);
    expect(loc.precision).toBe('address');
    expect(loc.address).toEqual({ label: '4121, rue Saint-Denis, Montréal', street_number: '4121', street_name: 'rue Saint-Denis', zipcode: null, locality: 'Montréal' });
    // A third of the way from 4117 (45.52058) to 4129 (45.52082).
    expect(loc.latitude).toBeCloseTo(45.52066, 5);
    expect(loc.zones.sublocality_level1?.code).toBe('REM21');
    // A number the official addresses publish keeps its official postcode.
    const official = await locate(`address=${encodeURIComponent('4115 rue Saint-Denis, Montréal')}`);
    expect(official.address?.zipcode).toBe('H2W2M7');
  });

  it('serves the nearest official address for a position', async () => {
    const loc = await locate('lat=45.52351&lng=-73.58549');
    expect(loc.address?.label).toBe('200, avenue du Mont-Royal Est, Montréal H2T 1P1');
  });

  it.each([
    // Quebec-Ontario land border between Pointe-Fortune and Lake Saint-François (about -74.377 at 45.40).
    [45.40, -74.36, 200], [45.40, -74.40, 422],
    // The Ottawa River: Gatineau (QC) and Ottawa (ON).
    [45.4765, -75.7013, 200], [45.4236, -75.7009, 422],
  ])('at %f, %f answers %i', async (lat, lng, status) => {
    const res = await get(`/api/v1/ca/location?lat=${lat}&lng=${lng}`);
    expect(res.statusCode).toBe(status);
    if (status === 422) expect(ErrorBody.parse(res.json()).error.code).toBe('outside_coverage');
    else expect(LocationResponse.parse(res.json()).data.location.zones.country?.code).toBe('CA');
  });

  it('gives the Quebec side of the Ontario border its forward sortation area', async () => {
    const loc = await locate('lat=45.40&lng=-74.36');
    expect(loc.zones.postal_code_prefix?.code).toBe('J0P');
  });

  it('serves the arrondissement zone with its parents up to the country', async () => {
    const d = ZoneResponse.parse((await get('/api/v1/ca/zones/sublocality_level1/REM21')).json()).data;
    expect(d.parents.map((p) => `${p.level}:${p.code}`)).toEqual([
      'country:CA', 'administrative_area_level1:24', 'administrative_area_level2:06', 'administrative_area_level3:66', 'locality:66023',
    ]);
  });
});

describe('Quebec residents from the census profile sample', () => {
  const FILE = join(REPO_ROOT, 'datasets/ca/census/98-401-X2021013_English_CSV_data.csv');
  const profile = (fsa: string) => duckRows<{ name: string; c1: string | null; symbol: string | null }>(
    `SELECT trim(CHARACTERISTIC_NAME) AS name, C1_COUNT_TOTAL AS c1, SYMBOL AS symbol
     FROM read_csv('${FILE}', delim = ',', header = true, all_varchar = true, encoding = 'latin-1') WHERE ALT_GEO_CODE = '${fsa}' ORDER BY CAST(CHARACTERISTIC_ID AS INTEGER)`);

  it("serves the Plateau point its FSA's average total income, with its block's recipients, as DuckDB reads the profile", async () => {
    const rows = await profile('H2T');
    const i = rows.findIndex((r) => r.name.startsWith('Average total income in 2020'));
    const recipients = rows.slice(0, i).reverse().find((r) => r.name.startsWith('Number of total income recipients'))!;
    const res = await get('/api/v1/ca/report?lat=45.52351&lng=-73.58549&include=residents&locale=en');
    expect(res.statusCode, res.body).toBe(200);
    const residents = CaResidents.parse(ReportResponse.parse(res.json()).data.residents);
    expect(residents).toMatchObject({ status: 'ok', income: { total_mean: {
      value: Number(rows[i]!.c1), unit: 'CAD/year', sample_size: Number(recipients.c1), reliability: 'high',
      zone: { level: 'postal_code_prefix', code: 'H2T' }, period: { start: '2020-01-01', end: '2020-12-31' },
    } } });
  });

  it('serves the zone route only its own value; a flagged FSA is medium', async () => {
    const own = CaResidents.parse(ZoneResponse.parse((await get('/api/v1/ca/zones/postal_code_prefix/J0P?include=residents')).json()).data.residents);
    expect(own.income.total_mean).toMatchObject({ reliability: 'medium', zone: { code: 'J0P' } });
    const montreal = CaResidents.parse(ZoneResponse.parse((await get('/api/v1/ca/zones/locality/66023?include=residents')).json()).data.residents);
    expect(montreal.income.total_mean).toBeNull();
    expect(montreal.missing['income.total_mean']).toBe('not_found');
  });
});

describe("Quebec market: the roll's comparative factor (ca.assessment)", () => {
  it("serves a Montreal point its municipality's factor, as DuckDB reads MAMH's file", async () => {
    const [row] = await duckRows<{ f: string }>(`SELECT CSALX02163 AS f FROM read_csv('${join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv')}', header = true, all_varchar = true) WHERE cod_geo = '66023'`);
    const res = await get('/api/v1/ca/report?lat=45.52351&lng=-73.58549&include=market');
    expect(res.statusCode, res.body).toBe(200);
    const market = CaMarket.parse(ReportResponse.parse(res.json()).data.market);
    expect(market.assessed_values?.market_factor).toMatchObject({ value: Number(row!.f), unit: 'ratio', zone: { level: 'locality', code: '66023' }, period: { start: '2026-01-01', end: '2026-12-31' } });
  });

  it("serves a Montreal point and Laval's zone route their municipality's standardized average values, as DuckDB reads MAMH's profil financier", async () => {
    const file = join(REPO_ROOT, 'datasets/ca/assessment/PF-2024-2025.csv');
    const rows = await duckRows<{ code: string; sf: string; dw: string; year: string }>(
      `SELECT cod_geo AS code, FIALX02009 AS sf, FIALX02010 AS dw, an_donnee AS year FROM read_csv('${file}', header = true, all_varchar = true) WHERE cod_geo IN ('66023', '65005')`);
    const of = (code: string) => rows.find((r) => r.code === code)!;
    const expected = (code: string, value: string) => ({
      value: Number(value), unit: 'CAD', zone: { level: 'locality', code }, period: { start: `${of(code).year}-01-01`, end: `${of(code).year}-12-31` },
      sample_size: null, reliability: 'high',
    });
    const res = await get('/api/v1/ca/report?lat=45.52351&lng=-73.58549&include=market');
    const report = ReportResponse.parse(res.json());
    const market = CaMarket.parse(report.data.market);
    expect(market.assessed_values?.average_single_family).toMatchObject(expected('66023', of('66023').sf));
    expect(market.assessed_values?.average_per_dwelling).toMatchObject(expected('66023', of('66023').dw));
    expect(market.assessed_values?.average_single_family?.definition).toMatch(/FIALX02009/);
    expect(market.assessed_values?.average_per_dwelling?.definition).toMatch(/FIALX02010/);
    expect(market.missing['assessed_values.average_single_family']).toBeUndefined();
    expect(JSON.stringify(report.meta.warnings)).not.toMatch(/average_single_family|average_per_dwelling/);
    const laval = ZoneResponse.parse((await get('/api/v1/ca/zones/locality/65005?include=market')).json());
    const lavalMarket = CaMarket.parse(laval.data.market);
    expect(lavalMarket.assessed_values?.average_single_family).toMatchObject(expected('65005', of('65005').sf));
    expect(lavalMarket.assessed_values?.average_per_dwelling).toMatchObject(expected('65005', of('65005').dw));
  });

  it("serves a Montreal point and Montreal's zone route the municipality's residential tax rate, as DuckDB reads MAMH's données prévisionnelles", async () => {
    const [row] = await duckRows<{ r: string }>(`SELECT CPALB01726 AS r FROM read_csv('${join(REPO_ROOT, 'datasets/ca/assessment/previsionnelles-2026.csv')}', header = true, all_varchar = true) WHERE cod_geo = '66023'`);
    const expected = { value: Number(row!.r), unit: 'CAD/100CAD', zone: { level: 'locality', code: '66023' }, period: { start: '2026-01-01', end: '2026-12-31' }, reliability: 'high' };
    const market = CaMarket.parse(ReportResponse.parse((await get('/api/v1/ca/report?lat=45.52351&lng=-73.58549&include=market')).json()).data.market);
    expect(market.property_tax.rates.residential).toMatchObject(expected);
    // The estimate needs the property's assessed value: still null, said.
    expect(market.property_tax.estimate).toBeNull();
    expect(market.missing['property_tax.estimate']).toBe('unavailable');
    const zone = CaMarket.parse(ZoneResponse.parse((await get('/api/v1/ca/zones/locality/66023?include=market')).json()).data.market);
    expect(zone.property_tax.rates.residential).toMatchObject(expected);
  });
});


describe("Quebec market without MAMH's profil financier", () => {
  it('serves the factor but the averages null, unavailable, with a warning naming the source', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-noprofile-')), 'data');
    const ctx = silentContext(dataDir);
    const zones = jobById('ca.zones')!;
    for (const argv of zones.samples) await zones.run(ctx, argv);
    await jobById('ca.assessment')!.run(ctx, ['--input', join(REPO_ROOT, 'datasets/ca/assessment/rfu-2026.csv'), '--year', '2026', '--published-on', '2026-11-24']);
    const own = await buildTestApp(dataDir, { sql: t.sql });
    try {
      const res = await own.app.inject({ method: 'GET', url: '/api/v1/ca/zones/locality/66023?include=market', headers: { authorization: `Bearer ${own.key}` } });
      const zone = ZoneResponse.parse(res.json());
      const market = CaMarket.parse(zone.data.market);
      expect(market.assessed_values?.market_factor?.value).toBeGreaterThan(0);
      expect(market.assessed_values?.average_single_family).toBeNull();
      expect(market.assessed_values?.average_per_dwelling).toBeNull();
      expect(market.missing['assessed_values.average_single_family']).toBe('unavailable');
      expect(market.missing['assessed_values.average_per_dwelling']).toBe('unavailable');
      expect(zone.meta.warnings.map((w) => w.message)).toContain(
        "assessed_values.average_single_family, assessed_values.average_per_dwelling are null: MAMH's profil financier (ca.financial-profile) is not ingested on this service");
    } finally { await own.close(); }
  });
});
