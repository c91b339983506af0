import type { DomainModule } from '../types.ts';

/**
 * Residents (spec 2.11): incomes, households, housing (issue 14).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const residentsDomain: DomainModule = {
  id: 'residents',
  fields: [],
  catalogFields: { be: ['income.taxable_median', 'housing.dwellings', 'housing.houses_share'] },
  paths: { be: ['/residents', '/zones/{level}/{code}', '/report'] },
  resolvers: {},
  tables: {},
};
