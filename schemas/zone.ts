import { z } from 'zod';
import { type CodeCatalogue, enumOf } from './common.ts';

/** Zone levels of the country routes, widest to finest (spec 2.4), plus `radius` for values computed around the point. */
export const ZONE_LEVELS = {
  country: { fr: 'Pays', en: 'Country' },
  administrative_area_level1: { fr: 'Niveau administratif 1', en: 'Administrative area level 1' },
  administrative_area_level2: { fr: 'Niveau administratif 2', en: 'Administrative area level 2' },
  administrative_area_level3: { fr: 'Niveau administratif 3', en: 'Administrative area level 3' },
  locality: { fr: 'Commune', en: 'Locality' },
  sublocality_level1: { fr: 'Subdivision 1', en: 'Sublocality level 1' },
  sublocality_level2: { fr: 'Subdivision 2', en: 'Sublocality level 2' },
  rental_survey_area: { fr: "Quartier d'enquête locative", en: 'Rental survey area' },
  postal_code_prefix: { fr: 'Préfixe postal', en: 'Postal code prefix' },
} as const satisfies CodeCatalogue<string>;
export const ZoneLevel = enumOf(ZONE_LEVELS);
export type ZoneLevel = z.infer<typeof ZoneLevel>;
export const ZONE_LEVEL_ORDER = Object.keys(ZONE_LEVELS) as ZoneLevel[];

/** A zone (spec 2.4): level, official code, name in its original language. */
export const Zone = z.object({
  level: z.union([ZoneLevel, z.literal('radius')]),
  code: z.string(),
  name: z.string().nullable(),
});
export type Zone = z.infer<typeof Zone>;

/** data.location.zones: one key per level, null for an absent level. */
export const Zones = z.object(
  Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, Zone.nullable()])) as Record<ZoneLevel, z.ZodNullable<typeof Zone>>,
);
export type Zones = z.infer<typeof Zones>;
