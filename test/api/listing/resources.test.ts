/**
 * Properties, agencies, users and gateways through the API: CRUD, rights per board, filters,
 * cursor pagination, headers and the OpenAPI document. Every body is parsed with the contract
 * of the version served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountRepository } from '../../../api/accounts/accounts.ts';
import { responseSchema, type ResponseKind } from '../../../api/listing/versions/index.ts';
import { buildTestApp } from '../../helpers/app.ts';
import { backends } from '../core/state/backends.ts';
import { inlineRefs } from '../../helpers/openapi.ts';
import { condoPayload, listingFixture, PREFIX, VERSIONS_SERVED, viagerPayload, type ListingFixture, type Version } from './fixtures.ts';

describe.each(backends)('listing resources on $name', (backend) => {
  let f: ListingFixture;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const db = await backend.open();
    f = await listingFixture(db.sql, { env: { LISTING_V3_SUNSET: '2027-06-30' } });
    cleanup = async () => { await f.close(); await db.cleanup(); };
  });
  afterAll(() => cleanup());

  async function call(kind: ResponseKind | null, method: string, path: string, payload?: unknown, version: Version = '3.2', headers = f.auth) {
    const r = await f.t.app.inject({ method: method as 'GET', url: `${PREFIX[version]}${path}`, headers, payload: payload as object });
    const body = kind && r.statusCode < 300 ? (responseSchema(kind, version).parse(r.json()) as any) : r.body ? r.json() : null;
    return { status: r.statusCode, body, headers: r.headers };
  }

  it('properties: create, get, update, delete; an update keeps the fields not given', async () => {
    const created = await call('property.one', 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId));
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ mls_board: 'gmtl', price: 489000, financial: { currency: 'CAD' }, address: { unit_number: '3', city: 'Montréal' } });
    expect(created.body.data.price_formatted['fr-CA']).toBe('489\u00a0000\u00a0$');
    expect(created.body.data.price_formatted.en).toBe('CA$489,000');
    const updated = await call('property.one', 'PATCH', `/properties/${id}?mls_board=gmtl`, { status: 'sold', sold_price: 480000 }, '3.0');
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ status: 'sold', sold_price: 480000, price: 489000, bedrooms: 2 });
    expect((await call('property.one', 'GET', `/properties/${id}?mls_board=gmtl`, undefined, '3.1')).body.data.address.unit_number).toBe('3');
    const deleted = await call(null, 'DELETE', `/properties/${id}?mls_board=gmtl`, undefined, '3.1');
    expect(deleted.status).toBe(204);
    expect(deleted.headers['x-api-version']).toBe('3.1');
    expect((await call(null, 'GET', `/properties/${id}?mls_board=gmtl`)).status).toBe(404);
  });

  it('writes take the same payload on every prefix (life annuity as numbers) and store the same listing', async () => {
    const ids: number[] = [];
    for (const v of VERSIONS_SERVED) {
      const r = await call(null, 'POST', '/properties?mls_board=bxl', viagerPayload(f.otherBoardAgencyId, { address: { city: `Ixelles ${v}`, country: 'BE' } }), v);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.data.id);
    }
    const read = await Promise.all(ids.map((id) => call('property.one', 'GET', `/properties/${id}?mls_board=bxl`)));
    const strip = (p: any) => ({ ...p, id: 0, address: { ...p.address, city: '' }, created_at: '', updated_at: '' });
    expect(strip(read[0].body.data)).toEqual(strip(read[2].body.data));
    expect(strip(read[1].body.data)).toEqual(strip(read[2].body.data));
    expect(read[0].body.data.life_lease).toEqual({ venal_value: 240000, life_annuity: 850.75 });
    // Cents are refused on writes, as in every version.
    const cents = await call(null, 'POST', '/properties?mls_board=bxl', viagerPayload(f.otherBoardAgencyId, { life_lease: { venal_value: { cents: 1, currency_iso: 'eur' } } }), '3.0');
    expect(cents.status).toBe(422);
  });

  it('search filters and cursor pagination', async () => {
    const rentals = [1200, 1500, 1800, 2100, 2400];
    for (const [i, rent] of rentals.entries()) {
      const r = await call(null, 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId, {
        transaction_type: 'rent', price: null, rent, bedrooms: i + 1, amenities: i % 2 ? ['pool', 'parking'] : ['parking'],
        address: { city: i < 3 ? 'Montréal' : 'Laval', postal_code: i < 3 ? 'H2J 1A1' : 'H7N 2B2', country: 'CA' },
      }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const search = async (q: string, v: Version = '3.2') => (await call('property.page', 'GET', `/properties/search?mls_board=gmtl&transaction_type=rent${q}`, undefined, v)).body;
    expect((await search('')).data.map((p: any) => p.rent)).toEqual(rentals);
    expect((await search('&city=montreal')).data).toHaveLength(3);
    expect((await search('&city=MONTRÉAL&min_rent=1500')).data.map((p: any) => p.rent)).toEqual([1500, 1800]);
    expect((await search('&postal_code=h7n')).data.map((p: any) => p.address.city)).toEqual(['Laval', 'Laval']);
    expect((await search('&min_bedrooms=2&max_bedrooms=4&amenities=pool')).data.map((p: any) => p.bedrooms)).toEqual([2, 4]);
    expect((await search('&max_rent=1000')).data).toEqual([]);
    expect((await search('&status=active,pending&property_type=condo&min_area=90&max_area=100')).data).toHaveLength(5);
    expect((await search('&min_area=100')).data).toHaveLength(0);
    // Pages of two, identical cursors on every prefix.
    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const p30 = await search(`&limit=2${cursor ? `&cursor=${cursor}` : ''}`, '3.0');
      const p32 = await search(`&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(p30.paging).toEqual(p32.paging);
      seen.push(...p32.data.map((p: any) => p.rent));
      cursor = p32.paging.next_cursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(rentals);
  });

  it('rights per board: a pair reads and writes only its boards; a board sees only its own records', async () => {
    expect((await call(null, 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId), '3.2', f.bxlOnly)).status).toBe(401);
    const bxl = await call('property.page', 'GET', '/properties/search?mls_board=bxl', undefined, '3.2', f.bxlOnly);
    expect(bxl.body.data.every((p: any) => p.mls_board === 'bxl')).toBe(true);
    const gmtlIds = (await call('property.page', 'GET', '/properties?mls_board=gmtl&limit=100')).body.data.map((p: any) => p.id);
    for (const id of gmtlIds.slice(0, 2)) expect((await call(null, 'GET', `/properties/${id}?mls_board=bxl`, undefined, '3.2', f.bxlOnly)).status).toBe(404);
    // An agency of another board cannot be used in a listing.
    const r = await call(null, 'POST', '/properties?mls_board=bxl', condoPayload(f.agencyId, f.userId), '3.2', f.bxlOnly);
    expect(r.status).toBe(422);
    expect(r.body.errors).toMatch(/agency_id \(no agency \d+ in board bxl\)/);
  });

  it('agencies are the shared agencies: created, listed, updated, deleted once empty', async () => {
    const created = await call('agency.one', 'POST', '/agencies?mls_board=gmtl', { name: 'Royal Laval', country: 'CA', phone: '+1 450 555 0100', website: 'https://royal-laval.example.ca' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(await createAccountRepository(f.sql).agency(id)).toMatchObject({ name: 'Royal Laval', board_id: f.boards.gmtl, country: 'CA' });
    const list = (await call('agency.page', 'GET', '/agencies?mls_board=gmtl&name=laval')).body.data;
    expect(list.map((a: any) => a.name)).toEqual(['Royal Laval']);
    const up = await call('agency.one', 'PATCH', `/agencies/${id}?mls_board=gmtl`, { name: 'Royal LePage Laval' }, '3.0');
    expect(up.body.data).toMatchObject({ name: 'Royal LePage Laval', phone: '+1 450 555 0100', mls_board: 'gmtl' });
    // The fixture agency has users and listings: refused, nothing removed.
    const busy = await call(null, 'DELETE', `/agencies/${f.agencyId}?mls_board=gmtl`);
    expect(busy.status).toBe(422);
    expect(busy.body.errors).toMatch(/still has users or properties/);
    expect((await call(null, 'DELETE', `/agencies/${id}?mls_board=gmtl`)).status).toBe(204);
    expect((await call(null, 'GET', `/agencies/${id}?mls_board=gmtl`)).status).toBe(404);
  });

  it('users are the shared users: created in an agency of the board, updated, disabled on delete', async () => {
    const created = await call('user.one', 'POST', '/users?mls_board=gmtl', {
      agency_id: f.agencyId, email: 'marc.gagnon@example.ca', first_name: 'Marc', last_name: 'Gagnon', languages: ['fr'], title: 'Courtier immobilier résidentiel', license_number: 'G1234',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const shared = await createAccountRepository(f.sql).user(id);
    expect(shared).toMatchObject({ email: 'marc.gagnon@example.ca', agency: { id: f.agencyId }, board: { slug: 'gmtl' } });
    const up = await call('user.one', 'PATCH', `/users/${id}?mls_board=gmtl`, { phone: '+1 514 555 0199' }, '3.1');
    expect(up.body.data).toMatchObject({ phone: '+1 514 555 0199', title: 'Courtier immobilier résidentiel', license_number: 'G1234', first_name: 'Marc' });
    expect((await call(null, 'PATCH', `/users/${id}?mls_board=gmtl`, { agency_id: f.otherBoardAgencyId })).status).toBe(422);
    expect((await call('user.page', 'GET', `/users?mls_board=gmtl&email=MARC.GAGNON@example.ca`)).body.data).toHaveLength(1);
    expect((await call(null, 'DELETE', `/users/${id}?mls_board=gmtl`)).status).toBe(204);
    expect((await createAccountRepository(f.sql).user(id)).disabled_at).not.toBeNull();
    expect((await call(null, 'GET', `/users/${id}?mls_board=gmtl`)).status).toBe(404);
    expect((await call('user.page', 'GET', `/users?mls_board=gmtl`)).body.data.map((u: any) => u.id)).not.toContain(id);
  });

  it('gateways: CRUD, unique code per board, published properties counted', async () => {
    const g = await call('gateway.one', 'POST', '/gateways?mls_board=gmtl', { code: 'realtor', name: 'Realtor.ca', kind: 'portal', format: 'xml', endpoint_url: 'https://ddf.example.ca/feed' });
    expect(g.status).toBe(201);
    const id = g.body.data.id;
    expect((await call(null, 'POST', '/gateways?mls_board=gmtl', { code: 'realtor', name: 'Again', kind: 'feed' })).status).toBe(422);
    expect((await call(null, 'POST', '/gateways?mls_board=gmtl', { code: 'plain', name: 'Plain', kind: 'feed', endpoint_url: 'http://insecure.example.ca' })).status).toBe(422);
    const p = await call('property.one', 'POST', '/properties?mls_board=gmtl', condoPayload(f.agencyId, f.userId, { gateway_ids: [id] }));
    expect(p.body.data.gateway_ids).toEqual([id]);
    expect((await call('gateway.one', 'GET', `/gateways/${id}?mls_board=gmtl`)).body.data.property_count).toBe(1);
    expect((await call('gateway.one', 'PATCH', `/gateways/${id}?mls_board=gmtl`, { active: false })).body.data).toMatchObject({ active: false, code: 'realtor' });
    expect((await call('gateway.page', 'GET', '/gateways?mls_board=gmtl&active=false')).body.data.map((x: any) => x.id)).toEqual([id]);
    expect((await call(null, 'DELETE', `/gateways/${id}?mls_board=gmtl`)).status).toBe(204);
    expect((await call('property.one', 'GET', `/properties/${p.body.data.id}?mls_board=gmtl`)).body.data.gateway_ids).toEqual([]);
  });

  it('X-Api-Version on every response; Deprecation and Sunset on 3.0 only once configured', async () => {
    for (const v of VERSIONS_SERVED) {
      for (const path of ['/gateways?mls_board=gmtl', '/nowhere']) {
        const r = await f.t.app.inject({ url: `${PREFIX[v]}${path}`, headers: f.auth });
        expect(r.headers['x-api-version']).toBe(v);
        expect(r.headers.deprecation).toBe(v === '3.0' ? 'true' : undefined);
        expect(r.headers.sunset).toBe(v === '3.0' ? 'Wed, 30 Jun 2027 23:59:59 GMT' : undefined);
      }
    }
    // The location API keeps its own version and error body.
    const loc = await f.t.app.inject({ url: '/api/v1/fr/nowhere' });
    expect(loc.headers['x-api-version']).toBe('1.0');
    expect(loc.json().error.code).toBe('not_found');
  });

  it('3.0 carries no Deprecation header while no end date is configured', async () => {
    const plain = await buildTestApp(f.dataDir, { sql: f.sql });
    try {
      const r = await plain.app.inject({ url: '/fr/api/v3/gateways?mls_board=gmtl', headers: f.auth });
      expect(r.statusCode).toBe(200);
      expect(r.headers.deprecation).toBeUndefined();
      expect(r.headers.sunset).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('the OpenAPI document has every route under every prefix, with each version schema', async () => {
    const doc = inlineRefs((await f.t.app.inject('/openapi.json')).json());
    for (const prefix of ['v3', 'v3.1', 'v3.2']) {
      for (const p of ['/properties/search', '/properties', '/properties/{id}', '/agencies', '/agencies/{id}', '/users', '/users/{id}', '/gateways', '/gateways/{id}']) {
        expect(doc.paths[`/{locale}/api/${prefix}${p}`], `${prefix}${p}`).toBeDefined();
      }
    }
    const search = (prefix: string) => doc.paths[`/{locale}/api/${prefix}/properties/search`].get;
    expect(search('v3').responses['200'].content['application/json'].schema.properties.data.items.required).toContain('amenties');
    expect(search('v3.1').responses['200'].content['application/json'].schema.properties.data.items.required).not.toContain('amenties');
    expect(search('v3.2').responses['401']).toBeDefined();
    expect(search('v3.1').responses['401']).toBeUndefined();
    expect(search('v3').deprecated).toBe(true);
    expect(search('v3').parameters.find((p: any) => p.name === 'mls_board').required).toBe(true);
    expect(doc.paths['/{locale}/api/v3.2/properties'].post.requestBody.content['application/json'].schema.properties.life_lease).toBeDefined();
    expect(doc.components.securitySchemes.listingApiKey).toMatchObject({ in: 'header', name: 'apiKey' });
  });
});
