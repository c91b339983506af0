import { residentsResolvers } from './resolve.ts';

/** France: incomes from INSEE Filosofi; households and housing from the census by IRIS (fr.census). */
export const frResidents = residentsResolvers({
  country: 'fr',
  levels: ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level2', 'administrative_area_level1'],
  fields: [
    { path: 'income.median_disposable_per_unit', indicator: 'income.median_disposable_per_unit' },
    { path: 'income.poverty_rate', indicator: 'income.poverty_rate' },
    { path: 'income.median_declared_per_unit', indicator: 'income.median_declared_per_unit' },
    { path: 'households.count', indicator: 'households.count' },
    { path: 'housing.dwellings', indicator: 'housing.dwellings' },
    { path: 'housing.houses_share', indicator: 'housing.houses_share' },
    { path: 'housing.owners_share', indicator: 'housing.owners_share' },
    { path: 'housing.social_housing_share', indicator: 'housing.social_housing_share' },
  ],
});
