import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Error codes and their HTTP status (spec section 7). error.code never changes between versions. */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  ambiguous_location: 400,
  unauthorized: 401,
  country_not_allowed: 403,
  domain_not_allowed: 403,
  not_found: 404,
  // Added for requests Node's parser refuses (spec 7 has no code for them; added, never changed).
  method_not_allowed: 405,
  request_head_too_large: 431,
  address_not_found: 404,
  zone_not_found: 404,
  property_not_found: 404,
  building_not_found: 404,
  outside_coverage: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  maintenance: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** The stable error body (spec section 7). */
export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
  meta: z.object({ request_id: z.string(), api_version: z.string(), generated_at: Timestamp }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
