import { z } from 'zod';
import { labelOf, type Country } from '../../../schemas/common.ts';
import {
  Coverage, VARIANT_DOMAINS, VARIANT_LEVEL_ORDER, VariantCountry, VariantLocation, VariantMeta,
  type VariantDomain, type VariantLevel,
} from '../../../schemas/variant.ts';
import { API_VERSION } from '../../../schemas/envelope.ts';
import type { Warning } from '../../../schemas/domain.ts';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.ts';
import type { Manifests } from '../../core/manifests.ts';
import type { AnyRoute } from '../../core/routes.ts';
import type { LocateDeps } from '../locate.ts';
import { COUNTRIES, PROFILES } from '../../../datasets/countries.ts';
import { localeOf, placeInput, placeShape } from '../params.ts';
import { elsewhereAlternatives, locateAnywhere } from './locate.ts';
import { fromVariantCountry, LEVEL_TO_VARIANT, toVariantCountry, toVariantLocation } from './map.ts';
import { citedSources } from './sources.ts';

export interface VariantRouteDeps extends LocateDeps { manifests: Manifests; clock: Clock }

export const VariantLocationResponse = z.object({ data: z.object({ location: VariantLocation }), meta: VariantMeta });
export const CoverageResponse = z.object({ data: Coverage, meta: VariantMeta });

/** Domains this service computes today. */
const SERVED: VariantDomain[] = ['location'];

function variantEnvelope<D>(request: FastifyRequest, clock: Clock, data: D, warnings: Warning[], sources: z.infer<typeof VariantMeta>['sources']) {
  return {
    data,
    meta: { request_id: String(request.id), api_version: API_VERSION, generated_at: clock.now().toISOString(), warnings, sandbox: request.apiKey?.sandbox ?? false, sources },
  };
}

const countryParam = z.enum(['FR', 'BE', 'CA', 'fr', 'be', 'ca']).transform((c) => c.toUpperCase() as z.infer<typeof VariantCountry>).optional()
  .describe('FR, BE or CA: the country to search in, for a city existing in several countries');

/** The multi-country variant (spec 4.5): location without a country prefix, and the coverage catalog. */
export function variantRoutes(deps: VariantRouteDeps): AnyRoute[] {
  return [
    {
      method: 'GET', url: '/api/v1/location', tags: ['multi-country'], summary: 'Location of a position or an address in any covered country',
      description: 'data.location in the level set of spec 2.12 (country on each zone), meta.sources. An address is searched in the official addresses of each country, then in the geocoder; the same place in two countries is answered with alternatives unless `country` is given.',
      query: z.strictObject({ ...placeShape, country: countryParam }), response: VariantLocationResponse,
      errors: ['invalid_parameter', 'ambiguous_location', 'unauthorized', 'country_not_allowed', 'domain_not_allowed', 'address_not_found', 'outside_coverage', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'],
      policy: { auth: true, domain: 'location', units: 1 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const allowed = request.apiKey!.countries as Country[];
        const answer = await locateAnywhere(deps, placeInput(query), query.country ? fromVariantCountry(query.country) : null, allowed, locale);
        const parcelSource = answer.location.parcel && answer.country === 'fr' ? answer.sources.find((s) => s === 'fr.cadastre') ?? answer.sources.find((s) => s === 'fr.ban') ?? null : null;
        const location = toVariantLocation(answer.country, answer.location, locale, parcelSource);
        if (answer.elsewhere.length > 0) {
          const alternatives = elsewhereAlternatives(answer.elsewhere);
          location.geocoding = location.geocoding
            ? { ...location.geocoding, alternatives: [...location.geocoding.alternatives, ...alternatives] }
            : null;
        }
        const sources = await citedSources(deps.manifests, answer.country, answer.sources, deps.clock.now());
        return variantEnvelope(request, deps.clock, { location }, answer.warnings, sources);
      },
    },
    {
      method: 'GET', url: '/api/v1/catalog/coverage', tags: ['multi-country'], summary: 'What each country publishes and what this service serves',
      description: 'Per country: territory, coverage of each domain of spec 2.12 (full, partial, none), whether the service computes it today, zone levels ingested, sources imported. Consumes no unit.',
      query: z.strictObject({ locale: placeShape.locale }), response: CoverageResponse,
      errors: ['invalid_parameter', 'unauthorized', 'internal_error', 'maintenance'],
      policy: { auth: true, units: 0 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const countries = [];
        for (const profile of PROFILES) {
          const c = profile.id;
          const levels = new Set<VariantLevel>([...await deps.zones.levels(c)].map((l) => LEVEL_TO_VARIANT[l]));
          levels.add('country');
          const manifest = await deps.manifests.get(c);
          const sources = new Map<string, { id: string; imported_at: string | null; rows: number }>();
          for (const p of manifest.partitions) {
            for (const s of p.sources) {
              const e = sources.get(s.id) ?? { id: s.id, imported_at: null, rows: 0 };
              e.rows += p.table === 'zone_cells' ? 0 : p.rows;
              if (!e.imported_at || p.imported_at > e.imported_at) e.imported_at = p.imported_at;
              sources.set(s.id, e);
            }
          }
          countries.push({
            country: profile.code, name: profile.name, territory: profile.territory.label, allowed: request.apiKey!.countries.includes(c),
            domains: (Object.keys(VARIANT_DOMAINS) as VariantDomain[]).map((d) => ({
              domain: d, label: labelOf(VARIANT_DOMAINS, d, locale), coverage: profile.variantCoverage[d] ?? 'full', served: SERVED.includes(d) && profile.variantCoverage[d] !== 'none',
            })),
            zone_levels: VARIANT_LEVEL_ORDER.map((level) => ({ level, ingested: levels.has(level) })),
            sources: [...sources.values()].sort((a, b) => a.id.localeCompare(b.id)),
          });
        }
        return variantEnvelope(request, deps.clock, { countries }, [], []);
      },
    },
  ];
}
