import { residentsResolvers } from './resolve.ts';

/** France: incomes from INSEE Filosofi; households and housing from the census (to come). */
export const frResidents = residentsResolvers({
  country: 'fr',
  levels: ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level2', 'administrative_area_level1'],
  fields: [
    { path: 'income.median_disposable_per_unit', indicator: 'income.median_disposable_per_unit' },
    { path: 'income.poverty_rate', indicator: 'income.poverty_rate' },
    { path: 'households.count', pending: 'the census (fr.census)' },
    { path: 'housing.dwellings', pending: 'the census (fr.census)' },
    { path: 'housing.houses_share', pending: 'the census (fr.census)' },
    { path: 'housing.owners_share', pending: 'the census (fr.census)' },
    { path: 'housing.social_housing_share', pending: 'the census (fr.census)' },
  ],
});
