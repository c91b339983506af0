import { z } from 'zod';
import { FrBuilding } from '../../../../schemas/building.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { safeText } from '../../../../schemas/inputs.ts';
import { ApiError } from '../../../core/errors.ts';
import { invalidParameter } from '../../../core/errors.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { isOurId, keptId } from '../../ids.ts';
import { locate } from '../../locate.ts';
import { localeOf, PLACE_ERRORS, placeInput, PlaceQuery } from '../../params.ts';
import { DomainStatus, Missing } from '../../../../schemas/domain.ts';
import type { LocationRouteDeps } from '../types.ts';
import { buildingRecord, describeBuilding, frBuilding } from './fr.ts';

/** A building not computed here (insufficient precision, none at the place): status and missing only. */
const NoBuilding = z.object({ status: DomainStatus, missing: Missing });
export const BuildingResponse = envelopeSchema(z.object({ building: z.union([FrBuilding, NoBuilding]) }));

/** GET /api/v1/fr/building (spec 4.2): data.building at a position or an address. */
export function buildingRoute(deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: '/api/v1/fr/building', tags: ['fr'], summary: 'Building at a position or an address',
    description: 'data.building (spec 2.7): the building at the place, only at precision building, address or input; otherwise status insufficient_precision.',
    query: PlaceQuery, response: BuildingResponse, errors: [...PLACE_ERRORS],
    policy: { auth: true, country: 'fr', domain: 'building', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, 'fr', placeInput(query), locale);
      const { value, warnings: w } = await frBuilding(deps, { country: 'fr', location, locale, fields: [] });
      return envelope(request, deps.clock, { building: value }, [...warnings, ...w]);
    },
  };
}

const BuildingParams = z.strictObject({ building_id: safeText({ max: 64 }).describe('a bld_ identifier served in data.location.building_id') });

/** GET /api/v1/fr/buildings/{building_id} (spec 4.2): 400 malformed, 404 building_not_found, 301 toward the kept id of a merged one. */
export function buildingByIdRoute(deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: '/api/v1/fr/buildings/:building_id', tags: ['fr'], summary: 'A building by its identifier',
    description: 'data.building (spec 2.7) of a bld_ identifier; a merged identifier answers 301 toward the kept one.',
    params: BuildingParams, query: z.strictObject({ locale: z.enum(['fr', 'en']).optional() }),
    response: BuildingResponse, errors: ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'domain_not_allowed', 'building_not_found', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'],
    policy: { auth: true, country: 'fr', domain: 'building', units: 1 },
    handler: async ({ request, reply, params, query }) => {
      const id = params.building_id;
      if (!isOurId('bld', id)) throw invalidParameter('building_id', id, 'building_id must be a bld_ identifier (bld_ and 20 hexadecimal digits)');
      const kept = await keptId(deps.warehouse, 'fr', 'bld', id);
      if (kept !== id) return reply.code(301).header('location', `/api/v1/fr/buildings/${kept}`).send({ moved_to: kept });
      const record = await buildingRecord(deps.warehouse, id);
      if (!record) throw new ApiError('building_not_found', `no building ${id}`, { building_id: id });
      const { value, warnings } = await describeBuilding(deps, id, record, localeOf(request, query.locale));
      return envelope(request, deps.clock, { building: value }, warnings);
    },
  };
}
