import { pointOnFeature } from '@turf/turf';
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
import type { BuildingSaleRow } from './building-index.ts';
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
 * A point inside the footprint (its centroid when the centroid is inside, else a point on its
 * surface: turf's pointOnFeature), or null when the building has no footprint row.
 */
export async function buildingPoint(warehouse: Warehouse, id: string): Promise<{ latitude: number; longitude: number } | null> {
  const [row] = await warehouse.query<{ geometry: string }>(`SELECT geometry FROM fr_buildings WHERE id = $1 LIMIT 1`, [id]);
  if (!row) return null;
  const [longitude, latitude] = pointOnFeature(JSON.parse(row.geometry) as Polygon | MultiPolygon).geometry.coordinates as [number, number];
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
