import type { VersionChange } from './change.ts';

/** 3.1 -> 3.0 (spec 2.2): life-lease amounts as integer cents with a lowercase currency code. */
function cents(amount: number | null, currency: string) {
  return amount === null ? null : { cents: Math.round(amount * 100), currency_iso: currency.toLowerCase() };
}

export const lifeAnnuityInCents: VersionChange = {
  description: 'life_lease.venal_value and life_lease.life_annuity are objects {cents, currency_iso} (lowercase), not numbers.',
  responses: {
    'property.one': (body) => {
      const p = body.data;
      if (p.life_lease === null) return body;
      const currency = p.financial.currency as string;
      return { ...body, data: { ...p, life_lease: { venal_value: cents(p.life_lease.venal_value, currency), life_annuity: cents(p.life_lease.life_annuity, currency) } } };
    },
  },
};
