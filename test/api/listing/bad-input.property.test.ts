/**
 * Property-based bad input at every route input of the listing API (issue 21, section 5), on
 * each version: generated query strings, path ids, JSON bodies (a valid payload with one field
 * replaced by a hostile value, or any JSON at all). Every answer is below 500, carries its
 * version's X-Api-Version and, when refused, `{ "errors": "..." }`; no apiToken is echoed; a
 * refused write leaves every listing table as it was. Seeded; FUZZ_RUNS scales it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingErrorBody } from '../../../schemas/listing/common.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { fuzzParams, hostileJson, pathSegment, queryString, Tally } from '../../helpers/fuzz.ts';
import { condoPayload, listingFixture, type ListingFixture } from './fixtures.ts';

const PREFIXES = { '3.0': 'v3', '3.1': 'v3.1', '3.2': 'v3.2' } as const;
const SEARCH = ['mls_board', 'limit', 'cursor', 'status', 'property_type', 'transaction_type', 'agency_id', 'user_id', 'city', 'postal_code',
  'min_price', 'max_price', 'min_rent', 'max_rent', 'min_bedrooms', 'max_bedrooms', 'min_bathrooms', 'min_area', 'max_area', 'amenities', 'updated_since'] as const;
const LISTS: Record<string, readonly string[]> = {
  '/properties/search': SEARCH,
  '/properties': SEARCH,
  '/agencies': ['mls_board', 'limit', 'cursor', 'country', 'name'],
  '/users': ['mls_board', 'limit', 'cursor', 'agency_id', 'email'],
  '/gateways': ['mls_board', 'limit', 'cursor', 'kind', 'active'],
};
const TABLES = ['agencies', 'users', 'listing_agency_profiles', 'listing_user_profiles', 'listing_properties', 'listing_gateways', 'listing_property_gateways'];

/** Replaces the value at one path of `obj` (a path that may not exist yet: an unknown field). */
function withValueAt(obj: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const base = obj !== null && typeof obj === 'object' ? (Array.isArray(obj) ? [...obj] : { ...obj }) : {};
  (base as Record<string, unknown>)[head!] = withValueAt((base as Record<string, unknown>)[head!], rest, value);
  return base;
}

/** Every path of a JSON value's leaves and containers. */
function pathsOf(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== 'object') return [prefix];
  return [prefix, ...Object.entries(v).flatMap(([k, x]) => pathsOf(x, [...prefix, k]))];
}

describe.each(backends)('listing bad input (property-based) on $name', (backend) => {
  let db: Isolated;
  let f: ListingFixture;
  let payloads: Record<string, unknown>;
  const tally = new Tally();
  beforeAll(async () => {
    db = await backend.open();
    f = await listingFixture(db.sql, { env: { LISTING_RATE_LIMIT_PER_MINUTE: '1000000' } });
    payloads = {
      '/properties': condoPayload(f.agencyId, f.userId),
      '/agencies': { name: 'Agence du Plateau', country: 'CA', phone: '+1 514 555 0100', email: 'info@plateau.example.ca', website: 'https://plateau.example.ca', license_number: 'A-1' },
      '/users': { agency_id: f.agencyId, email: 'new.broker@example.ca', first_name: 'Léa', last_name: 'Roy', languages: ['fr'], title: 'Courtière' },
      '/gateways': { code: 'centris', name: 'Centris', kind: 'portal', format: 'json', endpoint_url: 'https://feeds.example.ca/in', active: true },
    };
  });
  afterAll(async () => {
    console.log(tally.summary(`listing on ${backend.name}`));
    await f?.close();
    await db?.cleanup();
  });

  const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`))[0]!.n] as const)));
  const version = fc.constantFrom('3.0', '3.1', '3.2') as fc.Arbitrary<keyof typeof PREFIXES>;
  const locale = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('fr', 'fr-CA', 'en') }, { weight: 1, arbitrary: pathSegment });

  async function send(v: keyof typeof PREFIXES, loc: string, method: string, path: string, payload?: string, write = false) {
    const before = write ? await counts() : null;
    const url = `/${loc}/api/${PREFIXES[v]}${path}`;
    const res = await f.t.app.inject({ method: method as 'GET', url, headers: { ...f.auth, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, payload });
    tally.record(res.statusCode, `${method} ${url} ${payload ?? ''}`);
    expect(res.statusCode, `${method} ${url} ${payload ?? ''}: ${res.body}`).toBeLessThan(500);
    expect(res.body.includes(f.auth.apiToken!)).toBe(false);
    if (res.statusCode >= 400) {
      if (/^(fr|fr-CA|en)$/.test(loc) || res.headers['x-api-version']) expect(res.headers['x-api-version']).toBe(v);
      if (method !== 'HEAD') expect(ListingErrorBody.safeParse(JSON.parse(res.body)).success, res.body).toBe(true);
      if (before) expect(await counts()).toEqual(before);
    }
    return res;
  }

  it('list routes: any query string, any locale segment', async () => {
    const route = fc.constantFrom(...Object.keys(LISTS));
    await fc.assert(fc.asyncProperty(version, locale, route.chain((r) => fc.tuple(fc.constant(r), queryString(LISTS[r]!, { mls_board: 'gmtl', limit: '5' }))), async (v, loc, [r, q]) => {
      await send(v, loc, 'GET', `${r}?${q}`);
    }), fuzzParams);
  });

  it('one resource: any id, any query, any method', async () => {
    const resource = fc.constantFrom('/properties', '/agencies', '/users', '/gateways');
    const method = fc.constantFrom('GET', 'DELETE', 'PATCH', 'PUT', 'POST', 'HEAD', 'OPTIONS');
    await fc.assert(fc.asyncProperty(version, resource, pathSegment, method, queryString(['mls_board'], { mls_board: 'gmtl' }), async (v, r, id, m, q) => {
      await send(v, 'fr', m, `${r}/${id}?${q}`, m === 'PATCH' || m === 'POST' ? '{}' : undefined, m !== 'GET' && m !== 'HEAD');
    }), fuzzParams);
  });

  it('create and update: a valid payload with one value replaced (or added), or any JSON; a refusal writes nothing', async () => {
    const resource = fc.constantFrom('/properties', '/agencies', '/users', '/gateways');
    await fc.assert(fc.asyncProperty(version, resource, fc.nat(), hostileJson, fc.constantFrom('POST', 'PATCH'), fc.integer({ min: 0, max: 9 }), async (v, r, pick, value, m, mode) => {
      const valid = payloads[r];
      let body: unknown;
      if (mode === 0) body = value;
      else {
        const paths = pathsOf(valid).filter((p) => p.length > 0);
        // mode 1: an unknown field, named by the hostile value when it is text.
        const path = mode === 1 ? [typeof value === 'string' && value !== '' ? value.slice(0, 30) : 'x'] : paths[pick % paths.length]!;
        body = withValueAt(valid, path, value);
      }
      const id = r === '/properties' ? 1 : r === '/agencies' ? f.agencyId : r === '/users' ? f.userId : 1;
      const path = m === 'POST' ? `${r}?mls_board=gmtl` : `${r}/${id}?mls_board=gmtl`;
      let text: string;
      try { text = JSON.stringify(body) ?? 'null'; } catch { text = 'null'; }
      const res = await send(v, 'fr', m, path, text, true);
      // A payload that was taken is removed again, so the tables stay small and comparable.
      if (m === 'POST' && res.statusCode === 201) {
        const created = (res.json() as { data: { id: number } }).data.id;
        await f.t.app.inject({ method: 'DELETE', url: `/fr/api/v3.2${r}/${created}?mls_board=gmtl`, headers: f.auth });
      }
    }), fuzzParams);
  });

  it('bodies that are not JSON objects, or not JSON at all', async () => {
    const text = fc.oneof(hostileJson.map((v) => JSON.stringify(v) ?? 'null'), fc.string({ maxLength: 50 }), fc.constantFrom('', '{', '{"a":', '\u0000', '[]', 'null'));
    const ctype = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1');
    await fc.assert(fc.asyncProperty(version, fc.constantFrom('/properties', '/agencies', '/users', '/gateways'), text, ctype, async (v, r, t, ct) => {
      const before = await counts();
      const url = `/fr/api/${PREFIXES[v]}${r}?mls_board=gmtl`;
      const res = await f.t.app.inject({ method: 'POST', url, headers: { ...f.auth, 'content-type': ct }, payload: t });
      tally.record(res.statusCode, `POST ${url} ${ct} ${t}`);
      expect(res.statusCode, `${ct} ${t}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) {
        expect(ListingErrorBody.safeParse(JSON.parse(res.body)).success, res.body).toBe(true);
        expect(await counts()).toEqual(before);
      } else {
        await f.t.app.inject({ method: 'DELETE', url: `/fr/api/v3.2${r}/${(res.json() as { data: { id: number } }).data.id}?mls_board=gmtl`, headers: f.auth });
      }
    }), fuzzParams);
    expect(tally.serverErrors).toEqual([]);
  });
});
