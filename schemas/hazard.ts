import { z } from 'zod';
import { type CodeCatalogue, enumOf } from './common.ts';

/** Hazard types (spec 2.5), with their readable labels. */
export const HAZARD_TYPES = {
  clay_shrink_swell: { fr: 'Retrait-gonflement des argiles', en: 'Clay shrink-swell' },
  radon: { fr: 'Radon', en: 'Radon' },
  seismic: { fr: 'Séisme', en: 'Earthquake' },
  flood: { fr: 'Inondation', en: 'Flood' },
  landslide: { fr: 'Glissement de terrain', en: 'Landslide' },
  coastal_erosion: { fr: 'Érosion côtière', en: 'Coastal erosion' },
  wildfire: { fr: 'Feu de forêt', en: 'Wildfire' },
} as const satisfies CodeCatalogue<string>;
export const HazardType = enumOf(HAZARD_TYPES);
export type HazardType = z.infer<typeof HazardType>;

/** Levels of the scale common to all countries (spec 2.5); `present` when the map only says "in the zone". */
export const HAZARD_LEVELS = {
  very_low: { fr: 'très faible', en: 'very low' },
  low: { fr: 'faible', en: 'low' },
  moderate: { fr: 'modéré', en: 'moderate' },
  high: { fr: 'élevé', en: 'high' },
  very_high: { fr: 'très élevé', en: 'very high' },
  present: { fr: 'zone exposée', en: 'in a mapped zone' },
} as const satisfies CodeCatalogue<string>;
export const HazardLevel = enumOf(HAZARD_LEVELS);
export type HazardLevel = z.infer<typeof HazardLevel>;

/** building: exposure of the building; point: mapped zone containing the point; locality: known in the commune without localisation. */
export const HAZARD_SCOPES = {
  building: { fr: 'Exposition du bâtiment', en: 'Exposure of the building' },
  point: { fr: 'Zone cartographiée contenant le point', en: 'Mapped zone containing the point' },
  locality: { fr: 'Risque connu dans la commune, sans localisation', en: 'Risk known in the locality, without localisation' },
} as const satisfies CodeCatalogue<string>;
export const HazardScope = enumOf(HAZARD_SCOPES);
export type HazardScope = z.infer<typeof HazardScope>;

/** A natural risk on a scale common to all countries (spec 2.5). */
export const Hazard = z.object({
  type: HazardType,
  level: HazardLevel,
  scope: HazardScope,
  label: z.string(),
});
export type Hazard = z.infer<typeof Hazard>;
