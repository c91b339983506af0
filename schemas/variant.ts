import { z } from 'zod';
import { type CodeCatalogue, enumOf, IsoDate, Timestamp } from './common.ts';
import { Missing, Warning } from './domain.ts';
import { GeocodingMethod } from './location.ts';

/**
 * The multi-country variant (spec 2.12, 4.5): routes without a country prefix, another level
 * set, `country` on zones and location, and meta.sources.
 */

/** Country codes of the variant, upper case (spec 2.12). */
export const VariantCountry = z.enum(['FR', 'BE', 'CA']);
export type VariantCountry = z.infer<typeof VariantCountry>;

/** Zone levels of the variant, widest to finest (spec 2.12). */
export const VARIANT_LEVELS = {
  country: { fr: 'Pays', en: 'Country' },
  region: { fr: 'Région (FR, BE) ou province (CA)', en: 'Region (FR, BE) or province (CA)' },
  subregion: { fr: 'Département (FR), province (BE), région administrative (CA)', en: 'Department (FR), province (BE), administrative region (CA)' },
  county: { fr: 'Arrondissement administratif (BE), MRC (CA)', en: 'Administrative arrondissement (BE), MRC (CA)' },
  municipality: { fr: 'Commune ou municipalité', en: 'Municipality' },
  district: { fr: 'Arrondissement (FR, CA), section (BE)', en: 'Arrondissement (FR, CA), section (BE)' },
  neighbourhood: { fr: 'IRIS (FR), secteur statistique (BE)', en: 'IRIS (FR), statistical sector (BE)' },
  rental_survey_area: { fr: "Quartier d'enquête locative (CA)", en: 'Rental survey area (CA)' },
  postal_area: { fr: 'Région de tri d’acheminement (CA)', en: 'Forward sortation area (CA)' },
} as const satisfies CodeCatalogue<string>;
export const VariantLevel = enumOf(VARIANT_LEVELS);
export type VariantLevel = z.infer<typeof VariantLevel>;
export const VARIANT_LEVEL_ORDER = Object.keys(VARIANT_LEVELS) as VariantLevel[];

/** A zone of the variant: its code is unique only within country and level. */
export const VariantZone = z.object({
  level: VariantLevel,
  code: z.string(),
  name: z.string().nullable(),
  country: VariantCountry,
});
export type VariantZone = z.infer<typeof VariantZone>;

export const VariantZones = z.object(
  Object.fromEntries(VARIANT_LEVEL_ORDER.map((l) => [l, VariantZone.nullable()])) as Record<VariantLevel, z.ZodNullable<typeof VariantZone>>,
);
export type VariantZones = z.infer<typeof VariantZones>;

/** Precision values of the variant (spec 2.12). */
export const VARIANT_PRECISIONS = {
  input: { fr: 'Coordonnées fournies', en: 'Your coordinates' },
  address: { fr: 'Adresse au numéro', en: 'Address at the number' },
  street: { fr: 'Rue', en: 'Street' },
  municipality: { fr: 'Commune ou municipalité', en: 'Municipality' },
} as const satisfies CodeCatalogue<string>;
export const VariantPrecision = enumOf(VARIANT_PRECISIONS);
export type VariantPrecision = z.infer<typeof VariantPrecision>;

export const VariantAddress = z.object({
  label: z.string(),
  number: z.string().nullable(),
  street: z.string().nullable(),
  postal_code: z.string().nullable(),
  municipality: z.string().nullable(),
});

export const VariantGeocoding = z.object({
  query: z.string(),
  matched: z.string(),
  method: GeocodingMethod,
  method_label: z.string(),
  score: z.number(),
  /** Other places the query may mean, in this or another country (a city existing in two countries). */
  alternatives: z.array(z.object({
    label: z.string(), latitude: z.number(), longitude: z.number(), precision: VariantPrecision, score: z.number(), country: VariantCountry,
  })),
});

/** data.location of the variant (spec 2.12). */
export const VariantLocation = z.object({
  country: VariantCountry,
  latitude: z.number(),
  longitude: z.number(),
  precision: VariantPrecision,
  precision_label: z.string(),
  address: VariantAddress.nullable(),
  geocoding: VariantGeocoding.nullable(),
  zones: VariantZones,
  parcel: z.object({ id: z.string(), source: z.string() }).nullable(),
  building_id: z.string().nullable(),
  property_ids: z.array(z.string()),
  nearest_property_id: z.string().nullable(),
  missing: Missing,
});
export type VariantLocation = z.infer<typeof VariantLocation>;

/** An entry of meta.sources: each cited source once (spec 2.12). */
export const CitedSource = z.object({
  id: z.string(),
  name: z.string(),
  publisher: z.string(),
  license: z.string(),
  license_url: z.string(),
  attribution: z.string().describe('text to reproduce where the data is shown'),
  url: z.string(),
  published_at: IsoDate.nullable(),
  imported_at: Timestamp.nullable(),
  fresh: z.boolean().describe('imported within the update rhythm of the source'),
  share_alike: z.boolean().nullable(),
});
export type CitedSource = z.infer<typeof CitedSource>;

export const VariantMeta = z.object({
  request_id: z.string(),
  api_version: z.string(),
  generated_at: Timestamp,
  warnings: z.array(Warning),
  sandbox: z.boolean(),
  sources: z.array(CitedSource),
});

/** Domains of the variant (spec 2.12). */
export const VARIANT_DOMAINS = {
  location: { fr: 'Localisation', en: 'Location' },
  prices: { fr: 'Prix', en: 'Prices' },
  sales: { fr: 'Ventes', en: 'Sales' },
  rents: { fr: 'Loyers', en: 'Rents' },
  property: { fr: 'Logement', en: 'Property' },
  energy: { fr: 'Énergie', en: 'Energy' },
  taxation: { fr: 'Fiscalité', en: 'Taxation' },
  risks: { fr: 'Risques', en: 'Risks' },
  urbanism: { fr: 'Urbanisme', en: 'Urbanism' },
  population: { fr: 'Population', en: 'Population' },
  amenities: { fr: 'Équipements', en: 'Amenities' },
  transport: { fr: 'Transports', en: 'Transport' },
} as const satisfies CodeCatalogue<string>;
export const VariantDomain = enumOf(VARIANT_DOMAINS);
export type VariantDomain = z.infer<typeof VariantDomain>;

/** GET /api/v1/catalog/coverage: what each country publishes (spec 2.12) and what this service serves. */
export const Coverage = z.object({
  countries: z.array(z.object({
    country: VariantCountry,
    name: z.string(),
    territory: z.string(),
    allowed: z.boolean().describe('whether the calling key is opened for the country'),
    domains: z.array(z.object({
      domain: VariantDomain,
      label: z.string(),
      coverage: z.enum(['full', 'partial', 'none']).describe('what the country publishes (spec 2.12)'),
      served: z.boolean().describe('whether this service computes the domain today'),
    })),
    zone_levels: z.array(z.object({ level: VariantLevel, ingested: z.boolean() })),
    sources: z.array(z.object({ id: z.string(), imported_at: Timestamp.nullable(), rows: z.number().int() })),
  })),
});
