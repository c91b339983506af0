import { z } from 'zod';
import type { Country } from '../../schemas/common.ts';
import { Domain, DOMAINS, type DomainStatus, type Warning } from '../../schemas/domain.ts';
import { envelope as envelopeSchema } from '../../schemas/envelope.ts';
import { profileOf } from '../../datasets/countries.ts';
import { invalidParameter } from '../core/errors.ts';
import type { KeyRecord } from '../core/keys/keys.ts';
import { envelope } from '../core/respond.ts';
import type { AnyRoute } from '../core/routes.ts';
import { ALWAYS_SERVED, DOMAIN_REGISTRY, ReportData } from './domains/index.ts';
import type { LocationRouteDeps, Resolved } from './domains/types.ts';
import { locate } from './locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, placeShape, reportShape } from './params.ts';

export const ReportResponse = envelopeSchema(ReportData);

export interface Inclusion { domains: Domain[]; fields: Map<Domain, string[]>; refused: Domain[] }

/** Parses `include` and keeps what the key may read; the always-served domains (location) are always there. */
export function parseInclude(include: string | undefined, key: KeyRecord, available: readonly Domain[]): Inclusion {
  const fields = new Map<Domain, string[]>();
  let asked: Domain[];
  if (include === undefined || include === '') {
    asked = [...available];
  } else {
    asked = [];
    for (const part of include.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [d, ...rest] = part.split('.');
      const parsed = Domain.safeParse(d);
      if (!parsed.success) throw invalidParameter('include', include, `unknown domain ${d}; domains are ${Object.keys(DOMAINS).join(', ')}`);
      if (!asked.includes(parsed.data)) asked.push(parsed.data);
      if (rest.length > 0) fields.set(parsed.data, [...(fields.get(parsed.data) ?? []), rest.join('.')]);
    }
  }
  for (const d of [...ALWAYS_SERVED].reverse()) if (!asked.includes(d)) asked.unshift(d);
  const allowed = (d: Domain) => ALWAYS_SERVED.includes(d) || !key.domains || key.domains.includes(d);
  return { domains: asked.filter(allowed), fields, refused: asked.filter((d) => !allowed(d)) };
}

export function refusedWarnings(refused: Domain[]): Warning[] {
  return refused.map((d) => ({ domain: d, code: 'domain_not_allowed', message: `domain ${d} is not opened for this key; it is omitted` }));
}

/** A domain whose sources are not ingested yet: said honestly, never filled with placeholders. */
export function notIngestedDomain(domain: Domain): Resolved & { value: { status: DomainStatus; missing: Record<string, never> } } {
  return {
    value: { status: 'unavailable', missing: {} },
    warnings: [{ domain, code: 'data_unavailable', message: `the sources of domain ${domain} are not ingested on this service yet` }],
  };
}

/** A domain the country does not publish (spec section 1 table). */
function notPublished(domain: Domain): Resolved {
  return {
    value: { status: 'not_covered', missing: {} },
    warnings: [{ domain, code: 'not_covered', message: `domain ${domain} has no published data in this country` }],
  };
}

/** GET /api/v1/<country>/report (spec 4.2, 4.3, 4.4): each requested domain from its module (api/location/domains/). */
export function reportRoute(country: Country, deps: LocationRouteDeps): AnyRoute {
  const published = profileOf(country).domains;
  return {
    method: 'GET', url: `/api/v1/${country}/report`, tags: [country], summary: 'Report of the domains at a position or an address',
    description: 'data.location and each requested domain; a domain outside the key is omitted and reported in meta.warnings (spec 5). One unit per computed domain.',
    query: z.strictObject({ ...placeShape, ...reportShape }), response: ReportResponse, errors: [...PLACE_ERRORS],
    policy: { auth: true, country, units: 'report' },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const inclusion = parseInclude(query.include, request.apiKey!, published);
      const { location, warnings } = await locate(deps, country, placeInput(query), locale);
      warnings.push(...refusedWarnings(inclusion.refused));
      const data: Record<string, unknown> = {};
      let computed = 0;
      for (const d of inclusion.domains) {
        const resolve = DOMAIN_REGISTRY[d].resolvers[country];
        const answer = !published.includes(d) ? notPublished(d)
          : !resolve ? notIngestedDomain(d)
            : await resolve(deps, { country, location, locale, radius: query.radius, propertyType: query.property_type, propertyId: query.property_id, fields: inclusion.fields.get(d) ?? [] });
        data[d] = answer.value;
        warnings.push(...answer.warnings);
        // Only computed domains cost a unit (spec 8); unavailable ones are not charged.
        if (resolve && published.includes(d) && answer.value.status !== 'unavailable') computed++;
      }
      request.units = computed;
      return envelope(request, deps.clock, data, warnings);
    },
  };
}
