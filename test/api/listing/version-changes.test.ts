/**
 * The version chain on its own (pure): the error table of spec section 7 for every version, and
 * a new version made by adding one module.
 */
import { describe, expect, it } from 'vitest';
import { badRequest, internal, ListingError, notAuthorized, notFound, refused } from '../../../api/listing/errors.ts';
import type { VersionChange, VersionDef } from '../../../api/listing/versions/change.ts';
import { downgradeError, downgradeResponse, VERSIONS } from '../../../api/listing/versions/index.ts';

const ctx = (legacyValidationStatus?: 400) => ({ locale: 'fr-CA' as const, route: { legacyValidationStatus } });

describe('listing version changes', () => {
  it('the versions are served newest first: 3.2, 3.1, 3.0', () => {
    expect(VERSIONS.map((v) => [v.version, v.prefix])).toEqual([['3.2', 'v3.2'], ['3.1', 'v3.1'], ['3.0', 'v3']]);
  });

  it('errors: the table of section 7, version by version', () => {
    const cases: [string, ListingError, 400 | undefined, Record<string, [number, string | RegExp]>][] = [
      ['credentials', notAuthorized('API access is disabled for these credentials'), undefined,
        { '3.2': [401, 'Not Authorized'], '3.1': [400, 'API access is disabled for these credentials'], '3.0': [400, 'API access is disabled for these credentials'] }],
      ['refused, property write', refused([{ field: 'price', reason: 'negative' }]), undefined,
        { '3.2': [422, 'Validation failed: price (negative)'], '3.1': [422, 'Validation failed: price (negative)'], '3.0': [422, 'Validation failed: price (negative)'] }],
      ['refused, legacy 400 route', refused([{ field: 'email', reason: 'bad' }]), 400,
        { '3.2': [422, 'Validation failed: email (bad)'], '3.1': [400, 'Validation failed: email (bad)'], '3.0': [400, 'Validation failed: email (bad)'] }],
      ['internal', internal(new TypeError('x is undefined')), undefined,
        { '3.2': [500, 'Internal Server Error'], '3.1': [400, 'TypeError: x is undefined'], '3.0': [400, 'TypeError: x is undefined'] }],
      ['not found', notFound('property 9 not found'), undefined, { '3.2': [404, 'property 9 not found'], '3.1': [404, 'property 9 not found'], '3.0': [404, 'property 9 not found'] }],
      ['bad request', badRequest('mls_board is required'), undefined, { '3.2': [400, 'mls_board is required'], '3.1': [400, 'mls_board is required'], '3.0': [400, 'mls_board is required'] }],
      ['rate', new ListingError('rate_limited', 'Rate limit exceeded'), undefined, { '3.2': [429, 'Rate limit exceeded'], '3.1': [429, 'Rate limit exceeded'], '3.0': [429, 'Rate limit exceeded'] }],
    ];
    for (const [name, error, legacy, expected] of cases) {
      for (const [version, [status, message]] of Object.entries(expected)) {
        expect(downgradeError(error, version as '3.0', ctx(legacy)), `${name} in ${version}`).toEqual({ status, message });
      }
    }
  });

  it('a response passes through the changes of each older version in order', () => {
    const page = { data: [{ amenities: ['pool'], area_formatted: { 'fr-CA': '10 pi²', en: '10 ft²' }, area_converted: {} }], paging: { limit: 1, next_cursor: null } };
    expect(downgradeResponse('property.page', page, '3.2', ctx())).toBe(page);
    expect(downgradeResponse('property.page', page, '3.1', ctx())).toEqual(page);
    expect(downgradeResponse('property.page', page, '3.0', ctx())).toEqual({
      data: [{ amenities: ['pool'], amenties: ['pool'], area_formatted: '10 pi²', area_converted: {} }], paging: page.paging,
    });
    // Resources no change touches pass unchanged.
    const agency = { data: { id: 1, name: 'A' } };
    expect(downgradeResponse('agency.one', agency, '3.0', ctx())).toBe(agency);
  });

  it('a new version is one more module: its changes apply to every older version too', () => {
    // Suppose 3.3 renamed `rent` to `monthly_rent`: 3.2 then differs from it by one change.
    const renamedRent: VersionChange = {
      description: 'rent is named rent, not monthly_rent',
      responses: { 'property.one': (b: any) => { const { monthly_rent, ...rest } = b.data; return { data: { ...rest, rent: monthly_rent } }; } },
    };
    const withNext = [{ version: '3.3', prefix: 'v3.3', changes: [] }, { ...VERSIONS[0], changes: [renamedRent] }, ...VERSIONS.slice(1)] as unknown as VersionDef[];
    const body = { data: { monthly_rent: 1500, address: { unit_number: '3' }, life_lease: null, area_formatted: null, area_converted: {} } };
    expect(downgradeResponse('property.one', body, '3.2', ctx(), withNext)).toEqual({ data: { rent: 1500, address: { unit_number: '3' }, life_lease: null, area_formatted: null, area_converted: {} } });
    expect(downgradeResponse('property.one', body, '3.0', ctx(), withNext)).toEqual({ data: { rent: 1500, address: {}, life_lease: null, area_formatted: null, area_converted: {} } });
  });
});

describe('listing configuration', () => {
  it('LISTING_V3_SUNSET takes a date or a timestamp; anything else stops the start with the variable named', async () => {
    const { loadConfig } = await import('../../../api/config.ts');
    expect(loadConfig({ LISTING_V3_SUNSET: '2027-06-30' }).LISTING_V3_SUNSET).toBe('2027-06-30');
    expect(loadConfig({ LISTING_V3_SUNSET: '2027-06-30T00:00:00+02:00' }).LISTING_V3_SUNSET).toBe('2027-06-30T00:00:00+02:00');
    expect(loadConfig({}).LISTING_V3_SUNSET).toBeUndefined();
    expect(() => loadConfig({ LISTING_V3_SUNSET: 'next summer' })).toThrow(/LISTING_V3_SUNSET/);
    expect(() => loadConfig({ LISTING_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/LISTING_RATE_LIMIT_PER_MINUTE/);
  });
});
