import { z } from 'zod';

/**
 * The place taxonomy (spec 2.5): a stable two-level hierarchy group.category, identical in every
 * country. A code is never renamed or reused; new categories are appended. GET /catalog/categories
 * serves it with the sources feeding each category.
 */
export const PLACE_GROUPS = {
  school: { fr: 'Enseignement', en: 'Education' },
  health: { fr: 'Santé', en: 'Health' },
  shop: { fr: 'Commerces', en: 'Shops' },
  transport: { fr: 'Transport', en: 'Transport' },
} as const;
export type PlaceGroup = keyof typeof PLACE_GROUPS;
export const PLACE_GROUP_CODES = Object.keys(PLACE_GROUPS) as PlaceGroup[];

export const PLACE_CATEGORIES = {
  'school.kindergarten': { fr: 'École maternelle', en: 'Kindergarten' },
  'school.primary': { fr: 'École élémentaire', en: 'Primary school' },
  'school.high_school': { fr: 'Collège ou lycée', en: 'Secondary school' },
  'school.training': { fr: 'Formation professionnelle', en: 'Vocational training' },
  'school.university': { fr: 'Enseignement supérieur', en: 'Higher education' },
  'health.pharmacy': { fr: 'Pharmacie', en: 'Pharmacy' },
  'health.doctor': { fr: 'Médecin', en: 'Doctor' },
  'health.hospital': { fr: 'Hôpital', en: 'Hospital' },
  'shop.supermarket': { fr: 'Supermarché', en: 'Supermarket' },
  'shop.bakery': { fr: 'Boulangerie', en: 'Bakery' },
  'transport.bus': { fr: 'Arrêt de bus', en: 'Bus stop' },
  'transport.tram': { fr: 'Station de tramway', en: 'Tram stop' },
  'transport.metro': { fr: 'Station de métro', en: 'Metro station' },
  'transport.train_station': { fr: 'Gare', en: 'Train station' },
  'transport.ferry': { fr: 'Embarcadère', en: 'Ferry terminal' },
  'transport.cable': { fr: 'Station de transport par câble', en: 'Cable transport station' },
  'transport.stop': { fr: 'Arrêt de transport (mode non publié)', en: 'Transit stop (mode not published)' },
  'transport.airport': { fr: 'Aéroport', en: 'Airport' },
  'transport.highway_access': { fr: 'Accès autoroutier', en: 'Motorway access' },
  'transport.fuel': { fr: 'Station-service', en: 'Fuel station' },
  'transport.charging_station': { fr: 'Borne de recharge', en: 'Charging station' },
  'shop.convenience': { fr: 'Supérette ou épicerie', en: 'Convenience store' },
  'shop.butcher': { fr: 'Boucherie', en: 'Butcher' },
  'health.clinic': { fr: 'Centre de santé', en: 'Health centre' },
} as const satisfies Record<`${PlaceGroup}.${string}`, { fr: string; en: string }>;
export type PlaceCategory = keyof typeof PLACE_CATEGORIES;
export const PLACE_CATEGORY_CODES = Object.keys(PLACE_CATEGORIES) as PlaceCategory[];

/** The group of a category code (`transport.bus` -> `transport`). */
export const groupOf = (category: string): string => category.split('.')[0]!;

/** A `category` parameter: a group or a category of the taxonomy (spec 4.1). */
export const isTaxonomyCode = (code: string): boolean => code in PLACE_GROUPS || code in PLACE_CATEGORIES;

/** An entry of GET /catalog/categories. */
export const CatalogCategory = z.object({
  code: z.string().describe('group or group.category'),
  group: z.string(),
  label: z.string(),
  /** Sources whose rows are served under this code in the country (ids of meta.sources / the manifest). */
  sources: z.array(z.string()),
});
export const CatalogCategories = z.object({ country: z.string(), groups: z.array(CatalogCategory), categories: z.array(CatalogCategory) });
