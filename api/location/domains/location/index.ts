import { Location } from '../../../../schemas/location.ts';
import { BUILDING_TABLES } from '../../buildings.ts';
import { STREETS_MEMORY_TABLE } from '../../search/official.ts';
import { ZONE_MEMORY_TABLES } from '../../zones/lookup.ts';
import type { DomainModule, Resolver } from '../types.ts';
import { LOCATION_FIELDS } from './fields.ts';
import { locationRoute } from './routes.ts';

/** The place itself is located before any domain (api/location/locate.ts): the report serves it as located. */
const located: Resolver = async (_deps, ctx) => ({ value: ctx.location, warnings: [] });
const TABLES = ['addresses', 'zones', 'zone_cells'];

/** Location (spec 2.6): always served, in every country. */
export const locationDomain: DomainModule = {
  id: 'location',
  alwaysServed: true,
  fields: LOCATION_FIELDS,
  catalogFields: { be: LOCATION_FIELDS.filter((f) => f.countries.includes('be')).map((f) => f.id.replace(/^location\./, '')) },
  paths: { be: ['/location', '/report'] },
  resolvers: { fr: located, ca: located, be: located },
  schema: Location,
  tables: { fr: [...TABLES, 'parcels', 'parcels_cells', ...BUILDING_TABLES, 'properties'], ca: TABLES, be: TABLES },
  memoryTables: { ...ZONE_MEMORY_TABLES, streets: STREETS_MEMORY_TABLE },
  routes: { fr: (deps) => [locationRoute('fr', deps)], ca: (deps) => [locationRoute('ca', deps)], be: (deps) => [locationRoute('be', deps)] },
};
