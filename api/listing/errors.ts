/**
 * The listing module's error catalogue, in the terms of the newest version (3.2, spec section 7).
 * Older versions' statuses and messages are produced by the version changes (./versions/).
 * The `legacy` message is what 3.0 and 3.1 answered: the precise credential problem, or the
 * technical message of an internal error.
 */
import type { z } from 'zod';

export type ListingErrorKind = 'bad_request' | 'unauthorized' | 'validation' | 'not_found' | 'method_not_allowed' | 'rate_limited' | 'internal';

export const STATUS_3_2: Record<ListingErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  validation: 422,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal: 500,
};

export class ListingError extends Error {
  constructor(
    readonly kind: ListingErrorKind,
    message: string,
    readonly legacy: string = message,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ListingError';
  }
}

/** Credentials absent, invalid or disabled, or no right on the board: 3.2 says only this. */
export const notAuthorized = (reason: string) => new ListingError('unauthorized', 'Not Authorized', reason);

export const badRequest = (message: string) => new ListingError('bad_request', message);
export const notFound = (message: string) => new ListingError('not_found', message);

/** A refusal of the data at save; the message lists the refused fields. */
export function refused(fields: { field: string; reason: string }[]): ListingError {
  const list = fields.map((f) => `${f.field} (${f.reason})`).join(', ');
  return new ListingError('validation', `Validation failed: ${list}`);
}

/** The refused fields of a zod failure, by path. */
export function refusedByZod(error: z.ZodError): ListingError {
  const seen = new Set<string>();
  const fields: { field: string; reason: string }[] = [];
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k].join('.')) : [issue.path.join('.') || 'body'];
    for (const field of keys) {
      if (seen.has(field)) continue;
      seen.add(field);
      fields.push({ field, reason: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message });
    }
  }
  return refused(fields);
}

/** Any other failure: 3.2 says nothing technical; 3.0 and 3.1 answered the technical message. */
export function internal(err: unknown): ListingError {
  const e = err instanceof Error ? err : new Error(String(err));
  return new ListingError('internal', 'Internal Server Error', `${e.name}: ${e.message}`.slice(0, 500));
}
