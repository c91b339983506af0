import type { Country } from '../../../schemas/common.ts';
import type { Missing, Warning } from '../../../schemas/domain.ts';
import type { Location } from '../../../schemas/location.ts';
import {
  TRANSPORT_MODE_CODES, TransportMode,
  type Amenities, type Transport, type TransportLine, type TransportStop, type VariantPlace,
} from '../../../schemas/variant-places.ts';
import type { PointHit } from '../kinds/points.ts';
import { nearestPlace } from '../domains/access/resolve.ts';
import { servedHit } from '../domains/places/merge.ts';
import { placeId, toPlace } from '../domains/places/place.ts';
import { categoriesIngested, incompleteGroups, inFilter, placesAround, placesAt, PLACES_RADIUS_M, REPORT_ITEMS } from '../domains/places/resolve.ts';
import type { LocationRouteDeps } from '../domains/types.ts';

/**
 * The variant's amenities and transport (spec 2.12), from the places and access of the country
 * the point is in (api/location/domains/places, access): the same places, merge and order, under
 * the variant's names, each with its source.
 */

export interface VariantPlacesQuery { lat: number; lng: number; radius: number; region: string | null }
export interface VariantResolved<V> { value: V; warnings: Warning[]; sources: string[] }

export const variantPlacesQuery = (location: Location, radius: number | undefined): VariantPlacesQuery => ({
  lat: location.latitude, lng: location.longitude, radius: radius ?? PLACES_RADIUS_M, region: location.zones.administrative_area_level1?.code ?? null,
});

const withSource = (hit: PointHit): VariantPlace => ({ ...toPlace(hit), source: hit.source });

/** A country warning under the variant's domain name. */
const renamed = (warnings: Warning[], domain: string): Warning[] => warnings.map((w) => ({ ...w, domain }));

/** data.amenities: the country's data.places (counts per group, the first page nearest first), each place with its source. */
export async function amenitiesAt(deps: LocationRouteDeps, country: Country, q: VariantPlacesQuery): Promise<VariantResolved<Amenities>> {
  const { value, warnings, hits } = await placesAt(deps, country, { ...q, page: 1, perPage: REPORT_ITEMS });
  return {
    value: { status: value.status, radius_m: value.radius_m, counts: value.counts, items: hits.map(withSource), pagination: value.pagination, missing: value.missing },
    warnings: renamed(warnings, 'amenities'),
    sources: hits.map((h) => h.source),
  };
}

/** Categories of the taxonomy that are transit stops, and the mode a stop of each has when its lines are not published. */
export const STOP_CATEGORIES: Readonly<Record<string, TransportMode | null>> = {
  'transport.train_station': 'rail', 'transport.metro': 'metro', 'transport.tram': 'tram', 'transport.bus': 'bus',
  'transport.ferry': 'ferry', 'transport.cable': 'cable', 'transport.stop': null,
};
/** Stops listed in data.transport: the nearest (stops_by_mode counts every stop within the radius). */
export const TRANSPORT_STOP_ITEMS = 20;

/** Which taxonomy code each nearest of data.transport reads (access.nearest's codes, and charging stations). */
const NEAREST = {
  train_station: 'transport.train_station', airport: 'transport.airport', road_access: 'transport.highway_access', charging_station: 'transport.charging_station',
} as const;

const isMode = (m: unknown): m is TransportMode => TransportMode.safeParse(m).success;

/** A stop as spec 2.12 describes it, from its point as served (the lines of its twins joined). */
export function toStop(hit: PointHit): TransportStop {
  const a = hit.attributes ?? {};
  const lines: TransportLine[] = Array.isArray(a.lines)
    ? (a.lines as Record<string, unknown>[]).map((l) => ({
      short_name: typeof l.short_name === 'string' ? l.short_name : null,
      long_name: typeof l.long_name === 'string' ? l.long_name : null,
      mode: isMode(l.mode) ? l.mode : null,
      color: typeof l.color === 'string' ? l.color : null,
    }))
    : [];
  const published = [...new Set(lines.map((l) => l.mode).filter((m): m is TransportMode => m !== null))];
  const own = STOP_CATEGORIES[hit.category] ?? null;
  return {
    id: placeId(hit.id), name: hit.name,
    modes: published.length > 0 ? TRANSPORT_MODE_CODES.filter((m) => published.includes(m)) : own ? [own] : [],
    lines,
    wheelchair_accessible: typeof a.wheelchair_accessible === 'boolean' ? a.wheelchair_accessible : null,
    latitude: hit.latitude, longitude: hit.longitude, distance_m: Math.round(hit.distance_m), source: hit.source,
  };
}

/**
 * data.transport: the stops within the radius once each (the merge of places), how many serve each
 * mode, and the nearest train station, airport, road access and charging station however far
 * within the country (the access domain's nearest). A part no ingested source holds is null/empty
 * with missing unavailable, never "none"; a group not all published at the point is not_covered.
 */
export async function transportAt(deps: LocationRouteDeps, country: Country, q: VariantPlacesQuery): Promise<VariantResolved<Transport>> {
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const sources: string[] = [];
  const ingested = await categoriesIngested(deps.warehouse, country);
  const has = (code: string) => [...ingested].some((c) => inFilter(c, code));
  const stopCodes = Object.keys(STOP_CATEGORIES);
  const pending: string[] = [];
  const stopsByMode = Object.fromEntries(TRANSPORT_MODE_CODES.map((m) => [m, null])) as Transport['stops_by_mode'];
  let stops: TransportStop[] = [];
  const incomplete = (await incompleteGroups(deps.warehouse, country, q.region)).get('transport');
  if (!stopCodes.some(has)) {
    missing.stops = 'unavailable';
    for (const m of TRANSPORT_MODE_CODES) missing[`stops_by_mode.${m}`] = 'unavailable';
    pending.push('stops', 'stops_by_mode');
  } else {
    const all = (await placesAround(deps, country, { ...q, categories: stopCodes })).map((k) => toStop(servedHit(k)));
    for (const m of TRANSPORT_MODE_CODES) stopsByMode[m] = incomplete === undefined ? all.filter((s) => s.modes.includes(m)).length : null;
    if (incomplete !== undefined) {
      for (const m of TRANSPORT_MODE_CODES) missing[`stops_by_mode.${m}`] = 'not_covered';
      warnings.push({ domain: 'transport', code: 'data_unavailable', message: `stops_by_mode: not every transport place is published here (${incomplete})` });
    }
    stops = all.slice(0, TRANSPORT_STOP_ITEMS);
    if (stops.length === 0) missing.stops = 'not_found';
    sources.push(...stops.map((s) => s.source));
  }
  const nearest: Transport['nearest'] = { train_station: null, airport: null, road_access: null, charging_station: null };
  for (const [key, code] of Object.entries(NEAREST) as [keyof typeof NEAREST, string][]) {
    if (!has(code)) { missing[`nearest.${key}`] = 'unavailable'; pending.push(`nearest.${key}`); continue; }
    if (incomplete !== undefined) { missing[`nearest.${key}`] = 'not_covered'; continue; }
    const hit = await nearestPlace(deps.warehouse, country, code, q.lat, q.lng);
    nearest[key] = hit && withSource(hit);
    if (hit) sources.push(hit.source);
  }
  if (pending.length > 0) warnings.push({ domain: 'transport', code: 'data_unavailable', message: `${pending.join(', ')}: no source of ${pending.length > 1 ? 'these places' : 'this place'} is ingested for this country yet` });
  const status = ingested.size === 0 ? 'unavailable' : pending.length > 0 || incomplete !== undefined ? 'partial' : 'ok';
  return { value: { status, radius_m: q.radius, stops, stops_by_mode: stopsByMode, nearest, missing }, warnings, sources };
}
