import { residentsResolvers } from './resolve.ts';

/**
 * Belgium (spec 2.11): the median taxable income per return is published by statistical sector
 * (to come); the mean per return by municipality comes from Statbel's fiscal statistics; housing
 * from Statbel's building stock by municipality (job be.census).
 */
export const beResidents = residentsResolvers({
  country: 'be',
  levels: ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level3', 'administrative_area_level2', 'administrative_area_level1'],
  fields: [
    { path: 'income.taxable_median', pending: "Statbel's fiscal income by statistical sector" },
    { path: 'income.taxable_mean_per_return', indicator: 'income.taxable_mean_per_return' },
    { path: 'housing.dwellings', indicator: 'housing.dwellings' },
    { path: 'housing.houses_share', indicator: 'housing.houses_share' },
  ],
});
