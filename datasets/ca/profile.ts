import type { CountryProfile } from '../profile.ts';

/** Canada: the province of Quebec only (spec 1). */
export const caProfile: CountryProfile = {
  id: 'ca',
  code: 'CA',
  isoCodes: ['CA'],
  name: 'Canada',
  territory: { label: 'Québec', en: 'Quebec' },
  languages: ['fr', 'en'],
  currency: 'CAD',
  domains: ['location', 'building', 'property', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
  variantCoverage: { urbanism: 'partial', population: 'partial', sales: 'none' },
  zoneLevels: {
    unused: ['sublocality_level2'],
    // Arrondissements exist in Montreal, Quebec City and a few others.
    partial: ['sublocality_level1'],
  },
  outline: { naturalEarthId: '124', within: 'quebec' },
  catalogs: ['fields', 'categories'],
  address: { postcode: 'canadian_a1a_1a1' },
};
