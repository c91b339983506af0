import { labelOf, type Country, type Locale } from '../../../schemas/common.ts';
import type { Missing } from '../../../schemas/domain.ts';
import type { Location, Precision } from '../../../schemas/location.ts';
import type { ZoneLevel } from '../../../schemas/zone.ts';
import {
  VARIANT_LEVEL_ORDER, VARIANT_PRECISIONS,
  type VariantCountry, type VariantLevel, type VariantLocation, type VariantPrecision, type VariantZones,
} from '../../../schemas/variant.ts';

/** Country route levels (spec 2.4) to the variant's level set (spec 2.12); the same for the three countries. */
export const LEVEL_TO_VARIANT: Record<ZoneLevel, VariantLevel> = {
  country: 'country',
  administrative_area_level1: 'region',
  administrative_area_level2: 'subregion',
  administrative_area_level3: 'county',
  locality: 'municipality',
  sublocality_level1: 'district',
  sublocality_level2: 'neighbourhood',
  rental_survey_area: 'rental_survey_area',
  postal_code_prefix: 'postal_area',
};

export const toVariantCountry = (c: Country) => c.toUpperCase() as VariantCountry;
export const fromVariantCountry = (c: VariantCountry) => c.toLowerCase() as Country;

/** The variant has no building precision: a building position is at the address. */
export function variantPrecision(p: Precision): VariantPrecision {
  return p === 'building' ? 'address' : p === 'locality' ? 'municipality' : p;
}

/** A missing-field path of the country route in the variant's names (zones.locality -> zones.municipality). */
function variantPath(path: string): string | null {
  if (path === 'parcel.area_m2') return null; // the variant's parcel is {id, source}
  const m = /^zones\.(.+)$/.exec(path);
  return m ? `zones.${LEVEL_TO_VARIANT[m[1] as ZoneLevel] ?? m[1]}` : path;
}

/** data.location of a country route mapped to the variant (spec 2.12): same place, other level set, country on each zone. */
export function toVariantLocation(country: Country, l: Location, locale: Locale, parcelSource: string | null): VariantLocation {
  const cc = toVariantCountry(country);
  const zones = Object.fromEntries(VARIANT_LEVEL_ORDER.map((v) => [v, null])) as VariantZones;
  for (const [level, z] of Object.entries(l.zones)) {
    if (z) zones[LEVEL_TO_VARIANT[level as ZoneLevel]] = { level: LEVEL_TO_VARIANT[level as ZoneLevel], code: z.code, name: z.name, country: cc };
  }
  const missing: Missing = {};
  for (const [path, reason] of Object.entries(l.missing)) {
    const p = variantPath(path);
    if (p) missing[p] = reason;
  }
  const precision = variantPrecision(l.precision);
  const parcel = l.parcel && 'id' in l.parcel && parcelSource ? { id: l.parcel.id, source: parcelSource } : null;
  if (l.parcel && !parcel) missing.parcel = 'unavailable';
  return {
    country: cc,
    latitude: l.latitude,
    longitude: l.longitude,
    precision,
    precision_label: labelOf(VARIANT_PRECISIONS, precision, locale),
    address: l.address && { label: l.address.label, number: l.address.street_number, street: l.address.street_name, postal_code: l.address.zipcode, municipality: l.address.locality },
    geocoding: l.geocoding && {
      ...l.geocoding,
      alternatives: l.geocoding.alternatives.map((a) => ({ ...a, precision: variantPrecision(a.precision), country: cc })),
    },
    zones,
    parcel,
    building_id: l.building_id,
    property_ids: l.property_ids,
    nearest_property_id: l.nearest_property_id,
    missing,
  };
}
