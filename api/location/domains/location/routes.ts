import { z } from 'zod';
import type { Country } from '../../../../schemas/common.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { Location } from '../../../../schemas/location.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { addressSearchOptions, localeOf, LocationQuery, placeInput } from '../../params.ts';
import { PLACE_ERRORS } from '../../params.ts';
import type { LocationRouteDeps } from '../types.ts';

export const LocationResponse = envelopeSchema(z.object({ location: Location }));

/** GET /api/v1/<country>/location (spec 4.2, 4.3, 4.4). */
export function locationRoute(country: Country, deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: `/api/v1/${country}/location`, tags: [country], summary: 'Location of a position or an address',
    description: 'data.location: address, position and precision, zones of every level (spec 2.6).',
    query: LocationQuery, response: LocationResponse, errors: [...PLACE_ERRORS],
    policy: { auth: true, country, domain: 'location', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const place = placeInput(query);
      const search = addressSearchOptions(query, place);
      const { location, warnings } = await locate(deps, country, place.kind === 'address' ? { ...place, search } : place, locale);
      return envelope(request, deps.clock, { location }, warnings);
    },
  };
}
