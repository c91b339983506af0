/**
 * Two clients written as the spec's migration notes (section 9) tell a client to be written,
 * each with strict deserialization (unknown fields refused): one for 3.0, then the same client
 * migrated to 3.2 by applying the notes' four points and the error changes. Both work against
 * their prefix, read the same business values from the same listing, and each refuses the other
 * version's bodies exactly where the notes say to check strict typing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backends } from '../core/state/backends.ts';
import { condoPayload, listingFixture, viagerPayload, type ListingFixture } from './fixtures.ts';

/* ---------------- the 3.0 client ---------------- */
const c30 = (() => {
  const Area = z.strictObject({ area: z.number().nullable(), area_formatted: z.string().nullable() });
  const Address = z.strictObject({
    street_number: z.string().nullable(), street_name: z.string().nullable(), city: z.string(), region: z.string().nullable(),
    postal_code: z.string().nullable(), country: z.string(), latitude: z.number().nullable(), longitude: z.number().nullable(),
  });
  const Cents = z.strictObject({ cents: z.number().int(), currency_iso: z.string() }).nullable();
  const Base = {
    id: z.number(), mls_board: z.string(), agency_id: z.number().nullable(), user_id: z.number().nullable(), status: z.string(),
    transaction_type: z.string(), property_type: z.string(), price: z.number().nullable(), rent: z.number().nullable(),
    sold_price: z.number().nullable(), financial: z.strictObject({ currency: z.string() }), price_formatted: z.record(z.string(), z.string()).nullable(),
    area: z.number().nullable(), area_unit: z.string(), area_formatted: z.string().nullable(),
    area_converted: z.strictObject({ 'square-meter': Area, 'square-foot': Area }), bedrooms: z.number().nullable(), bathrooms: z.number().nullable(),
    address: Address, amenities: z.array(z.string()),
    photos: z.array(z.strictObject({ url: z.string(), caption: z.string().nullable(), position: z.number() })),
    created_at: z.string(), updated_at: z.string(),
  };
  const SearchItem = z.strictObject({ ...Base, amenties: z.array(z.string()) });
  const Detail = z.strictObject({
    ...Base,
    description: z.string().nullable(), year_built: z.number().nullable(),
    surface_areas: z.strictObject({
      unit: z.string(), living_area: z.number().nullable(), lot_area: z.number().nullable(), building_area: z.number().nullable(),
      formatted: z.strictObject({ living_area: z.string().nullable(), lot_area: z.string().nullable(), building_area: z.string().nullable() }),
    }),
    rooms_details: z.array(z.strictObject({ name: z.string(), level: z.string().nullable(), area: z.number().nullable(), area_formatted: z.string().nullable(), dimensions: z.string().nullable(), flooring: z.string().nullable() })),
    lot_details: z.array(z.strictObject({ kind: z.string(), area: z.number().nullable(), area_formatted: z.string().nullable(), cadastre_number: z.string().nullable() })),
    life_lease: z.strictObject({ venal_value: Cents, life_annuity: Cents }).nullable(),
    gateway_ids: z.array(z.number()),
  });
  return { Address, Base, SearchItem, Detail, Page: z.strictObject({ data: z.array(SearchItem), paging: z.strictObject({ limit: z.number(), next_cursor: z.string().nullable() }) }) };
})();

/* ---------------- the same client migrated to 3.2 (section 9) ---------------- */
const c32 = (() => {
  // Read the locale key of formatted surfaces.
  const Formatted = z.record(z.string(), z.string()).nullable();
  const Area = z.strictObject({ area: z.number().nullable(), area_formatted: Formatted });
  const Base = { ...c30.Base, area_formatted: Formatted, area_converted: z.strictObject({ 'square-meter': Area, 'square-foot': Area }) };
  // Read amenities instead of amenties.
  const SearchItem = z.strictObject(Base);
  const Detail = c30.Detail.extend({
    ...Base,
    // Declare address.unit_number.
    address: c30.Address.extend({ unit_number: z.string().nullable() }),
    surface_areas: c30.Detail.shape.surface_areas.extend({ formatted: z.strictObject({ living_area: Formatted, lot_area: Formatted, building_area: Formatted }) }),
    rooms_details: z.array(c30.Detail.shape.rooms_details.element.extend({ area_formatted: Formatted })),
    lot_details: z.array(c30.Detail.shape.lot_details.element.extend({ area_formatted: Formatted })),
    // Read life annuity amounts directly as numbers.
    life_lease: z.strictObject({ venal_value: z.number().nullable(), life_annuity: z.number().nullable() }).nullable(),
  });
  return { SearchItem, Detail, Page: c30.Page.extend({ data: z.array(SearchItem) }) };
})();

/** What an application takes from a listing, whatever the version. */
interface Listing { livingArea: string | null; lotArea: string | null; annuity: number | null; unit: string | null; amenities: string[] }

function client(app: FastifyInstance, version: '3.0' | '3.2', headers: Record<string, string>) {
  const prefix = version === '3.0' ? '/fr-CA/api/v3' : '/fr-CA/api/v3.2';
  const get = (path: string) => app.inject({ url: `${prefix}${path}`, headers });
  return {
    async listing(id: number): Promise<Listing> {
      const r = await get(`/properties/${id}?mls_board=gmtl`);
      if (r.statusCode !== 200) throw new Error(`${r.statusCode}`);
      if (version === '3.0') {
        const p = c30.Detail.parse(r.json().data);
        return {
          livingArea: p.surface_areas.formatted.living_area, lotArea: p.surface_areas.formatted.lot_area,
          annuity: p.life_lease?.life_annuity ? p.life_lease.life_annuity.cents / 100 : null, unit: null, amenities: p.amenities,
        };
      }
      const p = c32.Detail.parse(r.json().data);
      return {
        livingArea: p.surface_areas.formatted.living_area?.['fr-CA'] ?? null, lotArea: p.surface_areas.formatted.lot_area?.['fr-CA'] ?? null,
        annuity: p.life_lease?.life_annuity ?? null, unit: p.address.unit_number, amenities: p.amenities,
      };
    },
    async searchAmenities(): Promise<string[][]> {
      const r = await get('/properties/search?mls_board=gmtl');
      if (version === '3.0') return c30.Page.parse(r.json()).data.map((p) => p.amenties);
      return c32.Page.parse(r.json()).data.map((p) => p.amenities);
    },
    /** How each client tells a credential problem, a refusal and a temporary failure apart. */
    async classify(path: string, init: { headers?: Record<string, string>; method?: string; payload?: unknown } = {}): Promise<string> {
      const r = await app.inject({ method: (init.method ?? 'GET') as 'GET', url: `${prefix}${path}`, headers: init.headers ?? headers, payload: init.payload as object });
      const message = z.strictObject({ errors: z.string() }).parse(r.json()).errors;
      if (version === '3.0') return r.statusCode === 400 && /apiKey|apiToken|API access|rights/.test(message) ? 'credentials' : r.statusCode === 422 ? 'refused' : `status ${r.statusCode}`;
      return r.statusCode === 401 ? 'credentials' : r.statusCode === 422 ? 'refused' : r.statusCode === 500 ? 'retry later' : `status ${r.statusCode}`;
    },
  };
}

describe.each(backends)('3.0 and 3.2 clients on $name', (backend) => {
  let f: ListingFixture;
  let cleanup: () => Promise<void>;
  let viager: number;
  let condo: number;
  beforeAll(async () => {
    const db = await backend.open();
    f = await listingFixture(db.sql);
    cleanup = async () => { await f.close(); await db.cleanup(); };
    // Written through 3.0 and 3.2 with the same payload shape (amounts as numbers).
    const w1 = await f.t.app.inject({ method: 'POST', url: '/fr-CA/api/v3/properties?mls_board=gmtl', headers: f.auth, payload: viagerPayload(f.agencyId) });
    const w2 = await f.t.app.inject({ method: 'POST', url: '/fr-CA/api/v3.2/properties?mls_board=gmtl', headers: f.auth, payload: condoPayload(f.agencyId, f.userId) });
    expect([w1.statusCode, w2.statusCode]).toEqual([201, 201]);
    viager = w1.json().data.id;
    condo = w2.json().data.id;
  });
  afterAll(() => cleanup());

  it('both clients read the same values from the same listings', async () => {
    const old = client(f.t.app, '3.0', f.auth);
    const now = client(f.t.app, '3.2', f.auth);
    const a = await old.listing(viager);
    const b = await now.listing(viager);
    expect(a).toEqual({ ...b, unit: null });
    expect(b).toMatchObject({ livingArea: '1\u00a0250,5\u00a0m²', lotArea: '640\u00a0m²', annuity: 850.75 });
    expect((await now.listing(condo)).unit).toBe('3');
    expect((await old.listing(condo)).livingArea).toBe('1\u00a0050\u00a0pi²');
    expect(await old.searchAmenities()).toEqual(await now.searchAmenities());
  });

  it('strict typing: each client refuses the other version exactly on the four points', async () => {
    const body = async (prefix: string, path: string) => (await f.t.app.inject({ url: `${prefix}${path}?mls_board=gmtl`, headers: f.auth })).json();
    const detail32 = (await body('/fr-CA/api/v3.2', `/properties/${viager}`)).data;
    const detail30 = (await body('/fr-CA/api/v3', `/properties/${viager}`)).data;
    const paths = (r: { success: boolean; error?: z.ZodError }) => [...new Set(r.error!.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k].join('.')) : [i.path.join('.')])))].sort();
    expect(paths(c30.Detail.safeParse(detail32))).toEqual([
      'address.unit_number', 'area_converted.square-foot.area_formatted', 'area_converted.square-meter.area_formatted', 'area_formatted',
      'life_lease.life_annuity', 'life_lease.venal_value', 'lot_details.0.area_formatted', 'rooms_details.0.area_formatted',
      'surface_areas.formatted.living_area', 'surface_areas.formatted.lot_area',
    ]);
    expect(c32.Detail.safeParse(detail30).success).toBe(false);
    const page31 = await body('/fr-CA/api/v3.1', '/properties/search');
    const page30 = await body('/fr-CA/api/v3', '/properties/search');
    expect(c30.Page.safeParse(page31).success).toBe(false);
    expect(c32.Page.safeParse(page30).success).toBe(false);
    expect(c32.Page.safeParse(page31).success).toBe(true);
  });

  it('errors: the 3.0 client sees 400 for credentials, the 3.2 client 401; refused data is 422 for both on property writes', async () => {
    const old = client(f.t.app, '3.0', f.auth);
    const now = client(f.t.app, '3.2', f.auth);
    expect(await old.classify('/properties/search?mls_board=gmtl', { headers: f.disabled })).toBe('credentials');
    expect(await now.classify('/properties/search?mls_board=gmtl', { headers: f.disabled })).toBe('credentials');
    const bad = { method: 'POST', payload: { ...condoPayload(f.agencyId, f.userId), currency: 'dollars' } };
    expect(await old.classify('/properties?mls_board=gmtl', bad)).toBe('refused');
    expect(await now.classify('/properties?mls_board=gmtl', bad)).toBe('refused');
    expect(await now.classify('/properties/424242?mls_board=gmtl')).toBe('status 404');
  });
});
