import { z } from 'zod';
import { type CodeCatalogue, enumOf } from './common.ts';
import { Missing } from './domain.ts';
import { Zones } from './zone.ts';

/** data.location.precision (spec 2.6). */
export const PRECISIONS = {
  input: { fr: 'Coordonnées fournies', en: 'Your coordinates' },
  building: { fr: 'Bâtiment', en: 'Building' },
  address: { fr: 'Adresse au numéro', en: 'Address at the number' },
  street: { fr: 'Rue', en: 'Street' },
  locality: { fr: 'Commune', en: 'Locality' },
} as const satisfies CodeCatalogue<string>;
export const Precision = enumOf(PRECISIONS);
export type Precision = z.infer<typeof Precision>;

/** geocoding.method: official addresses of the country, addresses already resolved, external geocoder. */
export const GEOCODING_METHODS = {
  official_addresses: { fr: 'Adresses officielles', en: 'Official addresses' },
  resolved_addresses: { fr: 'Adresses déjà résolues par le service', en: 'Addresses already resolved by the service' },
  geocoder: { fr: 'Géocodeur externe', en: 'External geocoder' },
} as const satisfies CodeCatalogue<string>;
export const GeocodingMethod = enumOf(GEOCODING_METHODS);

export const Address = z.object({
  label: z.string(),
  street_number: z.string().nullable(),
  street_name: z.string().nullable(),
  zipcode: z.string().nullable(),
  locality: z.string().nullable(),
});
export type Address = z.infer<typeof Address>;

export const GeocodingAlternative = z.object({
  label: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  precision: Precision,
  score: z.number(),
});

export const Geocoding = z.object({
  query: z.string(),
  matched: z.string(),
  method: GeocodingMethod,
  method_label: z.string(),
  score: z.number(),
  alternatives: z.array(GeocodingAlternative),
});
export type Geocoding = z.infer<typeof Geocoding>;

/** France parcel; Canada lots. */
export const Parcel = z.union([
  z.object({ id: z.string(), reference: z.string(), area_m2: z.number().nullable() }),
  z.object({ lots: z.array(z.string()) }),
]);

/** data.location (spec 2.6). */
export const Location = z.object({
  latitude: z.number(),
  longitude: z.number(),
  precision: Precision,
  precision_label: z.string(),
  address: Address.nullable(),
  geocoding: Geocoding.nullable(),
  zones: Zones,
  parcel: Parcel.nullable(),
  building_id: z.string().nullable(),
  property_ids: z.array(z.string()),
  nearest_property_id: z.string().nullable(),
  missing: Missing,
});
export type Location = z.infer<typeof Location>;
