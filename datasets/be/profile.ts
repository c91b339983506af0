import type { CountryProfile } from '../profile.ts';

/** Belgium: no data per property or building is published (spec 1). */
export const beProfile: CountryProfile = {
  id: 'be',
  code: 'BE',
  isoCodes: ['BE'],
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
  // Regions from the NIS code's province: 21 Brussels-Capital; Antwerp (1), Flemish Brabant (23, 24),
  // West and East Flanders (3, 4), Limburg (7) Flemish; Walloon Brabant (25), Hainaut (5), Liège (6),
  // Luxembourg (8), Namur (9) Walloon.
  zoneValueTerritory: {
    level: 'administrative_area_level1',
    of: (p) => (/^21/.test(p) ? '04000' : /^(1|23|24|3|4|7)/.test(p) ? '02000' : /^(25|5|6|8|9)/.test(p) ? '03000' : null),
  },
  address: { postcode: 'four_digits_before_locality' },
};

/** REFNIS code of the Brussels-Capital Region (administrative_area_level1): the only territory of Belgium's risks (spec 2.10). */
export const BRUSSELS_REGION_CODE = '04000';
