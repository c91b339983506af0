/**
 * A version change, in the manner of Stripe's: one documented difference between a version and
 * the next newer one, turning a newer response (or error) into the older shape. Responses are
 * built once in the 3.2 shape and passed down the changes of each older version in turn.
 */
import type { z } from 'zod';
import type { ListingLocale, ListingVersion } from '../../../schemas/listing/common.ts';
import type { ListingError } from '../errors.ts';

/** Every successful response body is one of these; a change says which it transforms. */
export type ResponseKind =
  | 'property.page' | 'property.one'
  | 'agency.page' | 'agency.one'
  | 'user.page' | 'user.one'
  | 'gateway.page' | 'gateway.one';

export interface ChangeContext {
  /** The `{locale}` path segment. */
  locale: ListingLocale;
  /** What the route declares about its legacy behaviour. */
  route: { legacyValidationStatus?: 400 };
}

/** An error on its way down: the status and message answered so far, and the error itself. */
export interface VersionedError {
  status: number;
  message: string;
  error: ListingError;
}

export interface VersionChange {
  /** The spec's words for the difference (shown in the OpenAPI document). */
  readonly description: string;
  readonly responses?: Partial<Record<ResponseKind, (body: any, ctx: ChangeContext) => unknown>>;
  readonly error?: (e: VersionedError, ctx: ChangeContext) => VersionedError;
}

/** A served version: its prefix, the changes from the next newer version, its own response schemas. */
export interface VersionDef {
  readonly version: ListingVersion;
  /** Path segment after the locale: `/{locale}/api/<prefix>/`. */
  readonly prefix: string;
  readonly changes: readonly VersionChange[];
  /** Response schemas that differ from the next newer version's. */
  readonly schemas?: Partial<Record<ResponseKind, z.ZodType>>;
}
