import { FrBuilding } from '../../../../schemas/building.ts';
import { BUILDING_TABLES } from '../../buildings.ts';
import { ID_TABLES } from '../../ids.ts';
import type { DomainModule } from '../types.ts';
import { BUILDING_FIELDS } from './fields.ts';
import { frBuilding } from './fr.ts';
import { buildingByIdRoute, buildingRoute } from './routes.ts';

/**
 * Building (spec 2.7): France from the RNB, the BDNB, the DPE, DVF and the RNIC (issue 17); Quebec to come;
 * Belgium publishes none.
 */
export const buildingDomain: DomainModule = {
  id: 'building',
  fields: BUILDING_FIELDS,
  catalogFields: {},
  paths: { fr: ['/building', '/buildings/{building_id}', '/report'] },
  resolvers: { fr: frBuilding },
  schema: FrBuilding,
  tables: { fr: [...BUILDING_TABLES, 'diagnoses', 'sales', 'addresses', 'property_events', 'copro', 'protected_areas', 'protected_areas_cells', ...ID_TABLES] },
  routes: { fr: (deps) => [buildingRoute(deps), buildingByIdRoute(deps)] },
};
