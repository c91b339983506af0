import type { Country, Labels, Locale } from '../../../../schemas/common.ts';
import { labelOf } from '../../../../schemas/common.ts';
import { HAZARD_LEVELS, HAZARD_TYPES, type Hazard, type HazardLevel, type HazardScope, type HazardType } from '../../../../schemas/hazard.ts';

/**
 * The hazard catalogue (spec 2.5, GET /catalog/hazards): per type, its levels with their
 * definitions, and the countries and sources assessing it. The resolvers map producers' classes
 * to these levels; the mapping is written here, in the level definitions, once.
 */
export interface HazardEntry {
  type: HazardType;
  definition: Labels;
  levels: { level: HazardLevel; definition: Labels }[];
  assessedIn: { country: Country; scope: HazardScope[]; sources: string[] }[];
  /** Countries whose risks name the type in not_assessed (spec 2.5). */
  notAssessedIn: Country[];
}

export const HAZARD_CATALOG: readonly HazardEntry[] = [
  {
    type: 'clay_shrink_swell',
    definition: { fr: 'Exposition des sols argileux au retrait-gonflement (BRGM).', en: 'Exposure of clay soils to shrink-swell (BRGM).' },
    levels: [
      { level: 'low', definition: { fr: 'Exposition faible (carte du BRGM).', en: 'Low exposure (BRGM map).' } },
      { level: 'moderate', definition: { fr: 'Exposition moyenne (carte du BRGM).', en: 'Medium exposure (BRGM map).' } },
      { level: 'high', definition: { fr: 'Exposition forte (carte du BRGM).', en: 'High exposure (BRGM map).' } },
    ],
    assessedIn: [{ country: 'fr', scope: ['building', 'point'], sources: ['fr.clay'] }],
    notAssessedIn: [],
  },
  {
    type: 'radon',
    definition: {
      fr: 'Potentiel radon de la commune (IRSN, catégories 1 à 3), servi à l’arrondissement à Paris, Lyon et Marseille.',
      en: 'Radon potential of the commune (IRSN, categories 1 to 3), served at the arrondissement in Paris, Lyon and Marseille.',
    },
    levels: [
      // Only category 3 is notable: it is the one where buyers and tenants must be informed.
      { level: 'very_low', definition: { fr: 'Catégorie 1 de l’IRSN: potentiel radon faible.', en: 'IRSN category 1: low radon potential.' } },
      { level: 'low', definition: {
        fr: 'Catégorie 2 de l’IRSN: potentiel faible, mais des facteurs géologiques particuliers (failles, ouvrages miniers, sources hydrothermales) peuvent faciliter le transfert du radon vers les bâtiments.',
        en: 'IRSN category 2: low potential, but particular geological features (faults, mine workings, hydrothermal springs) may ease the transfer of radon into buildings.',
      } },
      { level: 'moderate', definition: {
        fr: 'Catégorie 3 de l’IRSN: potentiel radon significatif; l’information des acquéreurs et locataires est obligatoire.',
        en: 'IRSN category 3: significant radon potential; buyers and tenants must be informed.',
      } },
    ],
    assessedIn: [{ country: 'fr', scope: ['locality'], sources: ['fr.radon'] }],
    notAssessedIn: [],
  },
  {
    type: 'seismic',
    definition: { fr: 'Zonage sismique réglementaire de la commune (décret n° 2010-1255, zones 1 à 5).', en: 'Regulatory seismic zone of the commune (decree 2010-1255, zones 1 to 5).' },
    levels: [
      { level: 'very_low', definition: { fr: 'Zone 1: sismicité très faible.', en: 'Zone 1: very low seismicity.' } },
      { level: 'low', definition: { fr: 'Zone 2: sismicité faible.', en: 'Zone 2: low seismicity.' } },
      { level: 'moderate', definition: { fr: 'Zone 3: sismicité modérée.', en: 'Zone 3: moderate seismicity.' } },
      { level: 'high', definition: { fr: 'Zone 4: sismicité moyenne.', en: 'Zone 4: medium seismicity.' } },
      { level: 'very_high', definition: { fr: 'Zone 5: sismicité forte.', en: 'Zone 5: strong seismicity.' } },
    ],
    assessedIn: [{ country: 'fr', scope: ['locality'], sources: ['fr.seismic'] }],
    notAssessedIn: [],
  },
  {
    type: 'flood',
    definition: { fr: 'Zone inondable cartographiée contenant le point.', en: 'Mapped flood zone containing the point.' },
    levels: [
      { level: 'low', definition: { fr: 'Crue rare (au-delà de la crue centennale; Bruxelles: aléa faible).', en: 'Rare flood (beyond the 100-year flood; Brussels: low hazard).' } },
      { level: 'moderate', definition: { fr: 'Crue moyenne (période de retour d’environ 100 ans; Québec: 20 à 100 ans; Bruxelles: aléa moyen).', en: 'Medium flood (return period about 100 years; Quebec: 20 to 100 years; Brussels: medium hazard).' } },
      { level: 'high', definition: { fr: 'Crue fréquente (période de retour de 30 ans ou moins; Québec: 0 à 20 ans; Bruxelles: aléa élevé).', en: 'Frequent flood (return period 30 years or less; Quebec: 0 to 20 years; Brussels: high hazard).' } },
      { level: 'present', definition: { fr: 'Dans une zone inondable sans période de retour publiée.', en: 'In a flood zone without a published return period.' } },
    ],
    assessedIn: [
      { country: 'ca', scope: ['point'], sources: ['ca.flood-zones'] },
      { country: 'be', scope: ['point'], sources: ['be.brussels-flood'] },
    ],
    notAssessedIn: ['fr'],
  },
  {
    type: 'landslide',
    definition: { fr: 'Secteur cartographié de glissement de terrain contenant le point.', en: 'Mapped landslide sector containing the point.' },
    levels: [{ level: 'present', definition: { fr: 'Dans un secteur cartographié; hors secteur, le type n’est pas évalué.', en: 'In a mapped sector; outside, the type is not assessed.' } }],
    assessedIn: [{ country: 'ca', scope: ['point'], sources: ['ca.landslide'] }],
    notAssessedIn: ['fr'],
  },
  {
    type: 'coastal_erosion',
    definition: { fr: 'Secteur cartographié d’érosion côtière contenant le point.', en: 'Mapped coastal erosion sector containing the point.' },
    levels: [{ level: 'present', definition: { fr: 'Dans un secteur cartographié; hors secteur, le type n’est pas évalué.', en: 'In a mapped sector; outside, the type is not assessed.' } }],
    assessedIn: [{ country: 'ca', scope: ['point'], sources: ['ca.coastal-erosion'] }],
    notAssessedIn: ['fr'],
  },
  {
    type: 'wildfire',
    definition: { fr: 'Feu de forêt: évalué dans aucun pays par ce service.', en: 'Wildfire: assessed in no country by this service.' },
    levels: [],
    assessedIn: [],
    notAssessedIn: ['fr'],
  },
];

export function hazardEntry(type: HazardType): HazardEntry {
  return HAZARD_CATALOG.find((h) => h.type === type)!;
}

/** Order of the common scale; `present` (in a mapped zone, intensity unpublished) counts as notable, between moderate and high. */
const RANK: Record<HazardLevel, number> = { very_low: 0, low: 1, moderate: 2, present: 3, high: 4, very_high: 5 };

export const isNotable = (level: HazardLevel): boolean => RANK[level] >= RANK.moderate;

/** Highest first; equal levels in the order of the types (spec 2.5). */
export function byLevelDesc(a: Hazard, b: Hazard): number {
  const types = Object.keys(HAZARD_TYPES);
  return RANK[b.level] - RANK[a.level] || types.indexOf(a.type) - types.indexOf(b.type);
}

export function hazardOf(type: HazardType, level: HazardLevel, scope: HazardScope, locale: Locale): Hazard {
  const sep = locale === 'fr' ? ' : ' : ': ';
  return { type, level, scope, label: `${labelOf(HAZARD_TYPES, type, locale)}${sep}${labelOf(HAZARD_LEVELS, level, locale)}` };
}
