import { groupOf } from '../../../../schemas/categories.ts';
import type { Country } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Place } from '../../../../schemas/place.ts';
import type { Access } from '../../../../schemas/places.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { nearestPoint, pointsAround, type PointHit } from '../../kinds/points.ts';
import type { LocationRouteDeps, Resolved, Resolver } from '../types.ts';
import { mergeDistanceOf, mergeDuplicates, servedHit } from '../places/merge.ts';
import { toPlace } from '../places/place.ts';
import { categoriesIngested, incompleteGroups, inFilter, placesAround, PLACES_RADIUS_M, PLACES_TABLE } from '../places/resolve.ts';

/** Which taxonomy code each part of data.access reads (a group matches its categories). */
const NEAREST = { station: 'transport.train_station', airport: 'transport.airport', highway_access: 'transport.highway_access', school: 'school' } as const;
const LISTS = {
  stations: 'transport.train_station', airports: 'transport.airport', highway_accesses: 'transport.highway_access',
  fuel_stations: 'transport.fuel', charging_stations: 'transport.charging_station',
} as const;
/** Items of each list: the nearest within the radius. */
export const ACCESS_LIST_ITEMS = 20;

/** The nearest point of a code however far within the country (spec 2.11: found beyond the radius): the index's, else DuckDB's. */
export const nearestOf = (warehouse: Warehouse, country: Country, code: string, lat: number, lng: number): Promise<PointHit | null> =>
  nearestPoint(warehouse, country, PLACES_TABLE, { lat, lng, categories: [code] });

/** The nearest place of a code however far, as the lists serve it: merged with the twins other sources publish. */
export async function nearestPlace(warehouse: Warehouse, country: Country, code: string, lat: number, lng: number): Promise<PointHit | null> {
  const hit = await nearestOf(warehouse, country, code, lat, lng);
  return hit ? withTwins(warehouse, country, hit) : null;
}

/** The nearest place as the lists serve it: merged with the twins other sources publish (docs/places.md). */
async function withTwins(warehouse: Warehouse, country: Country, hit: PointHit): Promise<PointHit> {
  const around = await pointsAround(warehouse, country, PLACES_TABLE, {
    lat: hit.latitude, lng: hit.longitude, radiusM: mergeDistanceOf(hit.category), categories: [hit.category], limit: 100, offset: 0,
  });
  return mergeDuplicates([hit, ...around.items.filter((h) => h.id !== hit.id)])[0]!;
}

export interface AccessQuery {
  lat: number; lng: number; radius: number;
  /** The point's administrative_area_level1 code: a nearest place of a group not all published there is null (not_covered). */
  region: string | null;
}

/**
 * data.access: a part whose categories no ingested source holds is null/empty with missing
 * unavailable, never "none". `nearestHits` are the nearest places' points as served (with their source).
 */
export async function accessAt(deps: LocationRouteDeps, country: Country, q: AccessQuery): Promise<Resolved & { value: Access; nearestHits: Record<keyof typeof NEAREST, PointHit | null> }> {
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const nearest: Access['nearest'] = { station: null, airport: null, highway_access: null, school: null };
  const nearestHits: Record<keyof typeof NEAREST, PointHit | null> = { station: null, airport: null, highway_access: null, school: null };
  const lists: Record<keyof typeof LISTS, Place[]> = { stations: [], airports: [], highway_accesses: [], fuel_stations: [], charging_stations: [] };
  const ingested = await categoriesIngested(deps.warehouse, country);
  const has = (code: string) => [...ingested].some((c) => inFilter(c, code));
  const pending: string[] = [];
  const incomplete = await incompleteGroups(deps.warehouse, country, q.region);
  for (const [key, code] of Object.entries(NEAREST) as [keyof typeof NEAREST, string][]) {
    if (!has(code)) { missing[`nearest.${key}`] = 'unavailable'; pending.push(`nearest.${key}`); continue; }
    // The nearest published one may not be the nearest one (another Community's school, unpublished, nearer).
    const notAll = incomplete.get(groupOf(code));
    if (notAll !== undefined) {
      missing[`nearest.${key}`] = 'not_covered';
      warnings.push({ domain: 'access', code: 'data_unavailable', message: `nearest.${key}: not every ${groupOf(code)} place is published here (${notAll})` });
      continue;
    }
    nearestHits[key] = await nearestPlace(deps.warehouse, country, code, q.lat, q.lng);
    nearest[key] = nearestHits[key] && toPlace(nearestHits[key]);
  }
  const hits = ingested.size === 0 ? [] : await placesAround(deps, country, { lat: q.lat, lng: q.lng, radius: q.radius, categories: Object.values(LISTS) });
  for (const [key, code] of Object.entries(LISTS) as [keyof typeof LISTS, string][]) {
    if (!has(code)) { missing[key] = 'unavailable'; pending.push(key); continue; }
    lists[key] = hits.filter((h) => inFilter(h.category, code)).slice(0, ACCESS_LIST_ITEMS).map((h) => toPlace(servedHit(h)));
    if (lists[key].length === 0) missing[key] = 'not_found';
  }
  const status = ingested.size === 0 ? 'unavailable' : pending.length > 0 || Object.values(missing).includes('not_covered') ? 'partial' : 'ok';
  if (pending.length > 0) warnings.push({ domain: 'access', code: 'data_unavailable', message: `${pending.join(', ')}: no source of ${pending.length > 1 ? 'these places' : 'this place'} is ingested for this country yet` });
  return { value: { status, radius_m: q.radius, nearest, ...lists, missing }, warnings, nearestHits };
}

export const accessResolver = (country: Country): Resolver => (deps, ctx) =>
  accessAt(deps, country, {
    lat: ctx.location.latitude, lng: ctx.location.longitude, radius: ctx.radius ?? PLACES_RADIUS_M, region: ctx.location.zones.administrative_area_level1?.code ?? null,
  });
