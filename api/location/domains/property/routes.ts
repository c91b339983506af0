import { z } from 'zod';
import { DomainStatus, Missing } from '../../../../schemas/domain.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { safeText } from '../../../../schemas/inputs.ts';
import { FrProperty } from '../../../../schemas/property.ts';
import { ApiError, invalidParameter } from '../../../core/errors.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { isOurId, keptId } from '../../ids.ts';
import { localeOf } from '../../params.ts';
import type { LocationRouteDeps } from '../types.ts';
import { describeProperty, propertyRecord } from './fr.ts';

const NoProperty = z.object({ status: DomainStatus, missing: Missing });
export const PropertyResponse = envelopeSchema(z.object({ property: z.union([FrProperty, NoProperty]) }));
const PropertyParams = z.strictObject({ property_id: safeText({ max: 64 }).describe('a prp_ identifier served in data.location.property_ids') });

/** GET /api/v1/fr/properties/{property_id} (spec 4.2): 400 malformed, 404 property_not_found, 301 toward the kept id of a merged one. */
export function propertyByIdRoute(deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: '/api/v1/fr/properties/:property_id', tags: ['fr'], summary: 'A property by its identifier',
    description: 'data.property (spec 2.8) of a prp_ identifier: characteristics, energy, last sale, value today, events, story; a merged identifier answers 301 toward the kept one.',
    params: PropertyParams, query: z.strictObject({ locale: z.enum(['fr', 'en']).optional() }),
    response: PropertyResponse, errors: ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'domain_not_allowed', 'property_not_found', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'],
    policy: { auth: true, country: 'fr', domain: 'property', units: 1 },
    handler: async ({ request, reply, params, query }) => {
      const id = params.property_id;
      if (!isOurId('prp', id)) throw invalidParameter('property_id', id, 'property_id must be a prp_ identifier (prp_ and 20 hexadecimal digits)');
      const kept = await keptId(deps.warehouse, 'fr', 'prp', id);
      if (kept !== id) return reply.code(301).header('location', `/api/v1/fr/properties/${kept}`).send({ moved_to: kept });
      const record = await propertyRecord(deps.warehouse, id);
      if (!record) throw new ApiError('property_not_found', `no property ${id}`, { property_id: id });
      const { value, warnings } = await describeProperty(deps.warehouse, deps.clock, record, localeOf(request, query.locale));
      return envelope(request, deps.clock, { property: value }, warnings);
    },
  };
}
