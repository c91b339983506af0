import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Locale } from '../../schemas/common.ts';
import { INT4, queryInt, storableText } from '../../schemas/inputs.ts';
import type { ErrorCode } from '../../schemas/error.ts';
import { ApiError, invalidParameter } from '../core/errors.ts';
import type { AddressSearchOptions } from './search/search.ts';

const coordinate = (name: string, min: number, max: number) =>
  z.string().trim().regex(/^[-+]?\d+(\.\d+)?$/, `${name} must be a decimal number`)
    .transform(Number).refine((v) => v >= min && v <= max, `${name} must be between ${min} and ${max}`)
    .optional().describe(`WGS84 ${name}, decimal degrees; with ${name === 'lat' ? 'lng' : 'lat'}, instead of address`);

/** Place parameters of every data route (spec 4.1). */
export const placeShape = {
  lat: coordinate('lat', -90, 90),
  lng: coordinate('lng', -180, 180),
  address: z.string().trim().min(3, 'address is too short').max(300, 'address is too long').pipe(storableText).optional()
    .describe('complete postal address (number, street, postal code, city), instead of lat/lng'),
  locale: Locale.optional().describe('fr (default) or en; otherwise the Accept-Language header decides'),
};
export const PlaceQuery = z.strictObject(placeShape);

/** Options of an address search on the location route (as API Adresse's `limit`, `postcode`, `citycode`). */
export const addressSearchShape = {
  limit: queryInt(INT4, { min: 1, max: 20 }).optional().describe('1 to 20: the best answer and up to limit - 1 ranked alternatives with their score (geocoding.alternatives); with address'),
  postcode: z.string().trim().regex(/^[A-Za-z0-9]{3,4} ?[A-Za-z0-9]{0,3}$/, 'postcode must be a postal code (letters and digits)').optional()
    .describe('only addresses of this postal code; with address'),
  citycode: z.string().trim().regex(/^[0-9A-Za-z]{2,10}$/, 'citycode must be a commune or municipality code (letters and digits)').optional()
    .describe('only addresses of this commune or municipality code (INSEE, NIS, geographic code); with address'),
};
export const LocationQuery = z.strictObject({ ...placeShape, ...addressSearchShape });

/** The address search options of a query; refused with a position, which they do not apply to. */
export function addressSearchOptions(q: { limit?: number; postcode?: string; citycode?: string }, input: PlaceInput): AddressSearchOptions {
  for (const name of ['limit', 'postcode', 'citycode'] as const) {
    if (q[name] !== undefined && input.kind !== 'address') throw invalidParameter(name, q[name], `${name} applies to an address search: send it with address, not with lat and lng`);
  }
  return { limit: q.limit, postcode: q.postcode?.toUpperCase(), citycode: q.citycode?.toUpperCase() };
}

export type PlaceInput = { kind: 'position'; lat: number; lng: number } | { kind: 'address'; address: string; search?: AddressSearchOptions };

/** lat/lng together, or address, never both (spec 4: ambiguous_location). */
export function placeInput(q: { lat?: number; lng?: number; address?: string }): PlaceInput {
  const hasPosition = q.lat !== undefined || q.lng !== undefined;
  if (hasPosition && q.address !== undefined) {
    throw new ApiError('ambiguous_location', 'send either lat and lng, or address, not both');
  }
  if (q.address !== undefined) return { kind: 'address', address: q.address };
  if (q.lat === undefined && q.lng === undefined) throw invalidParameter('lat', null, 'a place is required: lat and lng together, or address');
  if (q.lat === undefined) throw invalidParameter('lat', null, 'lat is required with lng');
  if (q.lng === undefined) throw invalidParameter('lng', null, 'lng is required with lat');
  return { kind: 'position', lat: q.lat, lng: q.lng };
}

/** locale parameter first, then the first of fr/en in Accept-Language, then fr (spec 2.2). */
export function localeOf(request: FastifyRequest, param: Locale | undefined): Locale {
  if (param) return param;
  const header = request.headers['accept-language'];
  if (typeof header === 'string') {
    const langs = header.split(',').map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { lang: tag!.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    }).filter((l) => l.lang === 'fr' || l.lang === 'en').sort((a, b) => b.q - a.q);
    if (langs[0]) return langs[0].lang as Locale;
  }
  return 'fr';
}

/** Errors of every route that takes a place (spec 7). */
export const PLACE_ERRORS = ['invalid_parameter', 'ambiguous_location', 'unauthorized', 'country_not_allowed', 'domain_not_allowed', 'address_not_found', 'outside_coverage', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'] as const satisfies readonly ErrorCode[];

/** Report parameters beyond the place (spec 4.1). */
export const reportShape = {
  include: z.string().trim().optional().describe('comma-separated domains, a domain restricted to fields with a dot (market.sale_price_median); default all domains of the key'),
  property_id: z.string().regex(/^prp_[A-Za-z0-9_-]+$/, 'property_id must be a prp_ identifier').optional().describe('property to describe when the building has several'),
  property_type: z.enum(['apartment', 'house']).optional().describe('serves only values of this type'),
  radius: queryInt(INT4, { min: 100, max: 2000 }).optional().describe('meters, 100 to 2000, radius of lists'),
};
