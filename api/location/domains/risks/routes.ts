import { z } from 'zod';
import type { Country } from '../../../../schemas/common.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, placeShape, reportShape } from '../../params.ts';
import { PendingDomain } from '../index.ts';
import type { LocationRouteDeps, Resolver } from '../types.ts';
import { SITES_RADIUS_M } from './ca.ts';

const risksShape = { ...placeShape, radius: reportShape.radius.describe(`meters, 100 to 2000, radius of the polluted sites; default ${SITES_RADIUS_M}`) };

/**
 * GET /api/v1/<country>/risks (spec 4.3, 4.4): data.risks at a position or an address, as in the
 * report; `radius` bounds the polluted sites counted and listed.
 */
export function risksRoute(country: Country, schema: z.ZodType, resolve: Resolver, deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: `/api/v1/${country}/risks`, tags: [country], summary: 'Natural hazards and polluted sites at a position or an address',
    description: `data.risks (spec 2.10): hazards of the mapped sectors containing the point, highest first, the types not assessed here, the summary, and the polluted sites within the radius (default ${SITES_RADIUS_M} m).`,
    query: z.strictObject(risksShape), response: envelopeSchema(z.object({ risks: z.union([schema, PendingDomain]) })), errors: [...PLACE_ERRORS],
    policy: { auth: true, country, domain: 'risks', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, country, placeInput(query), locale);
      const { value, warnings: w } = await resolve(deps, { country, location, locale, radius: query.radius, fields: [] });
      return envelope(request, deps.clock, { risks: value }, [...warnings, ...w]);
    },
  };
}
