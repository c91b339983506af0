import { z } from 'zod';
import { BeRisks, CaRisks, FrRisks } from '../../../../schemas/risks.ts';
import type { DomainModule } from '../types.ts';
import { RISKS_FIELDS } from './fields.ts';
import { beRisks } from './be.ts';
import { caRisks } from './ca.ts';
import { frRisks, HAZARD_VALUES } from './fr.ts';
import { risksRoute } from './routes.ts';

/**
 * Risks (spec 2.10): hazards and polluted sites (issue 15). France: radon and seismic zone at the
 * commune of the point, clay exposure at the point or building, the brush-clearing obligation, SIS
 * areas containing the point, polluted sites around (BASIAS/CASIAS, BASOL, SIS), GASPAR's risks of
 * the commune (locality). Quebec: flood,
 * landslide and coastal-erosion sectors containing the point, contaminated land around (/risks).
 * Belgium: the Brussels-Capital Region's flood map and soil-status parcels (elsewhere not_covered).
 */
export const risksDomain: DomainModule = {
  id: 'risks',
  fields: RISKS_FIELDS,
  catalogFields: { be: ['hazards', 'not_assessed', 'summary', 'polluted_sites.inside', 'polluted_sites.counts', 'polluted_sites.items'] },
  paths: { be: ['/risks', '/report'] },
  resolvers: { fr: frRisks, ca: caRisks, be: beRisks },
  schema: z.union([FrRisks, CaRisks, BeRisks]),
  tables: { fr: ['zone_values', 'hazard_areas', 'hazard_areas_cells', 'polluted_sites'], ca: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'], be: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'] },
  // France's commune classes (radon, seismic, GASPAR: a few hundred thousand rows) in memory: read on every report, a query on the Parquet of all zone values costs milliseconds.
  memoryTables: { [HAZARD_VALUES]: { from: 'zone_values', select: "SELECT * FROM {src} WHERE starts_with(indicator, 'hazard.') ORDER BY level, code" } },
  routes: { ca: (deps) => [risksRoute('ca', CaRisks, caRisks, deps)], be: (deps) => [risksRoute('be', BeRisks, beRisks, deps)] },
};
