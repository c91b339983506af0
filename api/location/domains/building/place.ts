import { booleanPointInPolygon, centroid } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import type { ZoneLevel, Zones } from '../../../../schemas/zone.ts';
import { ZONE_LEVEL_ORDER } from '../../../../schemas/zone.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import type { ZoneLookup } from '../../zones/lookup.ts';
import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrBuilding } from '../../../../schemas/building.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Manifests } from '../../../core/manifests.ts';
import { buildingIndexOf, buildingsFrom, type BuildingIndex } from './building-index.ts';
import type { BuildingSaleRow } from './reads.ts';
import { buildingMarket } from './market.ts';
import { buildingRisks } from './risks.ts';

/**
 * The building's own place: a point of its RNB footprint and the zones containing that point,
 * with the zone levels ingested. Its market comparison (the IRIS) and its hazards are read
 * there, so /buildings/{id}, /building and the report give one answer for one building,
 * whatever point located it (an address point may lie outside the footprint, or in the next IRIS).
 */
export interface BuildingPlace { latitude: number; longitude: number; zones: Zones; levels: Set<ZoneLevel> }

/**
 * A point inside a footprint on the horizontal line through `lat`: the middle of the widest
 * stretch of that line inside it (even-odd over every ring, holes included), or null when the
 * line misses it.
 */
function pointOnLine(footprint: Polygon | MultiPolygon, lat: number): [number, number] | null {
  const parts = footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
  let best: [number, number] | null = null, width = -1;
  for (const rings of parts) {
    const xs: number[] = [];
    for (const ring of rings) for (let i = 0; i + 1 < ring.length; i++) {
      const [x1, y1] = ring[i]!, [x2, y2] = ring[i + 1]!;
      // Half-open edges: a vertex on the line counts once.
      if ((y1! <= lat && lat < y2!) || (y2! <= lat && lat < y1!)) xs.push(x1! + ((lat - y1!) * (x2! - x1!)) / (y2! - y1!));
    }
    xs.sort((a, b) => a - b);
    for (let i = 0; i + 1 < xs.length; i += 2) if (xs[i + 1]! - xs[i]! > width) { width = xs[i + 1]! - xs[i]!; best = [(xs[i]! + xs[i + 1]!) / 2, lat]; }
  }
  return best;
}

/**
 * The point a building is read at (its protected areas, zones, hazards): the centroid of its RNB footprint, or,
 * when the centroid falls outside it (an L- or U-shaped building), the middle of the widest
 * stretch of the footprint on the centroid's latitude (for a multipolygon missing that latitude,
 * its first part's point). A footprint straddling a perimeter is
 * attached by that point only.
 */
export function footprintPoint(footprint: Polygon | MultiPolygon): [number, number] {
  const c = centroid(footprint).geometry.coordinates as [number, number];
  if (booleanPointInPolygon(c, footprint, { ignoreBoundary: true })) return c;
  const onLine = pointOnLine(footprint, c[1]);
  if (onLine) return onLine;
  // Parts apart from the centroid's latitude: the first part's own point.
  if (footprint.type === 'MultiPolygon') return footprintPoint({ type: 'Polygon', coordinates: footprint.coordinates[0]! });
  return footprint.coordinates[0]![0]! as [number, number];
}

/** The building's point (footprintPoint of its RNB footprint), or null when the building has no footprint row. */
export async function buildingPoint(warehouse: Warehouse, id: string, index: BuildingIndex | null = buildingIndexOf(warehouse)): Promise<{ latitude: number; longitude: number } | null> {
  const from = await buildingsFrom(warehouse, id, index);
  if (!from) return null;
  const [row] = await warehouse.query<{ geometry: string }>(`SELECT geometry FROM ${from} WHERE id = $1 LIMIT 1`, [id]);
  if (!row) return null;
  const [longitude, latitude] = footprintPoint(JSON.parse(row.geometry) as Polygon | MultiPolygon);
  return { latitude, longitude };
}

/** The building's place, or null when it has no footprint. */
export async function buildingPlace(deps: { warehouse: Warehouse; zones: ZoneLookup }, id: string): Promise<BuildingPlace | null> {
  const point = await buildingPoint(deps.warehouse, id);
  if (!point) return null;
  const zones = Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, null])) as Zones;
  for (const z of await deps.zones.zonesAt('fr', point.longitude, point.latitude)) zones[z.level] = { level: z.level, code: z.code, name: z.name };
  return { ...point, zones, levels: await deps.zones.levels('fr') };
}

/** What the building's market and hazards read besides the warehouse. */
export interface BuildingDeps { warehouse: Warehouse; zones: ZoneLookup; manifests: Manifests; clock: Clock }

/**
 * The fields of data.building read at its place (spec 2.7): median_price_per_m2_24m and
 * vs_sublocality_level2 (market.ts), risks (risks.ts), with their absence reasons and warnings.
 */
export async function placeFields(deps: BuildingDeps, id: string, sales: readonly BuildingSaleRow[], locale: Locale):
  Promise<{ value: Pick<FrBuilding, 'median_price_per_m2_24m' | 'vs_sublocality_level2' | 'risks'>; missing: Missing; warnings: Warning[] }> {
  const place = await buildingPlace(deps, id);
  const [market, risks] = [await buildingMarket(deps, sales, place, locale), await buildingRisks(deps, id, place, locale)];
  return { value: { ...market.value, risks: risks.value }, missing: { ...market.missing, ...risks.missing }, warnings: [...market.warnings, ...risks.warnings] };
}
