import type { Location } from '../../schemas/location.ts';
import type { Warehouse } from '../core/warehouse.ts';
import { buildingReadsOf } from './domains/building/building-index.ts';

/** Tables of the buildings (written by fr.buildings). */
export const BUILDING_TABLES = ['buildings', 'buildings_cells', 'building_links'];

/** Precisions at which a building may be named (spec 2.6: building-level data at building or address; input is the client's own point). */
export const BUILDING_PRECISIONS: readonly Location['precision'][] = ['input', 'building', 'address'];

/**
 * The building of a located place, or null: for an official address found at its number
 * (`addressId`), the one building the RNB links to that address (its producer's link: an address
 * point set at an entrance may lie in a neighbour's footprint); else the RNB footprint containing
 * the point; else the one building linked to the place's parcel. An address or parcel linked to
 * several buildings names none that way: never the wrong building. Null below address precision.
 */
export async function buildingIdAt(warehouse: Warehouse, l: Pick<Location, 'precision' | 'latitude' | 'longitude' | 'parcel'>, addressId: string | null = null): Promise<string | null> {
  if (!BUILDING_PRECISIONS.includes(l.precision) || !warehouse.has('fr', 'buildings')) return null;
  const reads = buildingReadsOf(warehouse);
  const linked = async (kind: 'address' | 'parcel', key: string) => {
    const ids = await reads.buildingsLinked(kind, key);
    return ids.length === 1 ? ids[0]! : null;
  };
  if (addressId !== null) {
    const byAddress = await linked('address', addressId);
    if (byAddress) return byAddress;
  }
  const hit = (await reads.buildingsAt(l.longitude, l.latitude))[0];
  if (hit) return hit;
  if (l.parcel && 'id' in l.parcel) return linked('parcel', l.parcel.id);
  return null;
}

/**
 * The properties of a building (fr.properties), most recently sold or diagnosed first: properties
 * have no position of their own, so the first is the default ("nearest") property of the place.
 */
export async function propertyIdsOf(warehouse: Warehouse, buildingId: string): Promise<string[]> {
  if (!warehouse.has('fr', 'properties')) return [];
  return (await buildingReadsOf(warehouse).propertiesOf(buildingId)).map((p) => p.id);
}
