import type { FastifyPluginAsync } from 'fastify';
import { COUNTRIES } from '../../datasets/countries.ts';
import { registerRoute, type AnyRoute } from '../core/routes.ts';
import { catalogRoutes } from './catalog.ts';
import { DOMAIN_MODULES } from './domains/index.ts';
import type { LocationRouteDeps } from './domains/types.ts';
import { reportRoute } from './report.ts';
import { variantRoutes } from './variant/routes.ts';
import { zoneRoutes } from './zones/routes.ts';
import { batchRoutes, registerCsvBody, variantBatchRoutes } from './batch/routes.ts';

export interface LocationPluginOptions extends LocationRouteDeps {
  /** Receives each route's description, from which the OpenAPI document is generated. */
  routes: AnyRoute[];
}

/**
 * The location module (spec location-data-service.md) as one encapsulated plugin: per country, the
 * routes of each domain module (api/location/domains/), the report, the catalogs and the zones;
 * then the multi-country variant. Shared infrastructure (keys guard, errors, limits) comes from
 * the parent; nothing here leaks to the other modules.
 */
export const locationPlugin: FastifyPluginAsync<LocationPluginOptions> = async (app, { routes, ...deps }) => {
  registerCsvBody(app);
  for (const country of COUNTRIES) {
    const own = [
      ...DOMAIN_MODULES.flatMap((m) => m.routes?.[country]?.(deps) ?? []),
      reportRoute(country, deps),
      ...catalogRoutes(country, deps),
      ...zoneRoutes(country, deps),
      ...batchRoutes(country, deps),
    ];
    for (const route of own) registerRoute(app, route, routes);
  }
  // The multi-country variant (spec 4.5), without a country prefix.
  for (const route of [...variantRoutes(deps), ...variantBatchRoutes(deps)]) registerRoute(app, route, routes);
};
