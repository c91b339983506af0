/**
 * The same fixtures read through the three prefixes differ exactly as spec section 2 says, and
 * in nothing else (a field-by-field diff of the responses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseSchema, type ResponseKind } from '../../../api/listing/versions/index.ts';
import { backends } from '../core/state/backends.ts';
import { condoPayload, listingFixture, PREFIX, viagerPayload, type ListingFixture, type Version } from './fixtures.ts';
import { jsonDiff, summary } from './json-diff.ts';

describe.each(backends)('listing versions on $name', (backend) => {
  let f: ListingFixture;
  let cleanup: () => Promise<void>;
  let condo: number;
  let viager: number;
  let gateway: number;
  beforeAll(async () => {
    const db = await backend.open();
    f = await listingFixture(db.sql);
    cleanup = async () => { await f.close(); await db.cleanup(); };
    const post = async (path: string, payload: object) => {
      const r = await f.t.app.inject({ method: 'POST', url: `${PREFIX['3.2']}${path}?mls_board=gmtl`, headers: f.auth, payload });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.id as number;
    };
    gateway = await post('/gateways', { code: 'centris', name: 'Centris', kind: 'portal', endpoint_url: 'https://feeds.example.ca/centris' });
    condo = await post('/properties', condoPayload(f.agencyId, f.userId, { gateway_ids: [gateway] }));
    viager = await post('/properties', viagerPayload(f.agencyId));
  });
  afterAll(() => cleanup());

  async function read(version: Version, path: string, kind: ResponseKind) {
    const r = await f.t.app.inject({ url: `${PREFIX[version]}${path}${path.includes('?') ? '&' : '?'}mls_board=gmtl`, headers: f.auth });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['x-api-version']).toBe(version);
    return responseSchema(kind, version).parse(r.json()) as any;
  }

  it('3.2 and 3.1 answer the same bodies on every route', async () => {
    const routes: [string, ResponseKind][] = [
      ['/properties/search', 'property.page'], ['/properties', 'property.page'], [`/properties/${condo}`, 'property.one'], [`/properties/${viager}`, 'property.one'],
      ['/agencies', 'agency.page'], [`/agencies/${f.agencyId}`, 'agency.one'], ['/users', 'user.page'], [`/users/${f.userId}`, 'user.one'],
      ['/gateways', 'gateway.page'], [`/gateways/${gateway}`, 'gateway.one'],
    ];
    for (const [path, kind] of routes) expect(jsonDiff(await read('3.2', path, kind), await read('3.1', path, kind)), path).toEqual([]);
  });

  it('agencies, users and gateways are the same in 3.0', async () => {
    for (const [path, kind] of [['/agencies', 'agency.page'], ['/users', 'user.page'], ['/gateways', 'gateway.page'], [`/gateways/${gateway}`, 'gateway.one']] as const) {
      expect(jsonDiff(await read('3.1', path, kind), await read('3.0', path, kind)), path).toEqual([]);
    }
  });

  it('property detail 3.1 -> 3.0: formatted surfaces as strings, life annuity in cents, no unit_number, and nothing else', async () => {
    const v31 = await read('3.1', `/properties/${viager}`, 'property.one');
    const v30 = await read('3.0', `/properties/${viager}`, 'property.one');
    const d = jsonDiff(v31, v30);
    expect(summary(d)).toEqual([
      'data.address.unit_number removed',
      'data.area_converted.square-foot.area_formatted type',
      'data.area_converted.square-meter.area_formatted type',
      'data.area_formatted type',
      'data.life_lease.life_annuity type',
      'data.life_lease.venal_value type',
      'data.lot_details[].area_formatted type',
      'data.rooms_details[].area_formatted type',
      'data.surface_areas.formatted.living_area type',
      'data.surface_areas.formatted.lot_area type',
    ]);
    // Each formatted string is the path's locale (fr-CA) of the 3.1 object.
    for (const x of d.filter((x) => x.path.endsWith('area_formatted') || x.path.includes('.formatted.'))) {
      expect(x.to).toBe((x.from as Record<string, string>)['fr-CA']);
    }
    expect(v30.data.area_converted['square-foot'].area_formatted).toBe('13\u00a0460\u00a0pi²');
    expect(v30.data.life_lease).toEqual({ venal_value: { cents: 24_000_000, currency_iso: 'eur' }, life_annuity: { cents: 85_075, currency_iso: 'eur' } });
    expect(v31.data.life_lease).toEqual({ venal_value: 240000, life_annuity: 850.75 });
  });

  it('the condo (a unit number, no life lease, no lots): only its surfaces and unit_number differ', async () => {
    const d = jsonDiff(await read('3.1', `/properties/${condo}`, 'property.one'), await read('3.0', `/properties/${condo}`, 'property.one'));
    expect(summary(d)).toEqual([
      'data.address.unit_number removed',
      'data.area_converted.square-foot.area_formatted type',
      'data.area_converted.square-meter.area_formatted type',
      'data.area_formatted type',
      'data.rooms_details[].area_formatted type',
      'data.surface_areas.formatted.living_area type',
    ]);
    expect(d.find((x) => x.path === 'data.address.unit_number')?.from).toBe('3');
  });

  it('search results 3.1 -> 3.0: formatted surfaces as strings and the amenties alias, nothing else', async () => {
    const v31 = await read('3.1', '/properties/search', 'property.page');
    const v30 = await read('3.0', '/properties/search', 'property.page');
    expect(summary(jsonDiff(v31, v30))).toEqual([
      'data[].amenties added',
      'data[].area_converted.square-foot.area_formatted type',
      'data[].area_converted.square-meter.area_formatted type',
      'data[].area_formatted type',
    ]);
    for (const p of v30.data) expect(p.amenties).toEqual(p.amenities);
    expect(v31.data.every((p: Record<string, unknown>) => !('amenties' in p))).toBe(true);
  });

  it('the locale of the path picks the 3.0 string: ft² in en, pi² in fr-CA, m² everywhere', async () => {
    const get = async (locale: string) => {
      const r = await f.t.app.inject({ url: `/${locale}/api/v3/properties/${condo}?mls_board=gmtl`, headers: f.auth });
      return r.json().data;
    };
    const en = await get('en');
    const frCA = await get('fr-CA');
    const fr = await get('fr');
    expect(en.area_formatted).toBe('1,050\u00a0ft²');
    expect(frCA.area_formatted).toBe('1\u00a0050\u00a0pi²');
    expect(fr.area_formatted).toBe('1\u202f050\u00a0ft²');
    expect(en.area_converted['square-meter'].area_formatted).toBe('97.6\u00a0m²');
    expect(frCA.area_converted['square-meter'].area_formatted).toBe('97,6\u00a0m²');
    // The locale changes nothing else.
    expect(summary(jsonDiff(en, frCA)).every((l) => /area_formatted|formatted\./.test(l))).toBe(true);
  });
});
