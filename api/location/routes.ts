import { z } from 'zod';
import type { Country, Locale } from '../../schemas/common.ts';
import type { FastifyRequest } from 'fastify';
import { envelope as envelopeSchema } from '../../schemas/envelope.ts';
import { Location } from '../../schemas/location.ts';
import { CatalogDomains, CatalogFields } from '../../schemas/catalog.ts';
import { DomainStatus, Missing, type Domain } from '../../schemas/domain.ts';
import type { Clock } from '../core/clock.ts';
import { envelope } from '../core/respond.ts';
import type { AnyRoute } from '../core/routes.ts';
import type { Manifests } from '../core/manifests.ts';
import { catalogDomains, catalogFields } from './catalog.ts';
import { locate, type LocateDeps } from './locate.ts';
import { localeOf, placeInput, placeShape, PlaceQuery } from './params.ts';
import { notIngestedDomain, parseInclude, refusedWarnings, reportShape } from './report.ts';
import { FrMarket } from '../../schemas/market.ts';
import { frMarket, parcelIdOf, SALES_RADIUS_M } from './market/fr-market.ts';
import { frMarketRoutes } from './market/routes.ts';

export interface LocationRouteDeps extends LocateDeps { manifests: Manifests; clock: Clock }

/** Domains each country serves (spec section 1 table). */
export const COUNTRY_DOMAINS: Record<Country, Domain[]> = {
  fr: ['location', 'building', 'property', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
  ca: ['location', 'building', 'property', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
  be: ['location', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
};

/** A domain of the report that this service does not compute yet: status and missing only. */
const PendingDomain = z.object({ status: DomainStatus, missing: Missing });

export const LocationResponse = envelopeSchema(z.object({ location: Location }));
export const ReportResponse = envelopeSchema(z.object({ location: Location, market: z.union([FrMarket, PendingDomain]).optional() }).catchall(PendingDomain));
export const CatalogFieldsResponse = envelopeSchema(CatalogFields);
export const CatalogDomainsResponse = envelopeSchema(CatalogDomains);

const LOCATION_ERRORS = ['invalid_parameter', 'ambiguous_location', 'unauthorized', 'country_not_allowed', 'domain_not_allowed', 'address_not_found', 'outside_coverage', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'] as const;

/** Location, report and catalog routes of one country (spec 4.2, 4.3, 4.4). */
export function countryLocationRoutes(country: Country, deps: LocationRouteDeps): AnyRoute[] {
  const base = `/api/v1/${country}`;
  return [
    ...(country === 'fr' ? frMarketRoutes(deps) : []),
    {
      method: 'GET', url: `${base}/location`, tags: [country], summary: 'Location of a position or an address',
      description: 'data.location: address, position and precision, zones of every level (spec 2.6).',
      query: PlaceQuery, response: LocationResponse, errors: [...LOCATION_ERRORS],
      policy: { auth: true, country, domain: 'location', units: 1 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const { location, warnings } = await locate(deps, country, placeInput(query), locale);
        return envelope(request, deps.clock, { location }, warnings);
      },
    },
    {
      method: 'GET', url: `${base}/report`, tags: [country], summary: 'Report of the domains at a position or an address',
      description: 'data.location and each requested domain; a domain outside the key is omitted and reported in meta.warnings (spec 5). One unit per computed domain.',
      query: z.strictObject({ ...placeShape, ...reportShape }), response: ReportResponse, errors: [...LOCATION_ERRORS],
      policy: { auth: true, country, units: 'report' },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const inclusion = parseInclude(query.include, request.apiKey!, COUNTRY_DOMAINS[country]);
        const { location, warnings } = await locate(deps, country, placeInput(query), locale);
        warnings.push(...refusedWarnings(inclusion.refused));
        const data: Record<string, unknown> = { location };
        let computed = 1;
        for (const d of inclusion.domains) {
          if (d === 'location') continue;
          if (d === 'market' && country === 'fr') {
            const { market, warnings: w } = await frMarket(deps, {
              lat: location.latitude, lng: location.longitude, zones: location.zones, parcelId: parcelIdOf(location.parcel),
              radius: query.radius ?? SALES_RADIUS_M, propertyType: query.property_type, locale,
            });
            data.market = market;
            warnings.push(...w);
            if (market.status !== 'unavailable') computed++;
            continue;
          }
          if (!COUNTRY_DOMAINS[country].includes(d)) {
            data[d] = { status: 'not_covered', missing: {} };
            warnings.push({ domain: d, code: 'not_covered', message: `domain ${d} has no published data in this country` });
            continue;
          }
          const pending = notIngestedDomain(d);
          data[d] = pending.value;
          warnings.push(pending.warning);
        }
        // Only computed domains cost a unit (spec 8); unavailable ones are not charged.
        request.units = computed;
        return envelope(request, deps.clock, data, warnings);
      },
    },
    {
      method: 'GET', url: `${base}/catalog/fields`, tags: [country], summary: 'Field definitions with their coverage',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogFieldsResponse, errors: ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'internal_error'],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const manifest = await deps.manifests.get(country);
        return envelope(request, deps.clock, { country, fields: catalogFields(country, locale, manifest) });
      },
    },
    // Spec 4.4 lists /catalog/domains for Belgium only.
    ...(country === 'be' ? [{
      method: 'GET', url: `${base}/catalog/domains`, tags: [country], summary: 'Domains with their routes and fields',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogDomainsResponse, errors: ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'internal_error'],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }: { request: FastifyRequest; query: { locale?: Locale } }) =>
        envelope(request, deps.clock, { country, domains: catalogDomains(localeOf(request, query.locale)) }),
    } satisfies AnyRoute] : []),
  ];
}
