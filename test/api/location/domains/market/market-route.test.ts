import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrMarketResponse, FrSalesResponse } from '../../../../../api/location/domains/market/routes.ts';
import { radiusRanges, rangeClusters } from '../../../../../api/location/domains/market/sales-nearby.ts';
import { CatalogFieldsResponse } from '../../../../../api/location/catalog.ts';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { ingestDvf } from '../../../../../ingest/fr/dvf.ts';
import { DVF_GEO_HEADER } from '../../../../../ingest/fr/dvf-lines.ts';
import { ingestGenericZones } from '../../../../../ingest/generic/zones.ts';
import { REPO_ROOT } from '../../../../../ingest/jobs.ts';
import { ErrorBody } from '../../../../../schemas/error.ts';
import { FrMarket, FrZoneMarket } from '../../../../../schemas/market.ts';
import { RELIABILITY_THRESHOLDS } from '../../../../../schemas/tables/market-indicators.ts';
import { pointCell } from '../../../../../schemas/tables/cells.ts';
import { box, buildFixtureData, silentContext } from '../../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';

type Line = Partial<Record<(typeof DVF_GEO_HEADER)[number], string>>;
/** One line of the geolocated layout: an apartment sale unless told otherwise. */
function geoLine(l: Line): string {
  const base: Line = { numero_disposition: '000001', nature_mutation: 'Vente', code_type_local: '2', type_local: 'Appartement', nombre_pieces_principales: '2', nombre_lots: '1' };
  return DVF_GEO_HEADER.map((c) => ({ ...base, ...l })[c] ?? '').join(',');
}
const apartment = (id: string, date: string, commune: string, price: number, surface: number, lng: number | null, lat: number | null, parcel = `${commune}000AB${id.replace(/\D/g, '').slice(-4).padStart(4, '0')}`) => geoLine({
  id_mutation: id, date_mutation: date, valeur_fonciere: String(price), code_commune: commune, code_departement: commune.slice(0, 2), id_parcelle: parcel,
  surface_reelle_bati: String(surface), lot1_numero: '12', longitude: lng === null ? '' : lng.toFixed(6), latitude: lat === null ? '' : lat.toFixed(6),
  adresse_numero: '5', adresse_nom_voie: 'RUE TEST', code_postal: '75003', nom_commune: 'Paris',
});

/** Great-circle distance in meters, written here independently of the service's SQL. */
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(a));
}

const QUERY = { lat: 48.8620, lng: 2.3720 }; // Paris 11e fixture IRIS, far from its sales
let t: TestApp;
const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  const dataDir = await buildFixtureData();
  const root = dirname(dataDir);
  // A Moselle department, to check it answers not_covered.
  const moselle = join(root, 'moselle.geojson');
  await writeFile(moselle, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { code: '57', nom: 'Moselle' }, geometry: box(6.0, 48.9, 6.4, 49.3) }] }));
  await ingestGenericZones(silentContext(dataDir), { country: 'fr', level: 'administrative_area_level2', input: moselle, codeProperty: 'code', nameProperty: 'nom' });
  const lines: string[] = [];
  // Paris 3e: 3 positioned sales (too few for its IRIS) and 12 without coordinates (counted in the arrondissement).
  for (let i = 0; i < 3; i++) lines.push(apartment(`2024-1${i}`, '2024-0' + (i + 1) + '-10', '75103', 500_000 + i * 10_000, 50, 2.3600 + i * 0.0002, 48.8630));
  for (let i = 0; i < 12; i++) lines.push(apartment(`2024-2${String(i).padStart(2, '0')}`, '2024-05-1' + (i % 9), '75103', 480_000 + i * 7_000, 40 + i, null, null));
  // Paris 11e: 12 positioned sales in the south-east of its IRIS, about 1 km from QUERY.
  for (let i = 0; i < 12; i++) lines.push(apartment(`2024-3${String(i).padStart(2, '0')}`, '2024-06-0' + (1 + (i % 9)), '75111', 400_000 + i * 9_000, 45, 2.3850 + i * 0.0001, 48.8520));
  // Multi-line mutation: a flat, its cellar and a second flat line repeated (one local), one sale.
  lines.push(apartment('2024-4000', '2024-06-20', '75111', 600_000, 60, 2.3852, 48.8521));
  lines.push(geoLine({ id_mutation: '2024-4000', date_mutation: '2024-06-20', valeur_fonciere: '600000', code_commune: '75111', code_departement: '75', id_parcelle: '75111000AB4000', code_type_local: '3', type_local: 'Dépendance', nombre_pieces_principales: '0', lot1_numero: '112', longitude: '2.385200', latitude: '48.852100' }));
  lines.push(apartment('2024-4000', '2024-06-20', '75111', 600_000, 60, 2.3852, 48.8521));
  const file = join(root, 'csv/2024/departements/75.csv');
  await (await import('node:fs/promises')).mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${DVF_GEO_HEADER.join(',')}\n${lines.join('\n')}\n`);
  await ingestDvf(silentContext(dataDir), [{ path: file }]);
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t.close(); });

describe('data.market in /api/v1/fr/report', () => {
  it('serves the finest reliable zone: the arrondissement when the IRIS has too few sales', async () => {
    const res = await get('/api/v1/fr/report?lat=48.8631&lng=2.3601&include=market&radius=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = ReportResponse.parse(res.json());
    const market = FrMarket.parse(body.data.market);
    const m = market.sales_nearby!.median_price_per_m2!;
    expect(m.zone).toEqual({ level: 'sublocality_level1', code: '75103', name: 'Paris 3e Arrondissement' });
    // The DVF file here was ingested without a publication date (as before fr.dvf required one): its import date, said in meta.warnings.
    expect(body.meta.warnings).toContainEqual({ domain: 'market', code: 'publication_date_unknown', message: expect.stringMatching(/^sales_nearby\.median_price_per_m2: updated_on is the import date, not fr\.dvf's publication date/) });
    expect(m.sample_size).toBe(15);
    expect(m.reliability).toBe('medium');
    // Independently: the median of the 15 prices per m² of Paris 3e.
    const ppm = [...[0, 1, 2].map((i) => (500_000 + i * 10_000) / 50), ...Array.from({ length: 12 }, (_, i) => (480_000 + i * 7_000) / (40 + i))].sort((a, b) => a - b);
    expect(m.value).toBe(Math.round(ppm[7]!));
    expect(m).toMatchObject({ unit: 'EUR/m2', period: { start: '2022-07-01', end: '2024-06-30' }, updated_on: '2026-11-20', stale: false });
    expect(m.definition).toContain(String(RELIABILITY_THRESHOLDS.medium));
    expect(market.sales_nearby!.count).toBe(3);
    expect(market.sales_nearby!.items.map((i) => i.distance_m)).toEqual([...market.sales_nearby!.items.map((i) => i.distance_m)].sort((a, b) => a - b));
    expect(market.status).toBe('partial');
    expect(market.missing).toMatchObject({ rent_estimate: 'unavailable', gross_yield: 'unavailable', regulation: 'unavailable', permits_nearby: 'unavailable' });
  });

  it('serves the IRIS when it has enough sales, and the radius when the radius has enough', async () => {
    const far = FrMarket.parse(ReportResponse.parse((await get(`/api/v1/fr/report?lat=${QUERY.lat}&lng=${QUERY.lng}&include=market&radius=100`)).json()).data.market);
    expect(far.sales_nearby!.count).toBe(0);
    expect(far.sales_nearby!.items).toEqual([]);
    expect(far.sales_nearby!.median_price_per_m2!.zone).toEqual({ level: 'sublocality_level2', code: '751110201', name: 'Folie Méricourt 1' });
    expect(far.sales_nearby!.median_price_per_m2!.sample_size).toBe(13);
    const near = FrMarket.parse(ReportResponse.parse((await get('/api/v1/fr/report?lat=48.8521&lng=2.3856&include=market&radius=300')).json()).data.market);
    expect(near.sales_nearby!.median_price_per_m2!.zone).toEqual({ level: 'radius', code: '300', name: null });
    expect(near.sales_nearby!.median_price_per_m2!.sample_size).toBe(13);
  });

  it('counts a multi-line mutation once, with its cellar out of the surface', async () => {
    const market = FrMarket.parse(ReportResponse.parse((await get('/api/v1/fr/report?lat=48.8521&lng=2.3852&include=market&radius=100')).json()).data.market);
    const item = market.sales_nearby!.items.find((i) => i.price?.value === 600_000)!;
    expect(market.sales_nearby!.items.filter((i) => i.price?.value === 600_000)).toHaveLength(1);
    expect(item).toMatchObject({ surface: 60, price_per_m2: { value: 10_000, unit: 'EUR/m2' }, type: 'apartment', distance_m: 0 });
  });

  it('answers the sales not_covered in Moselle, never an empty list, and the other parts as elsewhere in France', async () => {
    const res = await get('/api/v1/fr/report?lat=49.12&lng=6.18&include=market');
    expect(res.statusCode, res.body).toBe(200);
    const body = ReportResponse.parse(res.json());
    const market = FrMarket.parse(body.data.market);
    // Spec 2.5 and 1: only DVF sales are absent in Alsace-Moselle; rents, regulation and permits are not.
    expect(market).toMatchObject({ status: 'partial', sales_nearby: null, price_trend: null, missing: { sales_nearby: 'not_covered', price_trend: 'not_covered' } });
    const elsewhere = FrMarket.parse(ReportResponse.parse((await get('/api/v1/fr/report?lat=48.8631&lng=2.3601&include=market')).json()).data.market);
    for (const f of ['rent_estimate', 'gross_yield', 'regulation', 'permits_nearby'] as const) {
      expect(market[f]).toEqual(elsewhere[f]);
      expect(market.missing[f]).toBe(elsewhere.missing[f]);
    }
    expect(body.meta.warnings.some((w) => w.domain === 'market' && w.code === 'not_covered')).toBe(true);
    const list = FrSalesResponse.parse((await get('/api/v1/fr/market/sales?lat=49.12&lng=6.18')).json());
    expect(list.data).toMatchObject({ status: 'not_covered', missing: { sales: 'not_covered' } });
  });

  it('answers the market of a Moselle zone not_covered on the zone route', async () => {
    const body = (await get('/api/v1/fr/zones/administrative_area_level2/57?include=market')).json();
    expect(FrZoneMarket.parse(body.data.market)).toMatchObject({ status: 'not_covered', median_price_per_m2: { apartment: null, house: null }, missing: { median_price_per_m2: 'not_covered' } });
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ domain: 'market', code: 'not_covered' }));
  });

  it('honours property_type: no house sold here, so no house median', async () => {
    const market = FrMarket.parse((await get('/api/v1/fr/market?lat=48.8631&lng=2.3601&property_type=house')).json().data.market);
    expect(market.sales_nearby).toMatchObject({ count: 0, median_price_per_m2: null, items: [] });
    expect(market.missing['sales_nearby.median_price_per_m2']).toBe('insufficient_sample');
  });
});

describe('GET /api/v1/fr/market/sales', () => {
  it('pages through every sale within the radius, nearest first, and counts them all', async () => {
    const all = FrSalesResponse.parse((await get('/api/v1/fr/market/sales?lat=48.8521&lng=2.3856&radius=500&per_page=5')).json());
    expect(all.data.pagination).toEqual({ page: 1, per_page: 5, total: 13 });
    const pages = [all.data.sales];
    for (const p of [2, 3]) pages.push(FrSalesResponse.parse((await get(`/api/v1/fr/market/sales?lat=48.8521&lng=2.3856&radius=500&per_page=5&page=${p}`)).json()).data.sales);
    const d = pages.flat().map((s) => s.distance_m);
    expect(d).toHaveLength(13);
    expect(d).toEqual([...d].sort((a, b) => a - b));
  });

  it('refuses per_page over 100 and a radius out of bounds with invalid_parameter', async () => {
    for (const [q, parameter] of [['per_page=101', 'per_page'], ['radius=50', 'radius'], ['radius=2001', 'radius'], ['page=0', 'page'], ['property_type=castle', 'property_type']]) {
      const res = await get(`/api/v1/fr/market/sales?lat=48.86&lng=2.36&${q}`);
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
    }
  });

  it('is refused with 403 domain_not_allowed to a key without the market domain', async () => {
    const { key } = await t.keys.create({ countries: ['fr'], domains: ['location'], sandbox: false });
    const res = await get('/api/v1/fr/market?lat=48.86&lng=2.36', key);
    expect(res.statusCode).toBe(403);
    expect(ErrorBody.parse(res.json()).error.code).toBe('domain_not_allowed');
  });
});

describe('/api/v1/fr/catalog/fields', () => {
  it('documents the market fields, their reliability thresholds and their partial coverage', async () => {
    const body = CatalogFieldsResponse.parse((await get('/api/v1/fr/catalog/fields?locale=en')).json());
    const median = body.data.fields.find((f) => f.id === 'market.sales_nearby.median_price_per_m2')!;
    expect(median.definition).toContain(`high from ${RELIABILITY_THRESHOLDS.high}, medium from ${RELIABILITY_THRESHOLDS.medium}, low from ${RELIABILITY_THRESHOLDS.low}`);
    expect(median).toMatchObject({ unit: 'EUR/m2', update_frequency: 'half_yearly', coverage: { status: 'partial' } });
    expect(median.coverage.territories!.join(' ')).toContain('Mayotte');
    expect(body.data.fields.find((f) => f.id === 'market.rent_estimate')!.coverage.status).toBe('not_ingested');
  });
});

describe('radius candidates', () => {
  it('cover every point within the radius (gridDisk ranges on the sorted cell column)', () => {
    const lat = 48.8566, lng = 2.3522;
    for (const radius of [100, 500, 700, 701, 2000]) {
      const ranges = radiusRanges(lat, lng, radius);
      for (let b = 0; b < 360; b += 7.5) {
        // A point just inside the radius, in every direction.
        const d = radius * 0.999 / 6371008.8;
        const br = (b * Math.PI) / 180, p1 = (lat * Math.PI) / 180;
        const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(br));
        const l2 = lng + (Math.atan2(Math.sin(br) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2)) * 180) / Math.PI;
        expect(haversine(lat, lng, (p2 * 180) / Math.PI, l2)).toBeLessThan(radius);
        const cell = pointCell((p2 * 180) / Math.PI, l2);
        expect(ranges.some(([lo, hi]) => cell >= lo && cell <= hi), `${radius} m, bearing ${b}`).toBe(true);
        // The clusters scanned hold every range.
        expect(rangeClusters(ranges).some((c) => cell >= c.lo && cell <= c.hi)).toBe(true);
      }
    }
  });
});

const REAL = join(REPO_ROOT, '../shared/realdata/fr/dvf/full_2021_33001_abzac.csv');
describe.skipIf(!existsSync(REAL))('the real Abzac extract', () => {
  let real: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await buildFixtureData();
    await ingestDvf(silentContext(dataDir), [{ path: REAL }]);
    real = await buildTestApp(dataDir);
  });
  afterAll(async () => { await real.close(); });

  it('answers in Abzac: the count within the radius agrees with an independent distance computation, a commune median of houses', async () => {
    const [lat, lng] = [45.0136, -0.1291];
    const res = await real.app.inject({ method: 'GET', url: `/api/v1/fr/market?lat=${lat}&lng=${lng}&radius=1000`, headers: { authorization: `Bearer ${real.key}` } });
    expect(res.statusCode, res.body).toBe(200);
    const market = FrMarketResponse.parse(res.json()).data.market;
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const sales = (await c.runAndReadAll(`SELECT latitude, longitude FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE latitude IS NOT NULL`)).getRowObjectsJS() as { latitude: number; longitude: number }[];
    c.closeSync(); db.closeSync();
    const within = sales.filter((s) => haversine(lat, lng, s.latitude, s.longitude) <= 1000).length;
    expect(within).toBeGreaterThan(5);
    expect(market.sales_nearby!.count).toBe(within);
    expect(market.sales_nearby!.items.length).toBe(Math.min(10, within));
    const m = market.sales_nearby!.median_price_per_m2!;
    expect(m.period).toEqual({ start: '2020-01-01', end: '2021-12-31' });
    expect(['radius', 'locality']).toContain(m.zone!.level);
    expect(market.price_trend).toBeNull();
    expect(market.missing.price_trend).toBe('insufficient_sample');
  });
});
