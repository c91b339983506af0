import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGeocoder, isUnavailable, type GeocoderResult } from '../../../../api/location/geocoder/index.ts';

// Canned addok answers (shape of adresse.data.gouv.fr /search).
const MATCH = {
  type: 'FeatureCollection',
  version: 'draft',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.362541, 48.863031] },
      properties: {
        label: '12 bis Rue de Bretagne 75003 Paris',
        score: 0.9712,
        housenumber: '12 bis',
        id: '75103_1227_00012_bis',
        name: '12 bis Rue de Bretagne',
        postcode: '75003',
        citycode: '75103',
        x: 653032.09,
        y: 6863196.37,
        city: 'Paris',
        district: 'Paris 3e Arrondissement',
        context: '75, Paris, Île-de-France',
        type: 'housenumber',
        importance: 0.68,
        street: 'Rue de Bretagne',
      },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.36213, 48.86278] },
      properties: {
        label: 'Rue de Bretagne 75003 Paris',
        score: 0.71,
        id: '75103_1227',
        name: 'Rue de Bretagne',
        postcode: '75003',
        citycode: '75103',
        x: 653001,
        y: 6863170,
        city: 'Paris',
        context: '75, Paris, Île-de-France',
        type: 'street',
      },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.347, 48.859] },
      properties: {
        label: 'Paris',
        score: 0.5,
        id: '75056',
        name: 'Paris',
        postcode: '75001',
        citycode: '75056',
        city: 'Paris',
        context: '75, Paris, Île-de-France',
        type: 'municipality',
      },
    },
  ],
  attribution: 'BAN',
  licence: 'ETALAB-2.0',
  query: '12 bis rue de bretagne',
  limit: 5,
};

const EMPTY = { type: 'FeatureCollection', version: 'draft', features: [], query: 'zzzz' };

let server: Server;
let baseUrl: string;
const seen: URL[] = [];

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push(url);
    const q = url.searchParams.get('q') ?? '';
    if (url.pathname !== '/search/') return send(res, 404, '{"error":"not found"}');
    if (q === 'boom') return send(res, 500, '{"error":"internal"}');
    if (q === 'slow') {
      const t = setTimeout(() => send(res, 200, JSON.stringify(EMPTY)), 1500);
      res.on('close', () => clearTimeout(t));
      return;
    }
    if (q === 'malformed') return send(res, 200, '{"type":"FeatureCollection","features":[{');
    if (q === 'wrongshape') return send(res, 200, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature' }] }));
    if (q === 'nothing') return send(res, 200, JSON.stringify(EMPTY));
    return send(res, 200, JSON.stringify(MATCH));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('createGeocoder().search', () => {
  it('maps a match to typed results with precision and GeoJSON [lng, lat] read in the right order', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    const r = await geocoder.search('12 bis rue de Bretagne', { limit: 3, postcode: '75003' });
    expect(isUnavailable(r)).toBe(false);
    const results = r as GeocoderResult[];
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      label: '12 bis Rue de Bretagne 75003 Paris',
      score: 0.9712,
      precision: 'address',
      type: 'housenumber',
      latitude: 48.863031,
      longitude: 2.362541,
      housenumber: '12 bis',
      street: 'Rue de Bretagne',
      name: '12 bis Rue de Bretagne',
      postcode: '75003',
      city: 'Paris',
      citycode: '75103',
      context: '75, Paris, Île-de-France',
      id: '75103_1227_00012_bis',
      x: 653032.09,
      y: 6863196.37,
    });
    expect(results[1].precision).toBe('street');
    expect(results[1].housenumber).toBeNull();
    expect(results[2].precision).toBe('locality');

    const last = seen[seen.length - 1];
    expect(last.pathname).toBe('/search/');
    expect(last.searchParams.get('q')).toBe('12 bis rue de Bretagne');
    expect(last.searchParams.get('limit')).toBe('3');
    expect(last.searchParams.get('postcode')).toBe('75003');
  });

  it('defaults to limit=5 and omits postcode', async () => {
    const geocoder = createGeocoder({ baseUrl: baseUrl.replace(/\/$/, ''), timeoutMs: 1000 });
    await geocoder.search('rue de bretagne');
    const last = seen[seen.length - 1];
    expect(last.searchParams.get('limit')).toBe('5');
    expect(last.searchParams.has('postcode')).toBe(false);
  });

  it('returns [] for an empty result', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    expect(await geocoder.search('nothing')).toEqual([]);
  });

  it('returns [] without calling the server for a blank query', async () => {
    const before = seen.length;
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    expect(await geocoder.search('   ')).toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('reports a 500 as unavailable', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    expect(await geocoder.search('boom')).toMatchObject({ unavailable: true, reason: 'http_status', detail: '500' });
  });

  it('reports a slow answer past the timeout as unavailable', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 150 });
    const t0 = Date.now();
    expect(await geocoder.search('slow')).toMatchObject({ unavailable: true, reason: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(1200);
  });

  it('reports malformed JSON as unavailable', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    expect(await geocoder.search('malformed')).toMatchObject({ unavailable: true, reason: 'invalid_json' });
  });

  it('reports a response of the wrong shape as unavailable', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutMs: 1000 });
    expect(await geocoder.search('wrongshape')).toMatchObject({ unavailable: true, reason: 'invalid_response' });
  });

  it('reports a refused connection as unavailable', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const geocoder = createGeocoder({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
    expect(await geocoder.search('x')).toMatchObject({ unavailable: true, reason: 'network' });
  });

  it('never throws even if the injected fetch does', async () => {
    const geocoder = createGeocoder({
      baseUrl,
      timeoutMs: 1000,
      fetch: (() => {
        throw new TypeError('kaboom');
      }) as unknown as typeof fetch,
    });
    expect(await geocoder.search('x')).toMatchObject({ unavailable: true, reason: 'network' });
  });
});
