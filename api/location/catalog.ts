import { z } from 'zod';
import type { Country, Locale } from '../../schemas/common.ts';
import { CatalogDomains, CatalogFields, CatalogHazards, type CatalogDomain, type CatalogField, type CatalogHazard } from '../../schemas/catalog.ts';
import { CatalogCategories, PLACE_CATEGORIES, PLACE_GROUPS, groupOf } from '../../schemas/categories.ts';
import type { Warehouse } from '../core/warehouse.ts';
import { DOMAINS } from '../../schemas/domain.ts';
import { HAZARD_LEVELS, HAZARD_TYPES } from '../../schemas/hazard.ts';
import { envelope as envelopeSchema } from '../../schemas/envelope.ts';
import { labelOf } from '../../schemas/common.ts';
import type { Manifest } from '../../schemas/tables/manifest.ts';
import { sourceById } from '../../datasets/catalogue.ts';
import { profileOf } from '../../datasets/countries.ts';
import { envelope } from '../core/respond.ts';
import type { AnyRoute } from '../core/routes.ts';
import { ALL_FIELDS, computes, DOMAIN_REGISTRY } from './domains/index.ts';
import { HAZARD_CATALOG } from './domains/risks/hazards.ts';
import type { LocationRouteDeps } from './domains/types.ts';
import { localeOf, placeShape } from './params.ts';
import { zoneValueTerritories, type ZoneValueTerritories } from './kinds/zone-values.ts';

export const CatalogFieldsResponse = envelopeSchema(CatalogFields);
export const CatalogDomainsResponse = envelopeSchema(CatalogDomains);
export const CatalogCategoriesResponse = envelopeSchema(CatalogCategories);

/**
 * /catalog/categories: the taxonomy (identical in every country, spec 2.5) with the sources whose
 * rows the country's places table serves under each code; a group lists its categories' sources.
 */
export async function catalogCategories(warehouse: Warehouse, country: Country, locale: Locale): Promise<z.infer<typeof CatalogCategories>> {
  const fed = new Map<string, string[]>();
  if (warehouse.has(country, 'places')) {
    const rows = await warehouse.query<{ category: string; sources: string[] }>(`SELECT category, list(DISTINCT source ORDER BY source) AS sources FROM ${country}_places GROUP BY category`);
    for (const r of rows) fed.set(r.category, [...r.sources]);
  }
  const sourcesOf = (code: string) => [...new Set([...fed].filter(([c]) => c === code || groupOf(c) === code).flatMap(([, s]) => s))].sort();
  return {
    country,
    groups: Object.entries(PLACE_GROUPS).map(([code, label]) => ({ code, group: code, label: label[locale], sources: sourcesOf(code) })),
    categories: Object.entries(PLACE_CATEGORIES).map(([code, label]) => ({ code, group: groupOf(code), label: label[locale], sources: sourcesOf(code) })),
  };
}

export const CatalogHazardsResponse = envelopeSchema(CatalogHazards);

/** /catalog/fields: each field of the domains with its definition and whether its sources are ingested here. */
export function catalogFields(country: Country, locale: Locale, manifest: Manifest, zoneTerritories: ZoneValueTerritories | null = null): CatalogField[] {
  return ALL_FIELDS.filter((f) => f.countries.includes(country)).map((f) => {
    const prefixed = (id: string) => (f.sourcePrefixes ?? []).some((x) => id.startsWith(`${x}.`));
    const parts = manifest.partitions.filter((p) => f.table !== null && p.table === f.table && p.sources.some((s) => f.sources.includes(s.id) || prefixed(s.id) || s.id.startsWith(`${country}.zones.`)));
    // Sources named at ingest (GTFS feeds): the ones ingested, after the catalogued ones.
    const named = [...new Set(parts.flatMap((p) => p.sources.map((s) => s.id)).filter(prefixed))].sort();
    const sources = f.sources.map((id) => sourceById(id)).filter((s) => s !== undefined);
    const frequency = sources[0]?.update_frequency ?? 'irregular';
    const updated = parts.map((p) => p.imported_at).sort().at(-1) ?? null;
    const ingested = f.table === null || parts.length > 0;
    let status: CatalogField['coverage']['status'] = !ingested ? 'not_ingested' : f.territories ? 'partial' : 'available';
    let territories: string[] | null = ingested ? f.territories ?? null : null;
    // A source published per territory covers the territories whose partition is ingested.
    const perTerritory = sources.find((s) => s.partition_territories);
    if (perTerritory && parts.length > 0) {
      const all = perTerritory.partition_territories!;
      territories = [...new Set(parts.map((p) => all[p.partition]).filter((r): r is string => !!r))].sort();
      if (territories.length < Object.keys(all).length) status = 'partial';
    }
    // A zone-values field covers the territories where its sources published values (a departmental
    // or regional extract, a national file): partial while some territory of the country has none.
    if (zoneTerritories && f.table === 'zone_values' && parts.length > 0) {
      const codes = new Set(f.sources.flatMap((id) => [...(zoneTerritories.bySource.get(id) ?? [])]));
      if (codes.size > 0) {
        territories = [...codes].map((c) => zoneTerritories.names.get(c) ?? c).sort();
        const known = zoneTerritories.names.size;
        status = known > 0 && [...zoneTerritories.names.keys()].every((c) => codes.has(c)) ? 'available' : 'partial';
      }
    }
    return {
      id: f.id, domain: f.domain, label: f.label[locale], definition: f.definition[locale], unit: f.unit, update_frequency: frequency,
      sources: [...f.sources, ...named], coverage: { status, territories, updated_on: updated ? updated.slice(0, 10) : null },
    };
  });
}

/** /catalog/domains: each domain the country publishes, with its routes and fields, and whether it is computed here. */
export function catalogDomains(country: Country, locale: Locale): CatalogDomain[] {
  return profileOf(country).domains.map((id) => {
    const m = DOMAIN_REGISTRY[id];
    return {
      id, label: labelOf(DOMAINS, id, locale), routes: (m.paths[country] ?? []).map((r) => `/api/v1/${country}${r}`),
      fields: m.catalogFields[country] ?? [], served: computes(id, country),
    };
  });
}

/**
 * /catalog/hazards: every hazard type with its levels and their definitions (spec 2.5), the
 * countries and sources assessing it; `served` when this service computes the risks of the
 * country and knows every source (datasets/catalogue.ts). The same catalogue in every country.
 */
export function catalogHazards(locale: Locale): CatalogHazard[] {
  return HAZARD_CATALOG.map((h) => ({
    type: h.type, label: labelOf(HAZARD_TYPES, h.type, locale), definition: h.definition[locale],
    levels: h.levels.map((l) => ({ level: l.level, label: labelOf(HAZARD_LEVELS, l.level, locale), definition: l.definition[locale] })),
    assessed_in: h.assessedIn.map((a) => ({
      country: a.country, scope: a.scope, sources: a.sources,
      served: computes('risks', a.country) && a.sources.every((id) => sourceById(id) !== undefined),
    })),
    not_assessed_in: h.notAssessedIn,
  }));
}

const CATALOG_ERRORS = ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'internal_error'] as const;

/** The catalog routes a country serves (spec 4.2, 4.4; which ones: datasets/<country>/profile.ts). */
export function catalogRoutes(country: Country, deps: LocationRouteDeps): AnyRoute[] {
  const base = `/api/v1/${country}`;
  const routes: Record<'fields' | 'domains' | 'categories' | 'hazards', AnyRoute> = {
    fields: {
      method: 'GET', url: `${base}/catalog/fields`, tags: [country], summary: 'Field definitions with their coverage',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogFieldsResponse, errors: [...CATALOG_ERRORS],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const manifest = await deps.manifests.get(country);
        const territories = await zoneValueTerritories(deps.warehouse, country);
        return envelope(request, deps.clock, { country, fields: catalogFields(country, locale, manifest, territories) });
      },
    },
    domains: {
      method: 'GET', url: `${base}/catalog/domains`, tags: [country], summary: 'Domains with their routes and fields',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogDomainsResponse, errors: [...CATALOG_ERRORS],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }) => envelope(request, deps.clock, { country, domains: catalogDomains(country, localeOf(request, query.locale)) }),
    },
    categories: {
      method: 'GET', url: `${base}/catalog/categories`, tags: [country], summary: 'Place categories with the sources feeding them',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogCategoriesResponse, errors: [...CATALOG_ERRORS],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }) => envelope(request, deps.clock, await catalogCategories(deps.warehouse, country, localeOf(request, query.locale))),
    },
    hazards: {
      method: 'GET', url: `${base}/catalog/hazards`, tags: [country], summary: 'Hazard types, their levels and where they are assessed',
      query: z.strictObject({ locale: placeShape.locale }), response: CatalogHazardsResponse, errors: [...CATALOG_ERRORS],
      policy: { auth: true, country, units: 0 },
      handler: async ({ request, query }) => envelope(request, deps.clock, { country, hazards: catalogHazards(localeOf(request, query.locale)) }),
    },
  };
  return profileOf(country).catalogs.map((c) => routes[c]);
}
