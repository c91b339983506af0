import { z } from 'zod';
import { Country } from './common.ts';
import { HazardLevel, HazardScope, HazardType } from './hazard.ts';

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

/** A level of a hazard type and what it means for that type (spec 2.5 level definitions). */
export const CatalogHazardLevel = z.object({ level: HazardLevel, label: z.string(), definition: z.string() });

/** An entry of /catalog/hazards (spec 4.2, 4.4): a type, its levels, where and from what it is assessed. */
export const CatalogHazard = z.object({
  type: HazardType,
  label: z.string(),
  definition: z.string(),
  levels: z.array(CatalogHazardLevel).describe('levels served for the type, lowest first'),
  assessed_in: z.array(z.object({
    country: Country,
    scope: z.array(HazardScope),
    sources: z.array(z.string()).describe('source ids (datasets catalogue) assessing the type in the country'),
    served: z.boolean().describe('whether this service computes the type in the country today'),
  })),
  not_assessed_in: z.array(Country).describe('countries where the type is named in not_assessed (spec 2.5)'),
});
export type CatalogHazard = z.infer<typeof CatalogHazard>;

export const CatalogHazards = z.object({ country: Country, hazards: z.array(CatalogHazard) });
