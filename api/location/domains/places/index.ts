import type { DomainModule } from '../types.ts';

/**
 * Places (spec 2.11): everyday places and stops around (issue 16).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const placesDomain: DomainModule = {
  id: 'places',
  fields: [],
  catalogFields: { be: ['counts', 'items'] },
  paths: { be: ['/places', '/report'] },
  resolvers: {},
  tables: {},
};
