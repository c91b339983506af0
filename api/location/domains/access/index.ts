import type { DomainModule } from '../types.ts';

/**
 * Access (spec 2.11): nearest station, airport, motorway access and school (issue 16).
 * No country is computed yet: the report answers the domain unavailable where the country
 * publishes it, not_covered elsewhere (datasets/<country>/profile.ts).
 */
export const accessDomain: DomainModule = {
  id: 'access',
  fields: [],
  catalogFields: { be: ['nearest.station', 'nearest.airport', 'nearest.highway_access', 'nearest.school', 'stations', 'airports', 'highway_accesses', 'fuel_stations', 'charging_stations'] },
  paths: { be: ['/access', '/report'] },
  resolvers: {},
  tables: {},
};
