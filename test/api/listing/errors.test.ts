/**
 * Every error case of spec section 7 on each prefix: status and `{ "errors": "..." }` body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListingErrorBody } from '../../../schemas/listing/common.ts';
import { createCredentialRepository } from '../../../api/listing/credentials.ts';
import { createListingStore } from '../../../api/listing/store/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { backends } from '../core/state/backends.ts';
import { condoPayload, listingFixture, PREFIX, VERSIONS_SERVED, type ListingFixture, type Version } from './fixtures.ts';

const RATE = 30;

describe.each(backends)('listing errors on $name', (backend) => {
  let f: ListingFixture;
  let failing: TestApp;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const db = await backend.open();
    f = await listingFixture(db.sql, { env: { LISTING_RATE_LIMIT_PER_MINUTE: String(RATE) } });
    // The same state behind a store whose reads fail as a lost database connection would.
    const store = createListingStore(db.sql);
    const boom = async () => { throw new Error('Connection terminated unexpectedly'); };
    failing = await buildTestApp(f.dataDir, { sql: db.sql, listingStore: { ...store, properties: { ...store.properties, search: boom, get: boom } } });
    cleanup = async () => { await failing.close(); await f.close(); await db.cleanup(); };
  });
  afterAll(() => cleanup());
  // Each test in its own rate-limit minute (the limit is low for the 429 case).
  let minute = 0;
  beforeEach(() => f.t.clock.set(new Date(Date.UTC(2026, 10, 20, 12, minute++, 5))));

  async function call(version: Version, opts: { method?: string; path: string; headers?: Record<string, string>; payload?: unknown; app?: TestApp }) {
    const r = await (opts.app ?? f.t).app.inject({
      method: (opts.method ?? 'GET') as 'GET', url: `${PREFIX[version]}${opts.path}`, headers: opts.headers ?? f.auth, payload: opts.payload as object,
    });
    expect(r.headers['x-api-version']).toBe(version);
    return { status: r.statusCode, errors: r.statusCode >= 400 ? ListingErrorBody.parse(r.json()).errors : null, headers: r.headers };
  }

  const credentialCases: [string, () => Record<string, string>, RegExp][] = [
    ['absent', () => ({}), /apiKey and apiToken headers are required/],
    ['half (no apiToken)', () => ({ apiKey: f.auth.apiKey }), /apiKey and apiToken headers are required/],
    ['malformed', () => ({ apiKey: 'nope', apiToken: 'nope' }), /invalid apiKey or apiToken/],
    ['a wrong token', () => ({ apiKey: f.auth.apiKey, apiToken: f.bxlOnly.apiToken }), /invalid apiKey or apiToken/],
    ['disabled', () => f.disabled, /API access is disabled/],
    ['without rights on the board', () => f.bxlOnly, /no rights on board gmtl/],
  ];

  it.each(credentialCases)('credentials %s: 400 with the reason in 3.0 and 3.1, 401 Not Authorized in 3.2', async (_name, headers, reason) => {
    for (const v of VERSIONS_SERVED) {
      const r = await call(v, { path: '/properties/search?mls_board=gmtl', headers: headers() });
      if (v === '3.2') expect(r).toMatchObject({ status: 401, errors: 'Not Authorized' });
      else {
        expect(r.status).toBe(400);
        expect(r.errors).toMatch(reason);
      }
    }
  });

  it('a credential on the board reads it; the same pair serves every prefix', async () => {
    for (const v of VERSIONS_SERVED) expect((await call(v, { path: '/properties/search?mls_board=bxl', headers: f.bxlOnly })).status).toBe(200);
  });

  it('data refused at save: 422 listing the refused fields on property writes in every version', async () => {
    const before = await f.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM listing_properties`);
    for (const v of VERSIONS_SERVED) {
      const shape = await call(v, { method: 'POST', path: '/properties?mls_board=gmtl', payload: { ...condoPayload(f.agencyId, f.userId), price: -5, bedrooms: 'two', surprise: 1 } });
      expect(shape.status).toBe(422);
      expect(shape.errors).toMatch(/^Validation failed: /);
      for (const field of ['price', 'bedrooms', 'surprise']) expect(shape.errors).toContain(field);
      const rules = await call(v, { method: 'POST', path: '/properties?mls_board=gmtl', payload: condoPayload(f.otherBoardAgencyId, f.userId, { rent: 1500, status: 'sold' }) });
      expect(rules.status).toBe(422);
      for (const field of ['rent', 'agency_id']) expect(rules.errors).toContain(field);
    }
    expect(await f.sql.query(`SELECT count(*)::int AS n FROM listing_properties`)).toEqual(before);
  });

  it('data refused at save on the user and agency writes: 400 in 3.0 and 3.1, 422 in 3.2', async () => {
    for (const v of VERSIONS_SERVED) {
      const user = await call(v, { method: 'POST', path: '/users?mls_board=gmtl', payload: { agency_id: f.agencyId, email: 'not an e-mail', first_name: '', last_name: 'X' } });
      expect(user.status).toBe(v === '3.2' ? 422 : 400);
      expect(user.errors).toMatch(/Validation failed: .*email.*first_name/);
      const duplicate = await call(v, { method: 'POST', path: '/users?mls_board=gmtl', payload: { agency_id: f.agencyId, email: 'JULIE.TREMBLAY@example.ca', first_name: 'J', last_name: 'T' } });
      expect(duplicate.status).toBe(v === '3.2' ? 422 : 400);
      expect(duplicate.errors).toMatch(/email \(already used/);
      const agency = await call(v, { method: 'PATCH', path: `/agencies/${f.agencyId}?mls_board=gmtl`, payload: { country: 'canada' } });
      expect(agency.status).toBe(v === '3.2' ? 422 : 400);
      expect(agency.errors).toContain('country');
    }
  });

  it('internal error: 400 with the technical message in 3.0 and 3.1, 500 Internal Server Error with no detail in 3.2', async () => {
    for (const v of VERSIONS_SERVED) {
      for (const path of ['/properties/search?mls_board=gmtl', '/properties/1?mls_board=gmtl']) {
        const r = await call(v, { path, app: failing });
        if (v === '3.2') expect(r).toMatchObject({ status: 500, errors: 'Internal Server Error' });
        else expect(r).toMatchObject({ status: 400, errors: 'Error: Connection terminated unexpectedly' });
      }
      // Other routes of the same app are not affected.
      expect((await call(v, { path: '/agencies?mls_board=gmtl', app: failing })).status).toBe(200);
    }
  });

  it('404 in every version: unknown resource, id, route or locale', async () => {
    for (const v of VERSIONS_SERVED) {
      expect(await call(v, { path: '/properties/999999?mls_board=gmtl' })).toMatchObject({ status: 404, errors: 'property 999999 not found in board gmtl' });
      expect((await call(v, { path: '/properties/abc?mls_board=gmtl' })).status).toBe(404);
      expect((await call(v, { path: '/gateways/999999?mls_board=gmtl' })).status).toBe(404);
      expect(await call(v, { path: '/listings?mls_board=gmtl' })).toMatchObject({ status: 404, errors: expect.stringMatching(/^no route GET /) });
      // A resource of another board is not found through this one.
      const other = await call(v, { path: `/agencies/${f.otherBoardAgencyId}?mls_board=gmtl` });
      expect(other.status).toBe(404);
    }
    const r = await f.t.app.inject({ url: `/xx/api/v3.2/properties/search?mls_board=gmtl`, headers: f.auth });
    expect(r.statusCode).toBe(404);
    expect(ListingErrorBody.parse(r.json()).errors).toMatch(/locale xx is not served/);
  });

  it('400 in every version for a request to correct: mls_board missing, a bad filter, a bad cursor, a body that is not JSON', async () => {
    for (const v of VERSIONS_SERVED) {
      expect(await call(v, { path: '/properties/search' })).toMatchObject({ status: 400, errors: 'mls_board is required' });
      expect(await call(v, { path: '/properties/search?mls_board=gmtl&status=lost' })).toMatchObject({ status: 400, errors: expect.stringMatching(/^status: /) });
      expect(await call(v, { path: '/properties/search?mls_board=gmtl&colour=red' })).toMatchObject({ status: 400, errors: 'unknown parameter colour' });
      expect(await call(v, { path: '/properties/search?mls_board=gmtl&cursor=zzz' })).toMatchObject({ status: 400, errors: expect.stringMatching(/invalid cursor/) });
      const r = await f.t.app.inject({ method: 'POST', url: `${PREFIX[v]}/properties?mls_board=gmtl`, headers: { ...f.auth, 'content-type': 'application/json' }, payload: '{"price": ' });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ errors: 'the request body is not valid JSON' });
      const malformed = await f.t.app.inject({ url: `${PREFIX[v]}/properties/%E0%A4%A?mls_board=gmtl`, headers: f.auth });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.headers['x-api-version']).toBe(v);
      expect(ListingErrorBody.parse(malformed.json()).errors).toBe('malformed URL');
    }
  });

  it('429 in every version past the rate, with Retry-After; the count is per credential across prefixes', async () => {
    const credentials = createCredentialRepository(f.sql);
    const { apiKey, apiToken } = await credentials.create({ boards: ['gmtl'] });
    const headers = { apiKey, apiToken };
    for (let i = 0; i < RATE; i++) expect((await call(VERSIONS_SERVED[i % 3], { path: '/gateways?mls_board=gmtl', headers })).status).toBe(200);
    for (const v of VERSIONS_SERVED) {
      const r = await call(v, { path: '/gateways?mls_board=gmtl', headers });
      expect(r.status).toBe(429);
      expect(r.errors).toMatch(/Rate limit exceeded/);
      expect(r.headers['retry-after']).toBe('55');
    }
    // Other credentials are not affected; the next minute opens again.
    expect((await call('3.2', { path: '/gateways?mls_board=gmtl' })).status).toBe(200);
    f.t.clock.set(new Date(f.t.clock.now().getTime() + 60_000));
    expect((await call('3.0', { path: '/gateways?mls_board=gmtl', headers })).status).toBe(200);
  });
});
