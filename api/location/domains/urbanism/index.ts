import type { DomainModule } from '../types.ts';

/**
 * Urbanism (spec 2.11): planning documents and zones.
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const urbanismDomain: DomainModule = {
  id: 'urbanism',
  fields: [],
  catalogFields: { be: ['document', 'zone'] },
  paths: { be: ['/urbanism', '/report'] },
  resolvers: {},
  tables: {},
};
