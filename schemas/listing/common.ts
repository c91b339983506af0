/**
 * Shapes every listing resource shares (spec listing-api-versions.md): the locales of the
 * `{locale}` path segment and of formatted values, the versions served, the error body and
 * the paged list.
 */
import { z } from 'zod';
import { INT4, pgTimestamp, queryInt, safeText } from '../inputs.ts';

/** The versions served side by side, newest first (spec section 1). */
export const LISTING_VERSIONS = ['3.2', '3.1', '3.0'] as const;
export type ListingVersion = (typeof LISTING_VERSIONS)[number];

/**
 * Locales of the path segment and the keys of every formatted value (spec 2.1: "one key per
 * locale (fr, fr-CA, en, and others)").
 */
export const LISTING_LOCALES = ['fr', 'fr-CA', 'fr-BE', 'en', 'en-CA', 'nl-BE'] as const;
export const ListingLocale = z.enum(LISTING_LOCALES);
export type ListingLocale = (typeof LISTING_LOCALES)[number];

/** A value formatted for every locale, e.g. `{ "fr": "1 250 m²", "fr-CA": "13 455 pi²", ... }`. */
export const Formatted = z
  .strictObject(Object.fromEntries(LISTING_LOCALES.map((l) => [l, z.string()])) as Record<ListingLocale, z.ZodString>)
  .describe('one string per locale');
export type Formatted = z.infer<typeof Formatted>;

/** The error body of every version (spec section 7): one key holding a message. */
export const ListingErrorBody = z.strictObject({ errors: z.string() });
export type ListingErrorBody = z.infer<typeof ListingErrorBody>;

/** ISO 4217 code in capitals (financial.currency). */
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals, such as CAD or EUR');

/** Board identifier of the `mls_board` parameter: the board's slug (schemas/accounts.ts). */
export const MlsBoard = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a board slug: lowercase letters, digits and hyphens')
  .describe('the board slug, e.g. gmtl');

/** Cursor pagination, identical in every version. */
export const Paging = z.strictObject({
  limit: z.number().int(),
  next_cursor: z.string().nullable().describe('pass as `cursor` to read the next page; null on the last page'),
});

/** `{ data: [...], paging }` of a list route. */
export const pageOf = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item), paging: Paging });
/** `{ data: {...} }` of a single-resource route. */
export const oneOf = <T extends z.ZodType>(item: T) => z.strictObject({ data: item });

/** Query parameters shared by every list route. */
export const PageQuery = {
  mls_board: MlsBoard,
  limit: queryInt(INT4, { min: 1, max: 100 }).default(20).describe('items per page, 1 to 100'),
  cursor: safeText({ max: 200 }).optional().describe('next_cursor of the previous page'),
};

export const Timestamp = z.string().datetime({ offset: true });

/** A timestamp filter of a query: ISO 8601 with offset, within what timestamptz holds (schemas/inputs.ts). */
export const TimestampFilter = pgTimestamp;

type Undefaulted<T> = T extends z.ZodDefault<infer I> ? I : T;
/**
 * The update payload of a create payload: every field optional and without its default, so a
 * field left out keeps its stored value instead of being reset.
 */
export function updateOf<S extends z.ZodRawShape>(shape: S) {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) out[k] = (v instanceof z.ZodDefault ? (v.unwrap() as z.ZodType) : (v as z.ZodType)).optional();
  return z.strictObject(out) as unknown as z.ZodObject<{ [K in keyof S]: z.ZodOptional<Undefaulted<S[K]>> }, z.core.$strict>;
}
