import { z } from 'zod';
import { Domain, DOMAINS, type DomainStatus, type Warning } from '../../schemas/domain.ts';
import { invalidParameter } from '../core/errors.ts';
import type { KeyRecord } from '../core/keys/keys.ts';

/** Report parameters beyond the place (spec 4.1). */
export const reportShape = {
  include: z.string().trim().optional().describe('comma-separated domains, a domain restricted to fields with a dot (market.sale_price_median); default all domains of the key'),
  property_id: z.string().regex(/^prp_[A-Za-z0-9_-]+$/, 'property_id must be a prp_ identifier').optional().describe('property to describe when the building has several'),
  property_type: z.enum(['apartment', 'house']).optional().describe('serves only values of this type'),
  radius: z.string().regex(/^\d+$/, 'radius must be an integer number of meters').transform(Number)
    .refine((v) => v >= 100 && v <= 2000, 'radius must be between 100 and 2000').optional().describe('meters, 100 to 2000, radius of lists'),
};

export interface Inclusion { domains: Domain[]; fields: Map<Domain, string[]>; refused: Domain[] }

/** Parses `include` and keeps what the key may read; location is always served. */
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
  if (!asked.includes('location')) asked.unshift('location');
  const allowed = (d: Domain) => d === 'location' || !key.domains || key.domains.includes(d);
  return { domains: asked.filter(allowed), fields, refused: asked.filter((d) => !allowed(d)) };
}

export function refusedWarnings(refused: Domain[]): Warning[] {
  return refused.map((d) => ({ domain: d, code: 'domain_not_allowed', message: `domain ${d} is not opened for this key; it is omitted` }));
}

/** A domain whose sources are not ingested yet: said honestly, never filled with placeholders. */
export function notIngestedDomain(domain: Domain): { value: { status: DomainStatus; missing: Record<string, never> }; warning: Warning } {
  return {
    value: { status: 'unavailable', missing: {} },
    warning: { domain, code: 'data_unavailable', message: `the sources of domain ${domain} are not ingested on this service yet` },
  };
}
