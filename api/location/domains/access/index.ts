import { Access } from '../../../../schemas/places.ts';
import type { DomainModule } from '../types.ts';
import { ACCESS_FIELDS } from './fields.ts';
import { PLACES_TABLE } from '../places/resolve.ts';
import { accessResolver } from './resolve.ts';
import { accessRoute } from './routes.ts';

/**
 * Access (spec 2.11): nearest station, airport, motorway access and school, and the lists of each
 * kind around, from the country's `places` points table (stations from the GTFS feeds and station
 * lists, airports, motorway accesses, fuel and charging stations, schools; issue 16).
 */
export const accessDomain: DomainModule = {
  id: 'access',
  fields: ACCESS_FIELDS,
  catalogFields: { be: ['nearest.station', 'nearest.airport', 'nearest.highway_access', 'nearest.school', 'stations', 'airports', 'highway_accesses', 'fuel_stations', 'charging_stations'] },
  paths: { be: ['/access', '/report'] },
  resolvers: { fr: accessResolver('fr'), ca: accessResolver('ca'), be: accessResolver('be') },
  schema: Access,
  tables: { fr: [PLACES_TABLE], ca: [PLACES_TABLE], be: [PLACES_TABLE] },
  routes: { be: (deps) => [accessRoute('be', deps)] },
};
