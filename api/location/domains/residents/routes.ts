import { z } from 'zod';
import type { Country } from '../../../../schemas/common.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, PlaceQuery } from '../../params.ts';
import type { LocationRouteDeps, Resolver } from '../types.ts';

/** GET /api/v1/<country>/residents (spec 4.4): data.residents at a position or an address. */
export function residentsRoute(country: Country, deps: LocationRouteDeps, resolve: Resolver, schema: z.ZodType): AnyRoute {
  return {
    method: 'GET', url: `/api/v1/${country}/residents`, tags: [country], summary: 'Residents at a position or an address',
    description: 'data.residents (spec 2.11): incomes and housing at the finest zone of the point with a reliable value.',
    query: PlaceQuery, response: envelopeSchema(z.object({ residents: schema })), errors: [...PLACE_ERRORS],
    policy: { auth: true, country, domain: 'residents', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, country, placeInput(query), locale);
      const { value, warnings: w } = await resolve(deps, { country, location, locale, fields: [] });
      return envelope(request, deps.clock, { residents: value }, [...warnings, ...w]);
    },
  };
}
