import { z } from 'zod';
import { Country } from './common.ts';

/** An entry of /catalog/fields (spec 4.4): definition, label, unit, update rhythm, coverage. */
export const CatalogField = z.object({
  id: z.string(),
  domain: z.string(),
  label: z.string(),
  definition: z.string(),
  unit: z.string().nullable(),
  update_frequency: z.enum(['daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly', 'irregular']),
  sources: z.array(z.string()),
  coverage: z.object({
    status: z.enum(['available', 'partial', 'not_ingested']),
    territories: z.array(z.string()).nullable(),
    updated_on: z.string().nullable(),
  }),
});
export type CatalogField = z.infer<typeof CatalogField>;

export const CatalogFields = z.object({ country: Country, fields: z.array(CatalogField) });

/** An entry of /catalog/domains (spec 4.4): a domain, its routes and its fields. */
export const CatalogDomain = z.object({
  id: z.string(),
  label: z.string(),
  routes: z.array(z.string()).describe('routes of the domain (spec 4.4)'),
  fields: z.array(z.string()).describe('field paths of the domain'),
  served: z.boolean().describe('whether this service computes the domain today; otherwise a report answers it unavailable'),
});
export type CatalogDomain = z.infer<typeof CatalogDomain>;

export const CatalogDomains = z.object({ country: Country, domains: z.array(CatalogDomain) });
