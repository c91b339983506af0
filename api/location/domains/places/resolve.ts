import type { Country } from '../../../../schemas/common.ts';
import { groupOf, PLACE_GROUP_CODES } from '../../../../schemas/categories.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Places } from '../../../../schemas/places.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { sourceById, type Source } from '../../../../datasets/catalogue.ts';
import { pointCategories, pointCategorySources, pointsAroundLite, type LitePointHit, type PointHit } from '../../kinds/points.ts';
import type { LocationRouteDeps, Resolved, Resolver } from '../types.ts';
import { mergeTwins, servedHit, type Kept } from './merge.ts';
import { toPlace } from './place.ts';

/** The table every country's places and access are read from (ingest: gtfs, and the equipment jobs to come). */
export const PLACES_TABLE = 'places';
/** Default radius of places (spec 4.4, 8). */
export const PLACES_RADIUS_M = 1000;
/** Items of a report's list: its first page (spec 4.1: lists abridged in a report). */
export const REPORT_ITEMS = 10;
/** Every place within 2,000 m is read, merged and counted before a page is cut. */
const ALL = 1_000_000;

/** Categories the country's places table holds: a group without any is not ingested there, never "none around". */
export const categoriesIngested = (warehouse: Warehouse, country: Country) => pointCategories(warehouse, country, PLACES_TABLE);

export const inFilter = (category: string, filter: string | undefined) => !filter || category === filter || category.startsWith(`${filter}.`);

/**
 * Groups whose places are not all published at the point (Source.places_complete_in): every
 * ingested source of the group covers only some regions, none of them the point's region
 * (administrative_area_level1; unknown counts as not covered), alone or `together` with the other
 * sources it names, all ingested (Brussels's schools: both Communities' registers). Such a group's
 * count and nearest are null (not_covered), never a count of a part. The map gives what is
 * missing, for the warning.
 */
export async function incompleteGroups(warehouse: Warehouse, country: Country, region: string | null): Promise<Map<string, string>> {
  const bySource = new Map<string, Set<string>>();
  for (const { category, source } of await pointCategorySources(warehouse, country, PLACES_TABLE)) {
    const g = groupOf(category);
    bySource.set(g, (bySource.get(g) ?? new Set()).add(source));
  }
  return incompleteAt(bySource, region, (id) => sourceById(id)?.places_complete_in);
}

/** The rule of incompleteGroups on the sources ingested per group (pure, for tests). */
export function incompleteAt(
  bySource: ReadonlyMap<string, ReadonlySet<string>>, region: string | null, completeIn: (source: string) => Source['places_complete_in'],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [g, sources] of bySource) {
    const partial = [...sources].map(completeIn).filter((c): c is NonNullable<typeof c> => c?.group === g);
    if (partial.length < sources.size) continue; // a source of the whole country
    const withAll = (c: (typeof partial)[number]) => c.together !== undefined && c.together.with.every((id) => sources.has(id));
    if (region !== null && partial.some((c) => c.administrative_area_level1.includes(region) || (withAll(c) && c.together!.administrative_area_level1.includes(region)))) continue;
    // What is missing: the other producers a source needs and that are not ingested; with all of them in, only the point's region is unknown.
    const why = partial.filter((c) => !withAll(c)).map((c) => c.missing);
    out.set(g, why.length > 0 ? why.join('; ') : "the point's region is not known");
  }
  return out;
}

export interface PlacesQuery {
  lat: number; lng: number; radius: number; category?: string; page: number; perPage: number;
  /** The point's administrative_area_level1 code (null when unknown): where a group's sources are complete. */
  region: string | null;
}

/**
 * Every place within the radius once (docs/places.md), nearest first: names and positions are read
 * for the merge, attributes only by servedHit for the places served.
 */
export async function placesAround(deps: LocationRouteDeps, country: Country, q: { lat: number; lng: number; radius: number; categories?: readonly string[] }): Promise<Kept<LitePointHit>[]> {
  const { items } = await pointsAroundLite(deps.warehouse, country, PLACES_TABLE, { lat: q.lat, lng: q.lng, radiusM: q.radius, categories: q.categories, limit: ALL, offset: 0 });
  return mergeTwins(items);
}

/** data.places (spec 2.11): counts per group (whatever the filter), items nearest first, one page; `hits` are the page's points as served (with their source). */
export async function placesAt(deps: LocationRouteDeps, country: Country, q: PlacesQuery): Promise<Resolved & { value: Places; hits: PointHit[] }> {
  const warnings: Warning[] = [];
  const missing: Missing = {};
  const pagination = { page: q.page, per_page: q.perPage, total: 0 };
  const counts = Object.fromEntries(PLACE_GROUP_CODES.map((g) => [g, null as number | null])) as Places['counts'];
  const ingested = await categoriesIngested(deps.warehouse, country);
  if (ingested.size === 0) {
    for (const g of PLACE_GROUP_CODES) missing[`counts.${g}`] = 'unavailable';
    missing.items = 'unavailable';
    warnings.push({ domain: 'places', code: 'data_unavailable', message: 'no places source is ingested for this country on this service yet' });
    return { value: { status: 'unavailable', radius_m: q.radius, counts, items: [], pagination, missing }, warnings, hits: [] };
  }
  const merged = await placesAround(deps, country, q);
  const groups = new Set([...ingested].map(groupOf));
  const incomplete = await incompleteGroups(deps.warehouse, country, q.region);
  const perGroup = new Map<string, number>();
  for (const h of merged) { const g = groupOf(h.category); perGroup.set(g, (perGroup.get(g) ?? 0) + 1); }
  for (const g of PLACE_GROUP_CODES) {
    if (!groups.has(g)) missing[`counts.${g}`] = 'unavailable';
    else if (incomplete.has(g)) missing[`counts.${g}`] = 'not_covered';
    else counts[g] = perGroup.get(g) ?? 0;
  }
  const pending = PLACE_GROUP_CODES.filter((g) => !groups.has(g));
  if (pending.length > 0) warnings.push({ domain: 'places', code: 'data_unavailable', message: `counts.${pending.join(', counts.')}: no source of ${pending.length > 1 ? 'these groups' : 'this group'} is ingested for this country yet` });
  for (const [g, why] of incomplete) warnings.push({ domain: 'places', code: 'data_unavailable', message: `counts.${g}: not every ${g} place is published here (${why}); the items listed are those published` });
  const listed = q.category ? merged.filter((h) => inFilter(h.category, q.category)) : merged;
  const hits = listed.slice((q.page - 1) * q.perPage, q.page * q.perPage).map(servedHit);
  if (listed.length === 0) missing.items = 'not_found';
  return {
    value: { status: pending.length > 0 || incomplete.size > 0 ? 'partial' : 'ok', radius_m: q.radius, counts, items: hits.map(toPlace), pagination: { ...pagination, total: listed.length }, missing },
    warnings, hits,
  };
}

/** The report's places: the first page around the located point, the report's radius or 1000 m. */
export const placesResolver = (country: Country): Resolver => (deps, ctx) =>
  placesAt(deps, country, {
    lat: ctx.location.latitude, lng: ctx.location.longitude, radius: ctx.radius ?? PLACES_RADIUS_M, page: 1, perPage: REPORT_ITEMS,
    region: ctx.location.zones.administrative_area_level1?.code ?? null,
  });
