import { Places } from '../../../../schemas/places.ts';
import type { DomainModule } from '../types.ts';
import { PLACES_FIELDS } from './fields.ts';
import { placesResolver, PLACES_TABLE } from './resolve.ts';
import { placesRoute } from './routes.ts';

/**
 * Places (spec 2.11): everyday places and transport stops around the point, from the country's
 * `places` points table (gtfs, the equipment, school, station, charging and fuel directories, airports, motorway accesses; issue 16).
 */
export const placesDomain: DomainModule = {
  id: 'places',
  fields: PLACES_FIELDS,
  catalogFields: { be: ['counts', 'items'] },
  paths: { be: ['/places', '/report'] },
  resolvers: { fr: placesResolver('fr'), ca: placesResolver('ca'), be: placesResolver('be') },
  schema: Places,
  tables: { fr: [PLACES_TABLE], ca: [PLACES_TABLE], be: [PLACES_TABLE] },
  routes: { be: (deps) => [placesRoute('be', deps)] },
};
