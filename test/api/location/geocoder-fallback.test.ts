import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeocoder } from '../../../api/location/geocoder/index.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { VariantLocationResponse } from '../../../api/location/variant/routes.ts';
import { ErrorBody } from '../../../schemas/error.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// A local addok server: it knows one address absent from the fixture's official addresses.
let server: Server;
let calls: string[] = [];
let up = true;
let t: TestApp;

beforeAll(async () => {
  server = createServer((req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
    calls.push(q);
    if (!up) { res.writeHead(502).end(); return; }
    const features = /damrak/i.test(q) ? [{
      type: 'Feature', geometry: { type: 'Point', coordinates: [4.8952, 52.3745] },
      properties: { label: 'Damrak 1 1012 Amsterdam', score: 0.88, housenumber: '1', street: 'Damrak', name: 'Damrak 1', postcode: '1012', city: 'Amsterdam', citycode: null, type: 'housenumber', context: 'Noord-Holland' },
    }] : /licornes/i.test(q) ? [{
      type: 'Feature', geometry: { type: 'Point', coordinates: [2.3790, 48.8600] },
      properties: { label: '8 Impasse des Licornes 75011 Paris', score: 0.91, housenumber: '8', street: 'Impasse des Licornes', name: '8 Impasse des Licornes', postcode: '75011', city: 'Paris', citycode: '75111', type: 'housenumber', x: 654000, y: 6862000, context: '75, Paris, Île-de-France' },
    }] : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'FeatureCollection', version: 'draft', features, query: q }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  t = await buildTestApp(await buildFixtureData(), { geocoder: createGeocoder({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 }) });
});
afterAll(async () => { await t.close(); server.close(); });

describe('address search order (spec 2.6)', () => {
  const url = `/api/v1/fr/location?address=${encodeURIComponent('8 impasse des Licornes 75011 Paris')}`;
  const get = (u: string) => t.app.inject({ method: 'GET', url: u, headers: { authorization: `Bearer ${t.key}` } });

  it('asks the geocoder last, records its answer, and then answers from the resolved addresses', async () => {
    calls = [];
    const first = LocationResponse.parse((await get(url)).json()).data.location;
    expect(first.geocoding?.method).toBe('geocoder');
    expect(first.precision).toBe('address');
    expect(first.zones.sublocality_level1?.code).toBe('75111');
    expect(calls).toHaveLength(1);
    up = false; // the geocoder is no longer needed
    const second = LocationResponse.parse((await get(url)).json()).data.location;
    expect(second.geocoding?.method).toBe('resolved_addresses');
    expect(second.latitude).toBe(first.latitude);
    expect(calls).toHaveLength(1);
    up = true;
  });

  it('does not ask the geocoder for an official address', async () => {
    calls = [];
    await get(`/api/v1/fr/location?address=${encodeURIComponent('12 rue de Bretagne 75003 Paris')}`);
    expect(calls).toHaveLength(0);
  });

  it('answers 404 address_not_found when nobody knows the address, and says the geocoder was down', async () => {
    const res = await get(`/api/v1/fr/location?address=${encodeURIComponent('1 rue Inconnue 75011 Paris')}`);
    expect(ErrorBody.parse(res.json()).error.code).toBe('address_not_found');
    up = false;
    const down = ErrorBody.parse((await get(`/api/v1/fr/location?address=${encodeURIComponent('2 rue Inconnue 75011 Paris')}`)).json());
    expect(down.error.code).toBe('address_not_found');
    expect(down.error.details.geocoder).toBe('unavailable');
    up = true;
  });
});

describe('address search order of the multi-country variant (spec 4.5)', () => {
  const get = (u: string) => t.app.inject({ method: 'GET', url: u, headers: { authorization: `Bearer ${t.key}` } });

  it('answers from the official addresses without asking the geocoder', async () => {
    up = true; calls = [];
    const res = await get(`/api/v1/location?address=${encodeURIComponent('12 rue de Bretagne 75003 Paris')}`);
    expect(VariantLocationResponse.parse(res.json()).data.location.geocoding?.method).toBe('official_addresses');
    expect(calls).toEqual([]);
  });

  it('asks the geocoder once for an address no country publishes, and finds its country by position', async () => {
    up = true; calls = [];
    // Another spelling than the country route's test above, which recorded its own.
    const res = await get(`/api/v1/location?address=${encodeURIComponent('8, impasse des Licornes, Paris')}`);
    expect(res.statusCode, res.body).toBe(200);
    const loc = VariantLocationResponse.parse(res.json()).data.location;
    expect(loc).toMatchObject({ country: 'FR', precision: 'address', address: { number: '8', street: 'Impasse des Licornes', postal_code: '75011', municipality: 'Paris' } });
    expect(loc.geocoding?.method).toBe('geocoder');
    expect(loc.zones.district?.code).toBe('75111');
    expect(calls).toHaveLength(1);
    // Recorded: the next request is answered from the resolved addresses, without the geocoder.
    const again = VariantLocationResponse.parse((await get(`/api/v1/location?address=${encodeURIComponent('8 Impasse des Licornes PARIS')}`)).json()).data.location;
    expect(again.geocoding?.method).toBe('resolved_addresses');
    expect(again.zones.district?.code).toBe('75111');
    expect(calls).toHaveLength(1);
  });

  it('answers 422 outside_coverage for a geocoded address outside the three countries, 404 when nothing knows it', async () => {
    up = true;
    const out = await get(`/api/v1/location?address=${encodeURIComponent('Damrak 1, 1012 Amsterdam')}`);
    expect(out.statusCode).toBe(422);
    expect(ErrorBody.parse(out.json()).error.code).toBe('outside_coverage');
    const none = await get(`/api/v1/location?address=${encodeURIComponent('3 chemin des Nulle-Part 99999 Ailleurs')}`);
    expect(ErrorBody.parse(none.json()).error.code).toBe('address_not_found');
  });
});
