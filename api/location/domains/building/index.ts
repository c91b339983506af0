import type { DomainModule } from '../types.ts';

/**
 * Building (spec 2.7): France and Quebec; Belgium publishes none (issue 17).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const buildingDomain: DomainModule = {
  id: 'building',
  fields: [],
  catalogFields: {},
  paths: {},
  resolvers: {},
  tables: {},
};
