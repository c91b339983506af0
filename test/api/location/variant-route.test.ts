import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, jobById } from '../../../ingest/jobs.ts';
import { ingestBuildings } from '../../../ingest/fr/buildings.ts';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { CoverageResponse, VariantLocationResponse } from '../../../api/location/variant/routes.ts';
import { LEVEL_TO_VARIANT } from '../../../api/location/variant/map.ts';
import { ErrorBody } from '../../../schemas/error.ts';
import type { ZoneLevel } from '../../../schemas/zone.ts';
import { BAN_HEADER, banLine, buildFixtureData, silentContext } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// France (fixture), Quebec and Belgium (samples) in one warehouse, served without a country prefix.
let t: TestApp;
let dataDir: string;
const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
const variant = async (query: string) => {
  const res = await get(`/api/v1/location?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return VariantLocationResponse.parse(res.json());
};

beforeAll(async () => {
  dataDir = await buildFixtureData();
  const ctx = silentContext(dataDir);
  for (const id of ['ca.zones', 'ca.adresses-quebec', 'be.zones', 'be.best']) {
    const job = jobById(id)!;
    for (const argv of job.samples) await job.run(ctx, argv);
  }
  // Laval exists in France (Mayenne) and in Quebec.
  const laval = join(dirname(dataDir), 'adresses-53.csv');
  await writeFile(laval, `${BAN_HEADER}\n${banLine({ insee: '53130', fantoir: '2210', numero: 1, voie: 'Place du 11 Novembre', cp: '53000', commune: 'Laval', lon: -0.77071, lat: 48.06952 })}\n`);
  await ingestBanFile(ctx, { path: laval });
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t?.close(); });

describe('GET /api/v1/location', () => {
  it.each([
    ['fr', 'lat=48.86305&lng=2.36195'],
    ['be', 'lat=50.8466&lng=4.3524'],
    ['ca', 'lat=45.5205&lng=-73.579'],
  ])('gives the same place as the %s route, in the level set of spec 2.12', async (country, place) => {
    const own = LocationResponse.parse((await get(`/api/v1/${country}/location?${place}`)).json()).data.location;
    const { data } = await variant(place);
    expect(data.location.country).toBe(country.toUpperCase());
    expect([data.location.latitude, data.location.longitude]).toEqual([own.latitude, own.longitude]);
    for (const [level, zone] of Object.entries(own.zones)) {
      const v = data.location.zones[LEVEL_TO_VARIANT[level as ZoneLevel]];
      expect(v, level).toEqual(zone ? { level: LEVEL_TO_VARIANT[level as ZoneLevel], code: zone.code, name: zone.name, country: country.toUpperCase() } : null);
    }
    expect(data.location.address?.label).toBe(own.address?.label);
  });

  it('maps the levels: Brussels has no subregion (province), Montreal has a postal area and a rental-survey area', async () => {
    const be = (await variant('lat=50.8466&lng=4.3524')).data.location;
    expect(be.zones.subregion).toBeNull();
    expect(be.zones.county?.code).toBe('21000');
    expect(be.zones.neighbourhood?.code).toBe('21004A01-');
    expect(be.missing['zones.subregion']).toBe('not_applicable');
    const ca = (await variant('lat=45.5205&lng=-73.579')).data.location;
    expect(ca.zones.region).toEqual({ level: 'region', code: '24', name: 'Québec', country: 'CA' });
    expect(ca.zones.postal_area?.code).toBe('H2W');
    expect(ca.zones.rental_survey_area?.code).toBe('Q0105');
    expect(ca.zones.district?.name).toBe('Le Plateau-Mont-Royal');
  });

  it('finds an address in whichever country publishes it, with the address fields and precision values of 2.12 and meta.sources', async () => {
    const body = await variant(`address=${encodeURIComponent('Grote Markt 1, 1000 Brussel')}`);
    const loc = body.data.location;
    expect(loc.country).toBe('BE');
    expect(loc.precision).toBe('address');
    expect(loc.address).toEqual({ label: 'Grand-Place 1, 1000 Bruxelles', number: '1', street: 'Grand-Place', postal_code: '1000', municipality: 'Bruxelles' });
    const best = body.meta.sources.find((s) => s.id === 'be.best');
    expect(best).toMatchObject({ publisher: expect.stringContaining('BOSA'), attribution: 'BeST Address, SPF BOSA', share_alike: false, fresh: true });
    expect(body.meta.sources.map((s) => s.id)).toContain('be.statbel-sectors');
    const fr = (await variant(`address=${encodeURIComponent('12 rue de Bretagne 75003 Paris')}`)).data.location;
    expect(fr).toMatchObject({ country: 'FR', precision: 'address', parcel: { id: '75103000AK0034', source: 'fr.ban' } });
  });

  it('answers a city of two countries with alternatives, and resolves it with country', async () => {
    const both = await variant('address=Laval');
    expect(both.data.location.precision).toBe('municipality');
    expect(both.meta.warnings.map((w) => w.code)).toContain('ambiguous_country');
    const countries = [both.data.location.country, ...both.data.location.geocoding!.alternatives.map((a) => a.country)];
    expect(countries.sort()).toEqual(['CA', 'FR']);
    const ca = (await variant('address=Laval&country=CA')).data.location;
    expect(ca.country).toBe('CA');
    expect(ca.zones.municipality?.code).toBe('65005');
    const fr = (await variant('address=Laval&country=fr')).data.location;
    expect(fr.country).toBe('FR');
    expect(fr.latitude).toBeCloseTo(48.06952, 5);
  });

  it('answers 422 outside_coverage outside the three countries and on the Ontario side of the Quebec border', async () => {
    for (const place of ['lat=52.3676&lng=4.9041', 'lat=45.4236&lng=-75.7009', 'lat=45.40&lng=-74.40']) {
      const res = await get(`/api/v1/location?${place}`);
      expect(res.statusCode, place).toBe(422);
      expect(ErrorBody.parse(res.json()).error.code).toBe('outside_coverage');
    }
    const res = await get('/api/v1/location?lat=45.40&lng=-74.36');
    expect(VariantLocationResponse.parse(res.json()).data.location.zones.postal_area?.code).toBe('J0P');
  });

  it('answers 403 country_not_allowed for a country outside the key, on the variant and on the country routes', async () => {
    const { key } = await t.keys.create({ countries: ['fr'], sandbox: false, label: 'france only' });
    for (const url of ['/api/v1/location?lat=45.5205&lng=-73.579', '/api/v1/location?lat=50.8466&lng=4.3524&country=BE', '/api/v1/be/location?lat=50.8466&lng=4.3524', '/api/v1/be/zones/locality/21004']) {
      const res = await get(url, key);
      expect(res.statusCode, url).toBe(403);
      expect(ErrorBody.parse(res.json()).error.code).toBe('country_not_allowed');
    }
    expect((await get('/api/v1/location?lat=48.86305&lng=2.36195', key)).statusCode).toBe(200);
  });

  it('refuses an unknown country and both kinds of place', async () => {
    const res = await get('/api/v1/location?lat=48.86&lng=2.36&country=DE');
    expect(res.statusCode).toBe(400);
    expect(ErrorBody.parse(res.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'country' } });
    const both = await get('/api/v1/location?lat=48.86&lng=2.36&address=Paris');
    expect(ErrorBody.parse(both.json()).error.code).toBe('ambiguous_location');
  });
});

describe('GET /api/v1/catalog/coverage', () => {
  it('says what each country publishes (spec 2.12) and what is served and ingested here', async () => {
    const res = await get('/api/v1/catalog/coverage?locale=en');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-quota-remaining']).toBeDefined();
    const { countries } = CoverageResponse.parse(res.json()).data;
    expect(countries.map((c) => c.country)).toEqual(['FR', 'BE', 'CA']);
    const be = countries.find((c) => c.country === 'BE')!;
    expect(be.domains.find((d) => d.domain === 'sales')).toMatchObject({ coverage: 'none', served: false });
    expect(be.domains.find((d) => d.domain === 'location')).toMatchObject({ label: 'Location', coverage: 'full', served: true });
    expect(be.domains.find((d) => d.domain === 'energy')?.coverage).toBe('partial');
    const ca = countries.find((c) => c.country === 'CA')!;
    expect(ca.zone_levels.find((l) => l.level === 'postal_area')?.ingested).toBe(true);
    expect(ca.zone_levels.find((l) => l.level === 'neighbourhood')?.ingested).toBe(false);
    expect(ca.sources.map((s) => s.id)).toEqual(expect.arrayContaining(['ca.adresses-quebec', 'ca.sda', 'ca.statcan-fsa']));
    // Each source's rows: those of the partitions it fed, once per partition however many of its files it read.
    for (const c of countries) {
      const manifest = JSON.parse(await readFile(join(dataDir, c.country.toLowerCase(), 'manifest.json'), 'utf8')) as { partitions: { table: string; rows: number; sources: { id: string }[] }[] };
      for (const s of c.sources) {
        expect(s.rows, `${c.country} ${s.id}`).toBe(manifest.partitions.filter((p) => p.table !== 'zone_cells' && p.sources.some((x) => x.id === s.id)).reduce((n, p) => n + p.rows, 0));
      }
    }
  });

  it('counts once the rows of a partition made of several files of one source', async () => {
    const dir = join(REPO_ROOT, 'datasets/fr/buildings');
    const fixture = join(await mkdtemp(join(tmpdir(), 'lds-coverage-')), 'data');
    // The BDNB's compiled groups and its two owner tables: three fr.bdnb inputs of each partition.
    await ingestBuildings(silentContext(fixture), { rnb: { path: join(dir, 'RNB_33.csv') }, bdnb: { path: join(dir, 'bdnb_batiment_groupe_compile_33.csv') },
      owners: { owners: { path: join(dir, 'bdnb_proprietaire_33.csv') }, links: { path: join(dir, 'bdnb_rel_batiment_groupe_proprietaire_33.csv') } } });
    const app = await buildTestApp(fixture, { sql: t.sql });
    try {
      const res = await app.app.inject({ method: 'GET', url: '/api/v1/catalog/coverage', headers: { authorization: `Bearer ${app.key}` } });
      const fr = CoverageResponse.parse(res.json()).data.countries.find((c) => c.country === 'FR')!;
      const manifest = JSON.parse(await readFile(join(fixture, 'fr', 'manifest.json'), 'utf8')) as { partitions: { table: string; rows: number; sources: { id: string }[] }[] };
      const bdnb = manifest.partitions.filter((p) => p.sources.some((s) => s.id === 'fr.bdnb'));
      expect(bdnb.every((p) => p.sources.filter((s) => s.id === 'fr.bdnb').length === 3)).toBe(true);
      expect(fr.sources.find((s) => s.id === 'fr.bdnb')?.rows).toBe(bdnb.reduce((n, p) => n + p.rows, 0));
    } finally { await app.close(); }
  });
});
