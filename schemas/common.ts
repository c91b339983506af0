import { z } from 'zod';

/** Countries served, as lower-case route prefixes (spec section 1). */
export const Country = z.enum(['fr', 'ca', 'be']);
export type Country = z.infer<typeof Country>;

/** Response language (spec 2.2): fr by default, en on request. */
export const Locale = z.enum(['fr', 'en']);
export type Locale = z.infer<typeof Locale>;

/** A readable text in each served language. */
export type Labels = Readonly<Record<Locale, string>>;

/** A catalogue of stable codes with their fr/en labels. */
export type CodeCatalogue<C extends string> = Readonly<Record<C, Labels>>;

/** The label of a code in the requested language; the code itself when none is known. */
export function labelOf<C extends string>(catalogue: CodeCatalogue<C>, code: C, locale: Locale): string {
  return catalogue[code]?.[locale] ?? code;
}

/** zod enum built from a catalogue's keys, so codes and labels cannot drift apart. */
export function enumOf<C extends string>(catalogue: CodeCatalogue<C>) {
  return z.enum(Object.keys(catalogue) as [C, ...C[]]);
}

/** YYYY-MM-DD (spec 2.2). */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date');
/** ISO 8601 timestamp in UTC (spec 2.2). */
export const Timestamp = z.string().datetime({ offset: false });
