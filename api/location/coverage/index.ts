/**
 * Territorial coverage: is a position inside one of the territories the API
 * serves? Judged on real outlines (Natural Earth 1:10m via `world-atlas`), not
 * on which zones happen to be ingested.
 *
 *  - 'fr': metropolitan France (Corsica and coastal islands included) + the five
 *    DROM (Guadeloupe, Martinique, Guyane, La Réunion, Mayotte). Not Monaco, not
 *    the overseas collectivities (Saint-Pierre-et-Miquelon, New Caledonia, ...).
 *  - 'be': Belgium.
 *  - 'ca': the province of Quebec only = Canada's outline AND an approximate,
 *    hand-built Quebec polygon (see `quebec.ts` for how and how precise).
 *
 * Coastal tolerance. Natural Earth 10m is generalised (vertices every few
 * hundred metres, small islets dropped, coast smoothed), so a real address on a
 * quay, a beach or a small island can fall a few hundred metres "in the sea".
 * A point strictly outside the country's polygons is therefore still accepted
 * when it lies within COAST_TOLERANCE_KM of the country's outline AND is not
 * strictly inside ANOTHER country's polygon. The second condition keeps land
 * borders sharp (Monaco, Geneva's suburbs, a Dutch village next to Belgium, a
 * Vermont town on the Quebec line are rejected), while sea-side points get the
 * slack. We measure a point-to-segment distance on the candidate polygons
 * (bbox-prefiltered) instead of buffering the polygons with turf: buffering a
 * 3 000-vertex coastline is slow (hundreds of ms per country at load) and
 * produces even bigger polygons to test against, whereas the distance check
 * only runs for the rare points that fail the strict test, only on polygons
 * whose bbox is near the point, and is a few microseconds per segment.
 */
import type { Country } from '../../../schemas/common.ts';
import { COUNTRIES, profileOf } from '../../../datasets/countries.ts';
import {
  indexPolygon,
  insideAny,
  withinKmOfOutline,
  worldIndex,
  type IndexedPolygon,
} from './outlines.ts';
import { QUEBEC_APPROX_RING } from './quebec.ts';

export type CoverageCountry = Country;

/** Distance to the outline under which a point outside the polygon still counts (sea side only). */
// 2 km rather than 1: e.g. central Menton (43.7764, 7.5048) lies 1.5-2 km
// outside the Natural Earth coastline.
export const COAST_TOLERANCE_KM = 2;

let quebecPolys: IndexedPolygon[] | null = null;

function quebecApprox(): IndexedPolygon[] {
  if (!quebecPolys) {
    const ring = QUEBEC_APPROX_RING.map(([x, y]) => [x, y]);
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0], first[1]]);
    quebecPolys = [indexPolygon('qc-approx', [ring])];
  }
  return quebecPolys;
}

function countryPolys(iso: string): IndexedPolygon[] {
  return worldIndex().byCountry.get(iso) ?? [];
}

/** Inside the country's Natural Earth outline, with the sea-side tolerance. */
function inNaturalEarthCountry(iso: string, lng: number, lat: number): boolean {
  const own = countryPolys(iso);
  if (insideAny(own, lng, lat)) return true;
  if (!withinKmOfOutline(own, lng, lat, COAST_TOLERANCE_KM)) return false;
  // Near the outline but outside: accept only if no other country claims it
  // (i.e. it is in the sea, not across a land border).
  return !insideAny(worldIndex().all, lng, lat, iso);
}

function validPosition(lng: number, lat: number): boolean {
  return Number.isFinite(lng) && Number.isFinite(lat) && lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
}

/**
 * Is the position ([lng, lat], WGS84) inside the served territory of `country`?
 * Invalid coordinates return false. The first call loads the outlines (~0.1-0.3 s).
 */
export function isInCountry(country: CoverageCountry, lng: number, lat: number): boolean {
  if (!validPosition(lng, lat)) return false;
  const { outline } = profileOf(country);
  // The finer outline first where there is one: the cheap hand-made polygon rejects most of the world.
  if (outline.within === 'quebec' && !insideAny(quebecApprox(), lng, lat)) return false;
  return inNaturalEarthCountry(outline.naturalEarthId, lng, lat);
}

/** The served territory containing the position, or null. */
export function countryOf(lng: number, lat: number): CoverageCountry | null {
  for (const c of COUNTRIES) if (isInCountry(c, lng, lat)) return c;
  return null;
}

/** Loads the outlines now (e.g. at server start) instead of on the first request. */
export function preloadCoverage(): void {
  worldIndex();
  quebecApprox();
}
