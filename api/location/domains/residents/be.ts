import { residentsResolvers } from './resolve.ts';

/**
 * Belgium (spec 2.11): the median taxable income per return of the point's statistical sector
 * (a municipality's only where Statbel's file has a row of it, which the files read here do not:
 * a withheld sector's median is then null, suppressed);
 * the mean per return by municipality, a measure of its own name; both from Statbel's fiscal
 * statistics (job be.statbel-income); housing from Statbel's building stock by municipality
 * (job be.census).
 */
export const beResidents = residentsResolvers({
  country: 'be',
  levels: ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level3', 'administrative_area_level2', 'administrative_area_level1'],
  fields: [
    { path: 'income.taxable_median', indicator: 'income.taxable_median' },
    { path: 'income.taxable_mean_per_return', indicator: 'income.taxable_mean_per_return' },
    { path: 'housing.dwellings', indicator: 'housing.dwellings' },
    { path: 'housing.houses_share', indicator: 'housing.houses_share' },
  ],
});
