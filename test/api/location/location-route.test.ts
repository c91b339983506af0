import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { BORDER_LAT, BORDER_LNG, buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const get = (url: string, key: string | null = t.key, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });

beforeAll(async () => {
  t = await buildTestApp(await buildFixtureData());
});
afterAll(async () => { await t.close(); });

describe('GET /api/v1/fr/location by position', () => {
  it('answers the zones of every level and the nearest official address', async () => {
    const res = await get('/api/v1/fr/location?lat=48.86305&lng=2.36196');
    expect(res.statusCode).toBe(200);
    const body = LocationResponse.parse(res.json());
    const loc = body.data.location;
    expect(loc.precision).toBe('input');
    expect(loc.zones.country).toEqual({ level: 'country', code: 'FR', name: 'France' });
    expect(loc.zones.administrative_area_level1?.code).toBe('11');
    expect(loc.zones.administrative_area_level2?.code).toBe('75');
    expect(loc.zones.locality).toEqual({ level: 'locality', code: '75056', name: 'Paris' });
    expect(loc.zones.sublocality_level1?.code).toBe('75103');
    expect(loc.zones.sublocality_level2?.code).toBe('751030101');
    expect(loc.zones.administrative_area_level3).toBeNull();
    expect(loc.missing['zones.administrative_area_level3']).toBe('not_applicable');
    expect(loc.address?.label).toBe('12 Rue de Bretagne 75003 Paris 3e Arrondissement');
    expect(loc.parcel).toEqual({ id: '75103000AK0034', reference: 'AK 34', area_m2: null });
    expect(loc.building_id).toBeNull();
    expect(loc.missing.building_id).toBe('unavailable');
    expect(body.meta.warnings.some((w) => w.code === 'data_unavailable')).toBe(true);
    expect(body.meta.sandbox).toBe(false);
  });

  it('gives each side of an arrondissement border its own arrondissement, as an exact test would', async () => {
    const eps = 0.00007; // about 5 m
    const west = LocationResponse.parse((await get(`/api/v1/fr/location?lat=48.8600&lng=${BORDER_LNG - eps}`)).json());
    const east = LocationResponse.parse((await get(`/api/v1/fr/location?lat=48.8600&lng=${BORDER_LNG + eps}`)).json());
    expect(west.data.location.zones.sublocality_level1?.code).toBe('75103');
    expect(east.data.location.zones.sublocality_level1?.code).toBe('75111');
    expect(west.data.location.zones.locality?.code).toBe('75056');
    expect(east.data.location.zones.locality?.code).toBe('75056');
  });

  it('gives each side of a commune border its own commune', async () => {
    const eps = 0.00005;
    const south = LocationResponse.parse((await get(`/api/v1/fr/location?lat=${BORDER_LAT - eps}&lng=-0.12`)).json());
    const north = LocationResponse.parse((await get(`/api/v1/fr/location?lat=${BORDER_LAT + eps}&lng=-0.12`)).json());
    expect(south.data.location.zones.locality?.code).toBe('33001');
    expect(north.data.location.zones.locality?.code).toBe('33138');
    expect(south.data.location.zones.sublocality_level1).toBeNull();
    expect(south.data.location.missing['zones.sublocality_level1']).toBe('not_applicable');
  });

  it('answers 422 outside_coverage outside France, judged on the country outline', async () => {
    const geneva = await get('/api/v1/fr/location?lat=46.2044&lng=6.1432');
    expect(geneva.statusCode).toBe(422);
    expect(ErrorBody.parse(geneva.json()).error.code).toBe('outside_coverage');
    // Lyon has no ingested zone in the fixture, but is in France: zones are null, not an error.
    const lyon = await get('/api/v1/fr/location?lat=45.7640&lng=4.8357');
    expect(lyon.statusCode).toBe(200);
    expect(LocationResponse.parse(lyon.json()).data.location.zones.locality).toBeNull();
  });

  it('serves labels in English on locale=en or Accept-Language', async () => {
    const a = LocationResponse.parse((await get('/api/v1/fr/location?lat=48.86&lng=2.36&locale=en')).json());
    expect(a.data.location.precision_label).toBe('Your coordinates');
    const b = LocationResponse.parse((await get('/api/v1/fr/location?lat=48.86&lng=2.36', t.key, { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' })).json());
    expect(b.data.location.precision_label).toBe('Your coordinates');
    const c = LocationResponse.parse((await get('/api/v1/fr/location?lat=48.86&lng=2.36')).json());
    expect(c.data.location.precision_label).toBe('Coordonnées fournies');
  });
});

describe('GET /api/v1/fr/location by address', () => {
  it.each([
    ['12 rue de Bretagne 75003 Paris', '12 Rue de Bretagne 75003 Paris 3e Arrondissement'],
    ['12 r. de bretagne paris', '12 Rue de Bretagne 75003 Paris 3e Arrondissement'],
    ['12 RUE DE BRETAGNE, 75003', '12 Rue de Bretagne 75003 Paris 3e Arrondissement'],
    ['12 bis rue de Bretagne 75003 Paris', '12 bis Rue de Bretagne 75003 Paris 3e Arrondissement'],
    ['12B rue de Bretagne Paris', '12 bis Rue de Bretagne 75003 Paris 3e Arrondissement'],
    ['30 r de la roquette 75011', '30 Rue de la Roquette 75011 Paris 11e Arrondissement'],
    ['2 bd Beaumarchais 75003 Paris', '2 Boulevard Beaumarchais 75003 Paris 3e Arrondissement'],
    ['3 route de coutras abzac', '3 Route de Coutras 33230 Abzac'],
  ])('finds %s at the number', async (q, label) => {
    const res = await get(`/api/v1/fr/location?address=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    const loc = LocationResponse.parse(res.json()).data.location;
    expect(loc.precision).toBe('address');
    expect(loc.address?.label).toBe(label);
    expect(loc.geocoding?.method).toBe('official_addresses');
    expect(loc.geocoding?.query).toBe(q);
  });

  it('tells two streets of the same name apart by postcode or city', async () => {
    const abzac = LocationResponse.parse((await get(`/api/v1/fr/location?address=${encodeURIComponent('1 rue de la Mairie Abzac')}`)).json());
    expect(abzac.data.location.zones.locality?.code).toBe('33001');
    const coutras = LocationResponse.parse((await get(`/api/v1/fr/location?address=${encodeURIComponent('5 rue de la mairie 33230 Coutras')}`)).json());
    expect(coutras.data.location.zones.locality?.code).toBe('33138');
  });

  it('answers at the street when the number is not an official address, and says so', async () => {
    const res = await get(`/api/v1/fr/location?address=${encodeURIComponent('99 rue de Bretagne 75003 Paris')}`);
    const body = LocationResponse.parse(res.json());
    expect(body.data.location.precision).toBe('street');
    expect(body.data.location.address?.street_number).toBeNull();
    expect(body.data.location.parcel).toBeNull();
    expect(body.data.location.missing.parcel).toBe('insufficient_precision');
    expect(body.meta.warnings.map((w) => w.code)).toContain('number_not_found');
  });

  it('answers 404 address_not_found for an unknown address without geocoder', async () => {
    const res = await get(`/api/v1/fr/location?address=${encodeURIComponent('7 impasse des Licornes 99999 Nullepart')}`);
    expect(res.statusCode).toBe(404);
    expect(ErrorBody.parse(res.json()).error.code).toBe('address_not_found');
  });
});
