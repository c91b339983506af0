import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

/**
 * Every location route under generated hostile input (issue 21, section 5): control characters,
 * NUL, lone surrogates, long strings, numbers at and past every bound, wrong types, duplicated
 * parameters, in the query and in the path. Whatever the input: a status below 500, the spec's
 * error body on every failure (section 7), never the caller's key echoed. The routes are those the
 * app registers under /api/ (read from its router), each checked against the OpenAPI document,
 * whose parameter names it fuzzes: a new route is covered without editing this file. Seeded and
 * bounded: FUZZ_RUNS=N per route for a longer run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let t: TestApp;
let routes: { url: string; query: string[]; path: string[] }[] = [];
/** The POST routes (the batch geocoding routes, a CSV body: issue 18). */
let postRoutes: string[] = [];
beforeAll(async () => {
  t = await buildTestApp(await buildFixtureData(), { env: { RATE_LIMIT_PER_MINUTE: '1000000', QUOTA_UNITS_PER_MONTH: '100000000' } });
  const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>> };
  const api = registeredRoutes(t.app).filter((r) => r.url.startsWith('/api/'));
  postRoutes = api.filter((r) => r.methods.includes('POST')).map((r) => r.url);
  routes = api.filter((r) => r.methods.includes('GET')).map((r) => {
    const op = doc.paths[r.url.replace(/:([A-Za-z_]+)/g, '{$1}')]?.get;
    return { url: r.url, query: op?.parameters.filter((p) => p.in === 'query').map((p) => p.name) ?? [], path: [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!) };
  });
});
afterAll(async () => { await t?.close(); });

/** Routes the router holds, with their methods, from Fastify's printed tree (one line per node, four columns per level). */
function registeredRoutes(app: TestApp['app']): { url: string; methods: string[] }[] {
  const out: { url: string; methods: string[] }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    if (m[3]) out.push({ url: stack.join(''), methods: m[3].split(', ') });
  }
  return out;
}

/** Parameter names beyond each route's own: other routes' names and an unknown one. */
const PARAMS = ['lat', 'lng', 'address', 'locale', 'include', 'property_id', 'property_type', 'radius', 'page', 'per_page', 'country', 'geometry', 'category', 'x'];
/** Values a careless or hostile client sends. */
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u202e', '%', '%00', '%ZZ', '', ' ', '+', '-', '.', '1e3', '0x1F', 'NaN', 'Infinity', '-0', '1,5'),
  fc.double().map(String),
  fc.integer({ min: -2_147_483_649, max: 2_147_483_649 }).map(String),
  fc.constantFrom('90', '90.0000001', '-90', '180', '180.0000001', '-180.5', '99', '2001', '100', '99.9', '2000', '0', '101', '9007199254740993'),
  fc.string({ minLength: 250, maxLength: 5000 }),
  fc.constantFrom('fr', 'en', 'de', 'FR', 'market', 'market.price_trend', 'location,weather', 'apartment', 'house', 'prp_1', 'prp_', 'BE', 'ca'),
);

/** Percent-encodes any string, a lone surrogate as the three bytes a careless client would send (WTF-8). */
export function encodeAny(v: string): string {
  let out = '';
  for (const ch of v) {
    const cp = ch.codePointAt(0)!;
    out += cp >= 0xd800 && cp <= 0xdfff
      ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
      : encodeURIComponent(ch);
  }
  return out;
}

const queryOf = (names: string[]) => fc.array(fc.tuple(fc.constantFrom(...names, ...PARAMS), hostile), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeAny(v)}`).join('&'));

/** A path value: hostile, or one the route takes (so the other parameters reach the handler). */
const pathValue = fc.oneof(hostile, fc.constantFrom('locality', 'sublocality_level1', 'administrative_area_level2', '75056', '21004', '06'));

describe('location routes under hostile input', () => {
  it('reads every location route the app serves, each documented', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) expect(r.query.length, `${r.url}: not in the OpenAPI document`).toBeGreaterThan(0);
    // The domains the hand-written list used to miss are in.
    for (const u of ['/api/v1/be/places', '/api/v1/be/access', '/api/v1/be/residents', '/api/v1/fr/catalog/hazards', '/api/v1/ca/zones/:level/:code/children']) {
      expect(routes.map((r) => r.url)).toContain(u);
    }
  });

  it('answer below 500 with the spec error body, and never echo the key, on every route', async () => {
    let requests = 0;
    for (const route of routes) {
      await fc.assert(fc.asyncProperty(queryOf(route.query), fc.array(pathValue, { minLength: route.path.length, maxLength: route.path.length }), fc.boolean(), fc.boolean(), async (q, values, rawPercent, placed) => {
        // Half the time a valid place first, so the hostile values reach the handlers, not only the parser;
        // now and then a raw, possibly malformed percent sequence: the router must answer it too.
        let i = 0;
        const path = route.url.replace(/:[A-Za-z_]+/g, () => encodeAny(values[i++]!) || '%20');
        const url = `${path}?${placed ? 'lat=48.86305&lng=2.36196&' : ''}${rawPercent ? q.replace(/%25/g, '%') : q}`;
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
        requests++;
        expect(res.statusCode, `${url} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.body).not.toContain(t.key);
        expect(res.headers['x-request-id']).toBeTruthy();
        if (res.statusCode >= 400) expect(ErrorBody.safeParse(res.json()).success, res.body.slice(0, 300)).toBe(true);
      }), { numRuns: RUNS, seed: SEED });
    }
    expect(requests).toBe(RUNS * routes.length);
  });

  it('answer hostile CSV bodies and column parameters on the batch routes below 500, with the spec error body', async () => {
    expect(postRoutes).toEqual(expect.arrayContaining(['/api/v1/fr/location/csv', '/api/v1/be/location/reverse/csv', '/api/v1/location/csv', '/api/v1/location/reverse/csv']));
    // A CSV whose cells and header are hostile values, sent with hostile column parameters and media types.
    const cell = hostile.map((v) => (/[",;\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v));
    const csv = fc.tuple(fc.array(cell, { minLength: 0, maxLength: 4 }), fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 6 }), fc.constantFrom(',', ';', '\t'), fc.constantFrom('\n', '\r\n'))
      .map(([head, rows, sep, eol]) => [head, ...rows].map((r) => r.join(sep)).join(eol));
    const params = fc.array(fc.tuple(fc.constantFrom('columns', 'postcode', 'citycode', 'lat_column', 'lng_column', 'locale', 'country', 'x'), fc.oneof(hostile, fc.constantFrom('a', 'b', 'lat', 'lng', 'a,b'))), { maxLength: 4 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeAny(v)}`).join('&'));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...postRoutes), params, csv, fc.constantFrom('text/csv', 'text/plain', 'application/json', 'text/csv; charset=latin1', 'multipart/form-data'), async (route, q, body, type) => {
      const res = await t.app.inject({ method: 'POST', url: `${route}?${q}`, payload: body, headers: { authorization: `Bearer ${t.key}`, 'content-type': type } });
      expect(res.statusCode, `${route}?${q} ${JSON.stringify(body).slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
      expect(res.body).not.toContain(t.key);
      if (res.statusCode >= 400) expect(ErrorBody.safeParse(res.json()).success, res.body.slice(0, 300)).toBe(true);
    }), { numRuns: RUNS, seed: SEED });
  });

  it('answer path segments of any shape on the zone routes below 500, unknown countries included', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('fr', 'ca', 'be', 'xx'), hostile, hostile, fc.boolean(), async (country, level, code, children) => {
      const url = `/api/v1/${country}/zones/${encodeAny(level)}/${encodeAny(code)}${children ? '/children' : ''}`;
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
      expect(res.statusCode, `${url} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(ErrorBody.safeParse(res.json()).success, res.body.slice(0, 300)).toBe(true);
    }), { numRuns: RUNS * 4, seed: SEED });
  });

  it('answer a duplicated parameter as invalid_parameter naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=48.86&lat=48.87&lng=2.36', headers: { authorization: `Bearer ${t.key}` } });
    expect(res.statusCode).toBe(400);
    expect(ErrorBody.parse(res.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'lat' } });
  });
});

describe('requests the HTTP parser refuses on a location path', () => {
  it('answer 431 request_head_too_large and 405 method_not_allowed in the spec error body, then close', async () => {
    const { rawRequest } = await import('../../helpers/raw-http.ts');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    for (const [text, status, code] of [
      [`GET /api/v1/fr/location?lat=48.86&lng=2.36 HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`, 431, 'request_head_too_large'],
      [`FOO /api/v1/fr/location HTTP/1.1\r\nHost: x\r\n\r\n`, 405, 'method_not_allowed'],
    ] as const) {
      const r = await rawRequest(port, text);
      expect(r.status).toBe(status);
      const body = ErrorBody.parse(JSON.parse(r.body));
      expect(body.error.code).toBe(code);
      expect(body.meta.request_id).toBe(r.headers['x-request-id']);
      expect(r.headers.connection).toBe('close');
    }
  });
});
