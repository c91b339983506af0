import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Locale } from '../../schemas/common.ts';
import { INT4, queryInt, storableText } from '../../schemas/inputs.ts';
import type { ErrorCode } from '../../schemas/error.ts';
import { ApiError, invalidParameter } from '../core/errors.ts';

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

export type PlaceInput = { kind: 'position'; lat: number; lng: number } | { kind: 'address'; address: string };

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
