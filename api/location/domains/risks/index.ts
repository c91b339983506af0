import type { DomainModule } from '../types.ts';

/**
 * Risks (spec 2.10): hazards and polluted sites (issue 15).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const risksDomain: DomainModule = {
  id: 'risks',
  fields: [],
  catalogFields: { be: ['hazards', 'not_assessed', 'summary', 'polluted_sites.inside', 'polluted_sites.counts', 'polluted_sites.items'] },
  paths: { be: ['/risks', '/report'] },
  resolvers: {},
  tables: {},
};
