import { z } from 'zod';
import type { Country } from '../../../../schemas/common.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { Access } from '../../../../schemas/places.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, placeShape, reportShape } from '../../params.ts';
import { PLACES_RADIUS_M } from '../places/resolve.ts';
import type { LocationRouteDeps } from '../types.ts';
import { accessAt } from './resolve.ts';

export const AccessResponse = envelopeSchema(z.object({ access: Access }));

/** GET /api/v1/<country>/access (spec 4.4: place parameters). */
export function accessRoute(country: Country, deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: `/api/v1/${country}/access`, tags: [country], summary: 'Access: nearest station, airport, motorway access and school',
    description: `data.access (spec 2.11): the nearest station, airport, motorway access and school however far within the country, and the stations, airports, motorway accesses, fuel and charging stations within the radius (default ${PLACES_RADIUS_M} m), nearest first.`,
    query: z.strictObject({ ...placeShape, radius: reportShape.radius }), response: AccessResponse, errors: [...PLACE_ERRORS],
    policy: { auth: true, country, domain: 'access', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, country, placeInput(query), locale);
      const { value, warnings: w } = await accessAt(deps, country, {
        lat: location.latitude, lng: location.longitude, radius: query.radius ?? PLACES_RADIUS_M, region: location.zones.administrative_area_level1?.code ?? null,
      });
      return envelope(request, deps.clock, { access: value }, [...warnings, ...w]);
    },
  };
}
