import { z } from 'zod';
import { labelOf, type Country, type Locale } from '../../../schemas/common.ts';
import {
  Coverage, VARIANT_DOMAINS, VARIANT_LEVEL_ORDER, VariantCountry, VariantDomain, VariantLocation, VariantMeta,
  type VariantLevel,
} from '../../../schemas/variant.ts';
import { API_VERSION } from '../../../schemas/envelope.ts';
import type { Warning } from '../../../schemas/domain.ts';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.ts';
import type { Manifests } from '../../core/manifests.ts';
import type { AnyRoute } from '../../core/routes.ts';
import type { LocateDeps } from '../locate.ts';
import { COUNTRIES, PROFILES } from '../../../datasets/countries.ts';
import { localeOf, PLACE_ERRORS, placeInput, placeShape, reportShape } from '../params.ts';
import { elsewhereAlternatives, locateAnywhere } from './locate.ts';
import { fromVariantCountry, LEVEL_TO_VARIANT, toVariantCountry, toVariantLocation } from './map.ts';
import { citedSources } from './sources.ts';
import { amenitiesAt, transportAt, variantPlacesQuery, type VariantPlacesQuery, type VariantResolved } from './places.ts';
import { VariantReportResponse } from '../../../schemas/variant-report.ts';
import type { Domain, DomainStatus } from '../../../schemas/domain.ts';
import type { KeyRecord } from '../../core/keys/keys.ts';
import { invalidParameter } from '../../core/errors.ts';
import type { LocationRouteDeps } from '../domains/types.ts';

export interface VariantRouteDeps extends LocateDeps { manifests: Manifests; clock: Clock }

export const VariantLocationResponse = z.object({ data: z.object({ location: VariantLocation }), meta: VariantMeta });
export const CoverageResponse = z.object({ data: Coverage, meta: VariantMeta });

/** Domains this service computes today. */
const SERVED: VariantDomain[] = ['location', 'amenities', 'transport'];

/**
 * The country domains each variant domain is made of (spec section 1 and 2.12): a key limited to
 * some domains reads a variant domain when it is opened for all of them.
 */
export const VARIANT_FROM: Readonly<Record<VariantDomain, Domain[]>> = {
  location: ['location'], prices: ['market'], sales: ['market'], rents: ['market'], property: ['property'], energy: ['building'],
  taxation: ['market'], risks: ['risks'], urbanism: ['urbanism'], population: ['residents'], amenities: ['places'], transport: ['places', 'access'],
};

/** The variant's computed domains: each from the country's answer, with the sources it cites. */
const RESOLVERS: Partial<Record<VariantDomain, (deps: VariantRouteDeps, country: Country, q: VariantPlacesQuery) => Promise<VariantResolved<{ status: DomainStatus }>>>> = {
  amenities: (deps, country, q) => amenitiesAt(deps, country, q),
  transport: (deps, country, q) => transportAt(deps, country, q),
};

/** `include` of the variant's report: domains of spec 2.12 (a dot restricts to fields, read as the whole domain here); location always. */
export function parseVariantInclude(include: string | undefined, key: KeyRecord): { domains: VariantDomain[]; refused: VariantDomain[] } {
  const all = Object.keys(VARIANT_DOMAINS) as VariantDomain[];
  const asked: VariantDomain[] = ['location'];
  for (const part of include === undefined || include === '' ? all : include.split(',').map((p) => p.trim()).filter(Boolean)) {
    const d = part.split('.')[0]!;
    const parsed = VariantDomain.safeParse(d);
    if (!parsed.success) throw invalidParameter('include', include, `unknown domain ${d}; domains are ${all.join(', ')}`);
    if (!asked.includes(parsed.data)) asked.push(parsed.data);
  }
  const allowed = (d: VariantDomain) => d === 'location' || !key.domains || VARIANT_FROM[d].every((c) => key.domains!.includes(c));
  return { domains: asked.filter(allowed), refused: asked.filter((d) => !allowed(d)) };
}

function variantEnvelope<D>(request: FastifyRequest, clock: Clock, data: D, warnings: Warning[], sources: z.infer<typeof VariantMeta>['sources']) {
  return {
    data,
    meta: { request_id: String(request.id), api_version: API_VERSION, generated_at: clock.now().toISOString(), warnings, sandbox: request.apiKey?.sandbox ?? false, sources },
  };
}

const countryParam = z.enum(['FR', 'BE', 'CA', 'fr', 'be', 'ca']).transform((c) => c.toUpperCase() as z.infer<typeof VariantCountry>).optional()
  .describe('FR, BE or CA: the country to search in, for a city existing in several countries');

/** The place of a variant request in its country, and data.location in the variant's shape (alternatives in other countries added). */
async function variantPlace(deps: VariantRouteDeps, request: FastifyRequest, query: { lat?: number; lng?: number; address?: string; country?: z.infer<typeof VariantCountry> }, locale: Locale) {
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
  return { answer, location };
}

/** The multi-country variant (spec 4.5): location and the report without a country prefix, and the coverage catalog. */
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
        const { answer, location } = await variantPlace(deps, request, query, locale);
        const sources = await citedSources(deps.manifests, answer.country, answer.sources, deps.clock.now());
        return variantEnvelope(request, deps.clock, { location }, answer.warnings, sources);
      },
    },
    {
      method: 'GET', url: '/api/v1/report', tags: ['multi-country'], summary: 'Report of the domains of spec 2.12 at a position or an address in any covered country',
      description: 'data.location (spec 2.12) and each requested domain of spec 2.12: amenities and transport are computed from the places and access of the country of the point; a domain the country does not publish answers not_covered, one this service does not compute yet unavailable (no unit). meta.sources cites the sources of the answer. One unit per computed domain.',
      query: z.strictObject({ ...placeShape, country: countryParam, include: reportShape.include.describe(`comma-separated domains of spec 2.12 (${Object.keys(VARIANT_DOMAINS).join(', ')}); default all`), property_type: reportShape.property_type, radius: reportShape.radius }),
      response: VariantReportResponse, errors: [...PLACE_ERRORS],
      policy: { auth: true, units: 'report' },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const inclusion = parseVariantInclude(query.include, request.apiKey!);
        const { answer, location } = await variantPlace(deps, request, query, locale);
        const warnings: Warning[] = [...answer.warnings, ...inclusion.refused.map((d) => ({ domain: d, code: 'domain_not_allowed', message: `domain ${d} is not opened for this key; it is omitted` }))];
        const cited = [...answer.sources];
        const coverage = PROFILES.find((p) => p.id === answer.country)!.variantCoverage;
        const data: Record<string, unknown> = { location };
        let computed = 1;
        const q = variantPlacesQuery(answer.location, query.radius);
        for (const d of inclusion.domains) {
          if (d === 'location') continue;
          const resolve = RESOLVERS[d];
          if (coverage[d] === 'none') {
            data[d] = { status: 'not_covered', missing: {} };
            warnings.push({ domain: d, code: 'not_covered', message: `domain ${d} has no published data in ${toVariantCountry(answer.country)}` });
          } else if (!resolve) {
            data[d] = { status: 'unavailable', missing: {} };
            warnings.push({ domain: d, code: 'data_unavailable', message: `domain ${d} is not computed on this service yet` });
          } else {
            const r = await resolve(deps, answer.country, q);
            data[d] = r.value;
            warnings.push(...r.warnings);
            cited.push(...r.sources);
            // Only computed domains cost a unit (spec 8).
            if (r.value.status !== 'unavailable') computed++;
          }
        }
        request.units = computed;
        const sources = await citedSources(deps.manifests, answer.country, cited, deps.clock.now());
        return variantEnvelope(request, deps.clock, data, warnings, sources);
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
            // A partition made of several files of one source (the BDNB's compiled groups and owner tables) counts its rows once for it.
            for (const id of new Set(p.sources.map((s) => s.id))) {
              const e = sources.get(id) ?? { id, imported_at: null, rows: 0 };
              e.rows += p.table === 'zone_cells' ? 0 : p.rows;
              if (!e.imported_at || p.imported_at > e.imported_at) e.imported_at = p.imported_at;
              sources.set(id, e);
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
