import { FrRisks } from '../../../../schemas/risks.ts';
import type { DomainModule } from '../types.ts';
import { RISKS_FIELDS } from './fields.ts';
import { frRisks } from './fr.ts';

/**
 * Risks (spec 2.10): hazards and polluted sites (issue 15). France: radon and seismic zone at the
 * commune of the point, clay exposure at the point or building, former industrial sites around; obligations and SIS areas to come. Canada and Belgium: to come
 * (the report answers the domain unavailable there).
 */
export const risksDomain: DomainModule = {
  id: 'risks',
  fields: RISKS_FIELDS,
  catalogFields: { be: ['hazards', 'not_assessed', 'summary', 'polluted_sites.inside', 'polluted_sites.counts', 'polluted_sites.items'] },
  paths: { be: ['/risks', '/report'] },
  resolvers: { fr: frRisks },
  schema: FrRisks,
  tables: { fr: ['zone_values', 'hazard_areas', 'hazard_areas_cells', 'polluted_sites'] },
};
