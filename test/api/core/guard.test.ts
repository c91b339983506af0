import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let dataDir: string;
let t: TestApp;
const get = (app: TestApp, url: string, key: string | null = app.key) =>
  app.app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });

beforeAll(async () => {
  dataDir = await buildFixtureData();
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t.close(); });

function expectError(res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = ErrorBody.parse(res.json());
  expect(body.error.code).toBe(code);
  expect(body.meta.request_id).toBe(res.headers['x-request-id']);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|SELECT|\/work\//);
  return body;
}

describe('authentication (spec 5)', () => {
  it('answers 401 unauthorized without a key, with an unknown key and with a revoked key', async () => {
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', null), 401, 'unauthorized');
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', 'svc_live_unknownunknownunknownunknown00'), 401, 'unauthorized');
    const { key, record } = await t.keys.create({ countries: ['fr'], sandbox: false });
    expect((await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', key)).statusCode).toBe(200);
    await t.keys.revoke(record.fingerprint);
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', key), 401, 'unauthorized');
  });

  it('answers 403 country_not_allowed on a country outside the key', async () => {
    const { key } = await t.keys.create({ countries: ['be'], sandbox: false });
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', key), 403, 'country_not_allowed');
  });

  it('answers 403 domain_not_allowed on a domain route outside the key', async () => {
    const { key } = await t.keys.create({ countries: ['fr'], domains: ['market'], sandbox: false });
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', key), 403, 'domain_not_allowed');
  });

  it('marks sandbox responses with meta.sandbox', async () => {
    const { key } = await t.keys.create({ countries: ['fr'], sandbox: true });
    expect(key.startsWith('svc_test_')).toBe(true);
    const body = (await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36', key)).json();
    expect(body.meta.sandbox).toBe(true);
  });
});

describe('errors (spec 7)', () => {
  it('answers the error body for an unknown route', async () => {
    expectError(await get(t, '/api/v1/fr/nowhere'), 404, 'not_found');
    expectError(await get(t, '/nothing/here', null), 404, 'not_found');
  });

  it('names the parameter and value of invalid_parameter', async () => {
    for (const [q, parameter, value] of [
      ['lat=91&lng=2.3', 'lat', '91'], ['lat=abc&lng=2.3', 'lat', 'abc'], ['lat=48.8', 'lng', null], ['lng=2.3', 'lat', null],
      ['', 'lat', null], ['lat=48.8&lng=2.3&locale=de', 'locale', 'de'], ['lat=48.8&lng=2.3&colour=red', 'colour', 'red'], ['address=ab', 'address', 'ab'],
    ] as const) {
      const body = expectError(await get(t, `/api/v1/fr/location?${q}`), 400, 'invalid_parameter');
      expect(body.error.details).toEqual({ parameter, value });
    }
  });

  it('answers a malformed URL or request with the error body, never a 500', async () => {
    for (const url of ['/api/v1/fr/location?address=%zz%zz', '/api/v1/fr/%zz', '/api/v1/fr/location?lat=48.8&lat=48.9&lng=2.3']) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBeLessThan(500);
      ErrorBody.parse(res.json());
    }
  });

  it('answers 400 ambiguous_location for lat/lng and address together', async () => {
    expectError(await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36&address=12+rue+de+Bretagne+Paris'), 400, 'ambiguous_location');
  });

  it('answers 503 maintenance with Retry-After when a maintenance is announced', async () => {
    const m = await buildTestApp(dataDir, { env: { MAINTENANCE_UNTIL: '2026-11-20T11:00:30Z' }, sql: t.sql });
    try {
      const res = await get(m, '/api/v1/fr/location?lat=48.86&lng=2.36');
      expectError(res, 503, 'maintenance');
      expect(res.headers['retry-after']).toBe('3600');
    } finally { await m.close(); }
  });
});

describe('headers and limits (spec 8)', () => {
  it('sends the limit headers, the request id and the version on every response', async () => {
    const res = await get(t, '/api/v1/fr/location?lat=48.86&lng=2.36');
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-quota-remaining', 'x-request-id']) expect(res.headers[h]).toBeDefined();
    expect(res.headers['x-api-version']).toBe('1.0');
    const err = await get(t, '/api/v1/fr/nowhere', null);
    expect(err.headers['x-api-version']).toBe('1.0');
    expect(err.headers['x-request-id']).toBeDefined();
  });

  it('keeps a well-formed X-Request-Id sent by the caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=48.86&lng=2.36', headers: { authorization: `Bearer ${t.key}`, 'x-request-id': 'partner-42' } });
    expect(res.headers['x-request-id']).toBe('partner-42');
    expect(res.json().meta.request_id).toBe('partner-42');
  });

  it('answers 429 rate_limited with Retry-After past the per-minute limit, and again next minute', async () => {
    const r = await buildTestApp(dataDir, { env: { RATE_LIMIT_PER_MINUTE: '2' }, sql: t.sql });
    try {
      expect((await get(r, '/api/v1/fr/location?lat=48.86&lng=2.36')).statusCode).toBe(200);
      const second = await get(r, '/api/v1/fr/location?lat=48.86&lng=2.36');
      expect(second.headers['x-ratelimit-remaining']).toBe('0');
      const third = await get(r, '/api/v1/fr/location?lat=48.86&lng=2.36');
      expectError(third, 429, 'rate_limited');
      expect(third.headers['retry-after']).toBe('30');
      r.clock.set(new Date('2026-11-20T10:01:00Z'));
      expect((await get(r, '/api/v1/fr/location?lat=48.86&lng=2.36')).statusCode).toBe(200);
    } finally { await r.close(); }
  });

  it('counts report units per computed domain and answers 429 quota_exceeded when the period is used up', async () => {
    const q = await buildTestApp(dataDir, { env: { QUOTA_UNITS_PER_MONTH: '3' }, sql: t.sql });
    try {
      const a = await get(q, '/api/v1/fr/location?lat=48.86&lng=2.36');
      expect(a.headers['x-quota-remaining']).toBe('2');
      // A failed request costs nothing.
      expect((await get(q, '/api/v1/fr/location?lat=91&lng=2.36')).statusCode).toBe(400);
      const b = await get(q, '/api/v1/fr/report?lat=48.86&lng=2.36');
      expect(b.headers['x-quota-remaining']).toBe('1');
      expect((await get(q, '/api/v1/fr/location?lat=48.86&lng=2.36')).headers['x-quota-remaining']).toBe('0');
      const over = await get(q, '/api/v1/fr/location?lat=48.86&lng=2.36');
      expectError(over, 429, 'quota_exceeded');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Catalog routes consume no unit.
      expect((await get(q, '/api/v1/fr/catalog/fields')).statusCode).toBe(200);
    } finally { await q.close(); }
  });
});

describe('documentation', () => {
  it('serves the OpenAPI 3.1 document generated from the schemas, and a docs page, without a key', async () => {
    const doc = (await get(t, '/openapi.json', null)).json();
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/api/v1/fr/location'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['lat', 'lng', 'address', 'locale', 'limit', 'postcode', 'citycode']);
    // The response schema is a shared component, referenced.
    const ref: string = op.responses['200'].content['application/json'].schema.$ref;
    expect(doc.components.schemas[ref.replace('#/components/schemas/', '')].properties.data).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429', '500', '503']));
    const page = await get(t, '/docs', null);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await get(t, '/docs/assets/swagger-ui-bundle.js', null)).statusCode).toBe(200);
    expect((await get(t, '/docs/init.js', null)).body).toContain('"url":"/openapi.json"');
  });
});
