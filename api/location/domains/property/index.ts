import { FrProperty } from '../../../../schemas/property.ts';
import { ID_TABLES } from '../../ids.ts';
import type { DomainModule } from '../types.ts';
import { PROPERTY_FIELDS } from './fields.ts';
import { frProperty } from './fr.ts';
import { propertyByIdRoute } from './routes.ts';

/** Property (spec 2.8): France from DVF, the DPE and the buildings (issue 17); Quebec to come; Belgium publishes none. */
export const propertyDomain: DomainModule = {
  id: 'property',
  fields: PROPERTY_FIELDS,
  catalogFields: {},
  paths: { fr: ['/properties/{property_id}', '/report'] },
  resolvers: { fr: frProperty },
  schema: FrProperty,
  tables: { fr: ['properties', 'property_events', 'sales', 'diagnoses', 'market_indicators', ...ID_TABLES] },
  routes: { fr: (deps) => [propertyByIdRoute(deps)] },
};
