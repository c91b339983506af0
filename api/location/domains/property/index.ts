import type { DomainModule } from '../types.ts';

/**
 * Property (spec 2.8): France and Quebec; Belgium publishes none (issue 17).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const propertyDomain: DomainModule = {
  id: 'property',
  fields: [],
  catalogFields: {},
  paths: {},
  resolvers: {},
  tables: {},
};
