/**
 * The requests of issue 21 against the listing API: text, integers and dates the store cannot
 * hold answer 400 (query) or the refusal of the data (3.2: 422; 3.0/3.1: 400 on the account
 * routes), with `{ "errors": "..." }` and X-Api-Version, never 5xx, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingErrorBody } from '../../../schemas/listing/common.ts';
import { rawRequest } from '../../helpers/raw-http.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { condoPayload, listingFixture, PREFIX, VERSIONS_SERVED, type ListingFixture, type Version } from './fixtures.ts';

describe.each(backends)('listing under bad input on $name', (backend) => {
  let db: Isolated;
  let f: ListingFixture;
  beforeAll(async () => {
    db = await backend.open();
    f = await listingFixture(db.sql);
  });
  afterAll(async () => {
    await f?.close();
    await db?.cleanup();
  });

  async function call(version: Version, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) {
    const r = await f.t.app.inject({ method, url: `${PREFIX[version]}${path}`, headers: f.auth, payload: payload as object });
    expect(r.headers['x-api-version']).toBe(version);
    return { status: r.statusCode, errors: r.statusCode >= 400 ? ListingErrorBody.parse(r.json()).errors : null };
  }
  const rows = async (table: string) => (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it('query text with NUL, integers past int4 or not in decimal digits, impossible dates: 400 in every version', async () => {
    const cases: [string, RegExp][] = [
      ['/properties/search?mls_board=gmtl&city=Mont%00real', /city: must not contain the NUL/],
      ['/properties/search?mls_board=gmtl&postal_code=H2J%00', /postal_code/],
      ['/agencies?mls_board=gmtl&name=a%00', /name/],
      ['/users?mls_board=gmtl&email=a%00@b.c', /email/],
      ['/properties/search?mls_board=gmtl&min_bedrooms=2147483648', /min_bedrooms: at most 2147483647/],
      ['/properties/search?mls_board=gmtl&limit=0x1F', /limit: a whole number in decimal digits/],
      ['/properties/search?mls_board=gmtl&agency_id=1e0', /agency_id/],
      ['/properties/search?mls_board=gmtl&min_price=1e3', /min_price/],
      ['/properties/search?mls_board=gmtl&updated_since=0000-01-01T00:00:00Z', /updated_since: a real calendar day/],
      ['/properties/search?mls_board=gmtl&updated_since=2026-01-01T00:00:00%2B23:59', /updated_since: a UTC offset/],
      ['/properties/search?mls_board=gmtl&updated_since=2026-02-30T00:00:00Z', /updated_since/],
      ['/properties/search?mls_board=gmtl&cursor=%00', /cursor/],
    ];
    for (const v of VERSIONS_SERVED) {
      for (const [path, message] of cases) {
        const r = await call(v, 'GET', path);
        expect(r.status, `${v} ${path}`).toBe(400);
        expect(r.errors, path).toMatch(message);
      }
    }
    expect((await call('3.2', 'GET', '/properties/search?mls_board=gmtl&min_bedrooms=2147483647&updated_since=2026-01-01T00:00:00%2B14:00')).status).toBe(200);
  });

  it('written text with NUL or a lone surrogate, ids past int8: refused data, nothing written', async () => {
    const before = { agencies: await rows('agencies'), profiles: await rows('listing_agency_profiles'), properties: await rows('listing_properties') };
    for (const v of VERSIONS_SERVED) {
      // Account routes answered 400 before 3.2 (spec section 7), properties 422 already.
      const accountStatus = v === '3.2' ? 422 : 400;
      for (const agency of [{ name: 'Agence\u0000', country: 'CA' }, { name: 'Agence', country: 'CA', phone: '\ud800' }]) {
        const r = await call(v, 'POST', '/agencies?mls_board=gmtl', agency);
        expect(r.status, JSON.stringify(agency)).toBe(accountStatus);
        expect(r.errors).toMatch(/^Validation failed: (name|phone) \(must not contain/);
      }
      const nul = await call(v, 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId, { description: 'a\u0000b' }));
      expect(nul.status).toBe(422);
      expect(nul.errors).toContain('description (must not contain the NUL');
      const nested = await call(v, 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId, { address: { ...condoPayload(0, 0).address, city: '\udc00x' } }));
      expect(nested.status).toBe(422);
      expect(nested.errors).toContain('address.city');
      const big = await call(v, 'POST', '/properties?mls_board=gmtl', condoPayload(1e20, f.userId));
      expect(big.status).toBe(422);
      expect(big.errors).toContain('agency_id');
      const user = await call(v, 'POST', '/users?mls_board=gmtl', { agency_id: 2 ** 63, email: 'x@y.ca', first_name: 'A', last_name: 'B' });
      expect(user.status).toBe(accountStatus);
    }
    expect({ agencies: await rows('agencies'), profiles: await rows('listing_agency_profiles'), properties: await rows('listing_properties') }).toEqual(before);
  });

  it('a path id that cannot exist is not found; a head over 16 kB or an unknown method answer in the listing body', async () => {
    for (const v of VERSIONS_SERVED) {
      const put = await f.t.app.inject({ method: 'PUT', url: `${PREFIX[v]}/properties/1?mls_board=gmtl`, headers: f.auth });
      expect(put.statusCode).toBe(405);
      expect(put.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
      expect(ListingErrorBody.parse(put.json()).errors).toMatch(/PUT is not allowed/);
      expect((await f.t.app.inject({ method: 'POST', url: `${PREFIX[v]}/agencies/1`, headers: f.auth })).statusCode).toBe(405);
      expect((await call(v, 'GET', '/properties/99999999999999999999?mls_board=gmtl')).status).toBe(404);
      expect((await call(v, 'GET', '/properties/1%00?mls_board=gmtl')).status).toBe(404);
    }
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (f.t.app.server.address() as { port: number }).port;
    for (const [text, status] of [
      [`GET ${PREFIX['3.1']}/properties/search?mls_board=gmtl HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`, 431],
      [`FOO ${PREFIX['3.1']}/properties HTTP/1.1\r\nHost: x\r\n\r\n`, 405],
    ] as const) {
      const r = await rawRequest(port, text);
      expect(r.status).toBe(status);
      expect(ListingErrorBody.parse(JSON.parse(r.body)).errors).toBeTruthy();
      expect(r.headers['x-api-version']).toBe('3.1');
      expect(r.headers['x-request-id']).toBeTruthy();
      expect(r.headers.connection).toBe('close');
    }
  });
});
