import type { CountryProfile } from '../profile.ts';

/** France: metropolitan France and the overseas departments (spec 1, 2.4). */
export const frProfile: CountryProfile = {
  id: 'fr',
  code: 'FR',
  isoCodes: ['FR', 'GP', 'MQ', 'GF', 'RE', 'YT', 'BL', 'MF'],
  name: 'France',
  territory: { label: 'France métropolitaine et départements d’outre-mer', en: 'France (metropolitan and overseas departments)' },
  languages: ['fr'],
  currency: 'EUR',
  domains: ['location', 'building', 'property', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
  variantCoverage: {},
  zoneLevels: {
    unused: ['administrative_area_level3', 'rental_survey_area', 'postal_code_prefix'],
    // Municipal arrondissements exist in Paris, Lyon and Marseille only.
    partial: ['sublocality_level1'],
  },
  outline: { naturalEarthId: '250' },
  catalogs: ['fields', 'categories', 'hazards'],
  // Departments: two characters of a commune or IRIS code, three overseas (971-976).
  zoneValueTerritory: { level: 'administrative_area_level2', of: (p) => (/^97\d/.test(p) ? p : /^(\d{2}|2[AB])/.exec(p)?.[0] ?? null) },
  address: { postcode: 'five_digits' },
};
