import type { CountryProfile } from '../profile.ts';

/** Belgium: no data per property or building is published (spec 1). */
export const beProfile: CountryProfile = {
  id: 'be',
  code: 'BE',
  name: 'Belgique / België / Belgien',
  territory: { label: 'Belgique / België / Belgien', en: 'Belgium' },
  languages: ['fr', 'nl', 'de'],
  currency: 'EUR',
  domains: ['location', 'risks', 'market', 'places', 'access', 'residents', 'urbanism'],
  variantCoverage: { property: 'partial', energy: 'partial', amenities: 'partial', transport: 'partial', urbanism: 'partial', sales: 'none', rents: 'none', taxation: 'none' },
  zoneLevels: {
    unused: ['rental_survey_area', 'postal_code_prefix'],
    // No province in the Brussels-Capital Region.
    partial: ['administrative_area_level2'],
  },
  outline: { naturalEarthId: '056' },
  catalogs: ['fields', 'domains', 'categories', 'hazards'],
  address: { postcode: 'four_digits_before_locality' },
};

/** REFNIS code of the Brussels-Capital Region (administrative_area_level1): the only territory of Belgium's risks (spec 2.10). */
export const BRUSSELS_REGION_CODE = '04000';
