/**
 * Formatting of money and surfaces per locale (spec 2.1), with Intl: the number in the locale's
 * conventions, then the unit symbol of the locale (`pi²` for square feet in fr-CA, `ft²`
 * elsewhere; `m²` everywhere). Pure functions.
 */
import { LISTING_LOCALES, type Formatted, type ListingLocale } from '../../schemas/listing/common.ts';

export type AreaUnit = 'square-meter' | 'square-foot';

/** Square meters in one square foot (exact, international foot). */
export const SQUARE_METERS_PER_SQUARE_FOOT = 0.09290304;

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: ListingLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

export function unitSymbol(unit: AreaUnit, locale: ListingLocale): string {
  if (unit === 'square-meter') return 'm²';
  return locale === 'fr-CA' ? 'pi²' : 'ft²';
}

/** One locale: `1 250,5 m²`, `13,455 ft²`, `13 455 pi²` (no-break space before the unit). */
export function formatAreaIn(value: number, unit: AreaUnit, locale: ListingLocale): string {
  const digits = unit === 'square-meter' ? 1 : 0;
  return `${numberFormat(locale, { maximumFractionDigits: digits }).format(value)}\u00a0${unitSymbol(unit, locale)}`;
}

/** Every locale, or null when the surface is unknown. */
export function formatArea(value: number | null, unit: AreaUnit): Formatted | null {
  if (value === null) return null;
  return Object.fromEntries(LISTING_LOCALES.map((l) => [l, formatAreaIn(value, unit, l)])) as Formatted;
}

export function formatMoney(value: number | null, currency: string): Formatted | null {
  if (value === null) return null;
  const whole = Number.isInteger(value);
  return Object.fromEntries(
    LISTING_LOCALES.map((l) => [l, numberFormat(l, { style: 'currency', currency, minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(value)]),
  ) as Formatted;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** A surface in the other unit, rounded to the hundredth. */
export function convertArea(value: number, from: AreaUnit, to: AreaUnit): number {
  if (from === to) return value;
  return round2(from === 'square-foot' ? value * SQUARE_METERS_PER_SQUARE_FOOT : value / SQUARE_METERS_PER_SQUARE_FOOT);
}
