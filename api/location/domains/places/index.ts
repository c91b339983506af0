import { Places } from '../../../../schemas/places.ts';
import type { DomainModule } from '../types.ts';
import { placesResolver, PLACES_TABLE } from './resolve.ts';
import { placesRoute } from './routes.ts';

/**
 * Places (spec 2.11): everyday places and transport stops around the point, from the country's
 * `places` points table (gtfs today; the equipment, school and health directories to come, issue 16).
 */
export const placesDomain: DomainModule = {
  id: 'places',
  fields: [],
  catalogFields: { be: ['counts', 'items'] },
  paths: { be: ['/places', '/report'] },
  resolvers: { fr: placesResolver('fr'), ca: placesResolver('ca'), be: placesResolver('be') },
  schema: Places,
  tables: { fr: [PLACES_TABLE], ca: [PLACES_TABLE], be: [PLACES_TABLE] },
  routes: { be: (deps) => [placesRoute('be', deps)] },
};
