import { z } from 'zod';
import type { Country } from '../../../../schemas/common.ts';
import { isTaxonomyCode, PLACE_CATEGORY_CODES, PLACE_GROUP_CODES } from '../../../../schemas/categories.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { INT4, queryInt } from '../../../../schemas/inputs.ts';
import { Places } from '../../../../schemas/places.ts';
import { invalidParameter } from '../../../core/errors.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, placeShape, reportShape } from '../../params.ts';
import type { LocationRouteDeps } from '../types.ts';
import { placesAt, PLACES_RADIUS_M } from './resolve.ts';

export const PlacesResponse = envelopeSchema(z.object({ places: Places }));

/** Default page size of /places (spec 8 leaves it to the service). */
export const PLACES_PER_PAGE = 20;

export const placesShape = {
  ...placeShape,
  radius: reportShape.radius.describe(`meters, 100 to 2000, default ${PLACES_RADIUS_M}`),
  category: z.string().trim().max(60).optional().describe(`a group (${PLACE_GROUP_CODES.join(', ')}) or a category of GET /catalog/categories`),
  page: queryInt(INT4, { min: 1 }).optional().describe('from 1'),
  per_page: queryInt(INT4, { min: 1, max: 100 }).optional().describe(`1 to 100, default ${PLACES_PER_PAGE}`),
};

/** An unknown code is refused by name rather than answered with an empty list (issue 16). */
export function categoryParam(value: string | undefined): string | undefined {
  if (value === undefined || isTaxonomyCode(value)) return value;
  throw invalidParameter('category', value, `unknown category ${JSON.stringify(value)}: a group (${PLACE_GROUP_CODES.join(', ')}) or a category such as ${PLACE_CATEGORY_CODES.slice(0, 3).join(', ')} (GET /catalog/categories)`);
}

/** GET /api/v1/<country>/places (spec 4.4): the full paginated list around the point. */
export function placesRoute(country: Country, deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: `/api/v1/${country}/places`, tags: [country], summary: 'Places around a position or an address',
    description: `data.places (spec 2.11): counts per group within the radius (default ${PLACES_RADIUS_M} m), items nearest first with distance and walking time, lines of transport stops; category filters the items by group or category.`,
    query: z.strictObject(placesShape), response: PlacesResponse, errors: [...PLACE_ERRORS],
    policy: { auth: true, country, domain: 'places', units: 1 },
    handler: async ({ request, query }) => {
      const category = categoryParam(query.category);
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, country, placeInput(query), locale);
      const { value, warnings: w } = await placesAt(deps, country, {
        lat: location.latitude, lng: location.longitude, radius: query.radius ?? PLACES_RADIUS_M, category, page: query.page ?? 1, perPage: query.per_page ?? PLACES_PER_PAGE,
        region: location.zones.administrative_area_level1?.code ?? null,
      });
      return envelope(request, deps.clock, { places: value }, [...warnings, ...w]);
    },
  };
}
