import { describe, expect, it } from 'vitest';
import { convertArea, formatArea, formatAreaIn, formatMoney, unitSymbol } from '../../../api/listing/format.ts';
import { LISTING_LOCALES } from '../../../schemas/listing/common.ts';
import { Formatted } from '../../../schemas/listing/common.ts';

describe('listing formats (spec 2.1)', () => {
  it('square feet are pi² in fr-CA and ft² elsewhere; square meters are m² everywhere', () => {
    for (const l of LISTING_LOCALES) {
      expect(unitSymbol('square-foot', l)).toBe(l === 'fr-CA' ? 'pi²' : 'ft²');
      expect(unitSymbol('square-meter', l)).toBe('m²');
    }
  });

  it('numbers follow the locale (Intl): grouping and decimal separators', () => {
    expect(formatAreaIn(1250.5, 'square-meter', 'fr')).toBe('1\u202f250,5\u00a0m²');
    expect(formatAreaIn(1250.5, 'square-meter', 'fr-CA')).toBe('1\u00a0250,5\u00a0m²');
    expect(formatAreaIn(1250.5, 'square-meter', 'en')).toBe('1,250.5\u00a0m²');
    expect(formatAreaIn(1250.5, 'square-meter', 'nl-BE')).toBe('1.250,5\u00a0m²');
    expect(formatAreaIn(13460.27, 'square-foot', 'fr-CA')).toBe('13\u00a0460\u00a0pi²');
    expect(formatAreaIn(13460.27, 'square-foot', 'en-CA')).toBe('13,460\u00a0ft²');
  });

  it('a formatted value has one key per locale, null when the value is unknown', () => {
    expect(Object.keys(Formatted.parse(formatArea(80, 'square-meter')))).toEqual([...LISTING_LOCALES]);
    expect(formatArea(null, 'square-foot')).toBeNull();
    expect(formatMoney(null, 'EUR')).toBeNull();
    expect(formatMoney(1500, 'EUR')).toMatchObject({ fr: '1\u202f500\u00a0€', en: '€1,500' });
    expect(formatMoney(850.75, 'CAD')?.['fr-CA']).toBe('850,75\u00a0$');
  });

  it('converts between square meters and square feet (international foot)', () => {
    expect(convertArea(1050, 'square-foot', 'square-meter')).toBe(97.55);
    expect(convertArea(100, 'square-meter', 'square-foot')).toBe(1076.39);
    expect(convertArea(42, 'square-meter', 'square-meter')).toBe(42);
  });
});
