import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressIndexReady } from '../../../api/location/search/address-index.ts';
import { zoneIndexReady } from '../../../api/location/zones/zone-index.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// What an operator's load balancer and Prometheus read (issue 19): liveness, readiness, metrics, compression.
let t: TestApp;
beforeAll(async () => { t = await buildTestApp(await buildFixtureData()); });
afterAll(async () => { await t?.close(); });

describe('operations routes', () => {
  it('answers /health at once, and /ready 200 once the in-memory indexes are built', async () => {
    expect((await t.app.inject('/health')).json()).toEqual({ status: 'ok' });
    // Lookups start the builds; readiness follows them.
    await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=48.86305&lng=2.36196', headers: { authorization: `Bearer ${t.key}` } });
    await Promise.all([addressIndexReady(t.warehouse, 'fr'), zoneIndexReady(t.warehouse, 'fr')]);
    const ready = await t.app.inject('/ready');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', waiting: [] });
  });

  it('serves Prometheus metrics: requests per route pattern and status, latency, table rows', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=48.86305&lng=2.36196', headers: { authorization: `Bearer ${t.key}` } });
    await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=999&lng=2.36', headers: { authorization: `Bearer ${t.key}` } });
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/fr\/location",status="200"\} [1-9]/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/fr\/location",status="400"\} 1/);
    expect(res.body).toMatch(/http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/v1\/fr\/location"\}/);
    expect(res.body).toMatch(/table_rows\{country="fr",table="addresses"\} [1-9]/);
    // Never the raw URL: query strings stay out of the label set.
    expect(res.body).not.toContain('lat=');
  });

  it('gives the build time of each in-memory index, once it is built', async () => {
    await Promise.all([addressIndexReady(t.warehouse, 'fr'), zoneIndexReady(t.warehouse, 'fr')]);
    const body = (await t.app.inject('/metrics')).body;
    const seconds = (index: string) => Number(new RegExp(`^index_build_seconds\\{index="${index.replace('+', '\\+')}",country="fr"\\} (\\S+)$`, 'm').exec(body)?.[1]);
    expect(seconds('addresses')).toBeGreaterThan(0);
    expect(seconds('addresses')).toBeLessThan(600);
    expect(Number.isFinite(seconds('zone_cells+zones'))).toBe(true);
    const built = Number(/^index_built_timestamp_seconds\{index="addresses",country="fr"\} (\S+)$/m.exec(body)?.[1]);
    expect(Math.abs(built - Date.now() / 1000)).toBeLessThan(600);
    // An index never built (no table) has no series.
    expect(body).not.toMatch(/index_build_seconds\{index="addresses",country="be"\}/);
  });

  it('compresses large answers for clients that accept it, and not for the others', async () => {
    const zipped = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const document = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'));
    expect(document.openapi).toBe('3.1.0');
    const plain = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(document);
  });

  it('shares its schemas as components: every success response is a reference, every reference resolves', async () => {
    const text = (await t.app.inject('/openapi.json')).body;
    const doc = JSON.parse(text) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>>; components: { schemas: Record<string, unknown> } };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (response.content?.['application/json']) expect(response.content['application/json'].schema.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/schemas\//);
        }
      }
    }
    const refs = [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((id) => !(id in doc.components.schemas))).toEqual([]);
    // Shared pieces are written once: Measure appears in many responses, once as a component.
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['ErrorBody', 'Measure', 'Zone', 'ListingErrorBody']));
    // 920 kB with everything inlined (issue 19); 273 kB by reference, 316 kB with the examples. 384 kB once buildings, properties, risks of three countries and batch routes landed;
    // 465 kB with the multi-country report (2.12 amenities and transport), the listing API's write examples and the new catalog fields (session 8).
    expect(text.length).toBeLessThan(520_000);
  });

  it('documents every operation with a unique operationId, and numeric parameters as numbers with their bounds', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { operationId: string; parameters: { name: string; schema: Record<string, unknown> }[] }>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops.every((o) => typeof o.operationId === 'string')).toBe(true);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    const report = doc.paths['/api/v1/fr/report']!.get!;
    const param = (n: string) => report.parameters.find((p) => p.name === n)!.schema;
    expect(param('lat')).toEqual({ type: 'number', minimum: -90, maximum: 90 });
    expect(param('radius')).toEqual({ type: 'integer', minimum: 100, maximum: 2000 });
    expect(param('address')).toMatchObject({ type: 'string' });
  });
});
