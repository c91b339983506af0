import { labelOf, type Country, type Locale } from '../../schemas/common.ts';
import type { Missing, Warning } from '../../schemas/domain.ts';
import { PRECISIONS, type Location } from '../../schemas/location.ts';
import { ZONE_LEVEL_ORDER, type ZoneLevel, type Zones } from '../../schemas/zone.ts';
import { rangesAround } from '../../schemas/tables/cells.ts';
import { ApiError } from '../core/errors.ts';
import { profileOf } from '../../datasets/countries.ts';
import { isInCountry } from './coverage/index.ts';
import type { PlaceInput } from './params.ts';
import { nearestAddress } from './search/official.ts';
import { GeocoderDownError, searchAddress, type AddressSearchDeps } from './search/search.ts';
import type { ZoneLookup } from './zones/lookup.ts';
import { areasAt } from './kinds/areas.ts';
import { buildingIdAt, propertyIdsOf } from './buildings.ts';

export interface LocateDeps extends AddressSearchDeps { zones: ZoneLookup }


/** An official address within this distance of a position is served as its address. */
const REVERSE_MAX_M = 25;

/** The cadastre's parcels (areas table kind, written by fr.cadastre). */
export const PARCELS_TABLE = 'parcels';

/** The cadastre parcel containing the point, exactly (edges answered as an exact test would), or null. */
export async function parcelAt(deps: Pick<LocateDeps, 'warehouse'>, country: Country, lng: number, lat: number): Promise<{ id: string; reference: string; area_m2: number | null } | null> {
  if (country !== 'fr') return null;
  const hit = (await areasAt(deps.warehouse, country, PARCELS_TABLE, lng, lat))[0];
  const a = hit?.attributes as { parcel_id?: string; reference?: string; area_m2?: number | null } | null | undefined;
  return a?.parcel_id && a.reference ? { id: a.parcel_id, reference: a.reference, area_m2: a.area_m2 ?? null } : null;
}

/** A BAN parcel id (14 characters: commune, prefix, section, number) as {id, reference}: the address's parcel where the cadastre is not ingested. */
function parcelOf(parcels: string[] | null): Location['parcel'] {
  const id = parcels?.[0]?.trim();
  if (!id || !/^[0-9AB]{5}\d{3}[0-9A-Z]{2}\d{4}$/.test(id)) return null;
  const section = id.slice(8, 10).replace(/^0/, '');
  return { id, reference: `${section} ${Number(id.slice(10))}`, area_m2: null };
}

/** data.location for a position or an address (spec 2.6), with what is missing and why. */
export async function locate(deps: LocateDeps, country: Country, input: PlaceInput, locale: Locale): Promise<{ location: Location; warnings: Warning[]; sources: string[] }> {
  const warnings: Warning[] = [];
  // Catalogue ids of the sources behind the answer (meta.sources of the multi-country variant).
  const sources = new Set<string>();
  let lat: number, lng: number;
  let precision: Location['precision'] = 'input';
  let address: Location['address'] = null;
  let geocoding: Location['geocoding'] = null;
  let parcels: string[] | null = null;
  // The official address found at its number (not for a position: its building is the one at the point).
  let addressId: string | null = null;
  if (input.kind === 'position') {
    ({ lat, lng } = input);
    if (!isInCountry(country, lng, lat)) throw outside(country);
    const near = await nearestAddress(deps.warehouse, country, lat, lng, rangesAround(lat, lng, 10, 1), REVERSE_MAX_M);
    if (near) {
      address = { label: near.label, street_number: near.number === null ? null : `${near.number}${near.rep ? ` ${near.rep}` : ''}`, street_name: near.street, zipcode: near.postcode, locality: near.locality_name };
      parcels = near.parcels;
      sources.add(near.source);
    }
  } else {
    let found;
    try {
      found = await searchAddress(deps, country, input.address, locale, input.search);
    } catch (e) {
      if (e instanceof GeocoderDownError) throw new ApiError('address_not_found', `address not found in the official addresses, and ${e.message}; resend with coordinates`, { address: input.address, geocoder: 'unavailable' });
      throw e;
    }
    if (!found) throw new ApiError('address_not_found', 'address not found; resend with coordinates', { address: input.address });
    lat = found.latitude; lng = found.longitude;
    if (!isInCountry(country, lng, lat)) throw outside(country);
    precision = found.precision; address = found.address; geocoding = found.geocoding; parcels = found.parcels; addressId = found.address_id;
    if (found.source) sources.add(found.source);
    warnings.push(...found.warnings);
  }

  const missing: Missing = {};
  const found = await deps.zones.zonesAt(country, lng, lat);
  const ingested = await deps.zones.levels(country);
  const zones = Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, null])) as Zones;
  const profile = profileOf(country);
  zones.country = { level: 'country', code: profile.code, name: profile.name };
  for (const z of found) {
    zones[z.level] = { level: z.level, code: z.code, name: z.name };
    if (z.source) sources.add(z.source);
  }
  const notIngested: ZoneLevel[] = [];
  for (const level of ZONE_LEVEL_ORDER) {
    if (zones[level]) continue;
    if (profile.zoneLevels.unused.includes(level) || profile.zoneLevels.partial.includes(level)) missing[`zones.${level}`] = 'not_applicable';
    else if (!ingested.has(level)) { missing[`zones.${level}`] = 'unavailable'; notIngested.push(level); }
    else missing[`zones.${level}`] = 'not_found';
  }
  if (notIngested.length > 0) {
    warnings.push({ domain: 'location', code: 'data_unavailable', message: `zone boundaries not ingested for level(s) ${notIngested.join(', ')}` });
  }

  // The parcel containing the point (the cadastre), else the one the BAN names for the address.
  let parcel: Location['parcel'] = null;
  if (precision === 'address' || precision === 'input') {
    parcel = await parcelAt(deps, country, lng, lat);
    if (parcel) {
      sources.add('fr.cadastre');
      if (parcel.area_m2 === null) missing['parcel.area_m2'] = 'not_found';
    } else {
      parcel = parcelOf(parcels);
      if (parcel) missing['parcel.area_m2'] = 'unavailable';
    }
  }
  if (!parcel) missing.parcel = precision === 'street' || precision === 'locality' ? 'insufficient_precision' : country === 'fr' && deps.warehouse.has(country, PARCELS_TABLE) ? 'not_found' : 'unavailable';
  // The building (the one the RNB links to the address, else the footprint containing the point, else the one building of the parcel).
  const building_id = country === 'fr' ? await buildingIdAt(deps.warehouse, { precision, latitude: lat, longitude: lng, parcel }, addressId) : null;
  if (building_id) sources.add('fr.rnb');
  else if (!['input', 'building', 'address'].includes(precision)) missing.building_id = 'insufficient_precision';
  else missing.building_id = country === 'fr' && deps.warehouse.has(country, 'buildings') ? 'not_found' : 'unavailable';
  const property_ids = building_id ? await propertyIdsOf(deps.warehouse, building_id) : [];
  if (property_ids.length === 0) {
    const why = missing.building_id ?? (deps.warehouse.has(country, 'properties') ? 'not_found' : 'unavailable');
    for (const f of ['property_ids', 'nearest_property_id']) missing[f] = why;
  }
  if (missing.building_id === 'unavailable') warnings.push({ domain: 'location', code: 'data_unavailable', message: 'buildings and properties are not ingested yet: building_id, property_ids and nearest_property_id are null or empty' });

  return {
    location: {
      latitude: lat, longitude: lng, precision, precision_label: labelOf(PRECISIONS, precision, locale),
      address, geocoding, zones, parcel, building_id, property_ids, nearest_property_id: property_ids[0] ?? null, missing,
    },
    warnings,
    sources: [...sources].sort(),
  };
}

function outside(country: Country): ApiError {
  return new ApiError('outside_coverage', `position outside the territory served by this route: ${profileOf(country).territory.en}`, { country });
}
