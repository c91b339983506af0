import { z } from 'zod';
import { IsoDate } from './common.ts';
import { Zone } from './zone.ts';

/** Units of spec 2.3. */
export const Unit = z.enum([
  'EUR', 'CAD', 'EUR/year', 'CAD/year', 'EUR/month', 'CAD/month', 'EUR/m2', 'EUR/m2/month',
  'CAD/100CAD', '%', 'ratio', 'count', 'm2', 'kWh/m2/year', 'kgCO2/m2/year', 'kWh/year', 'MWh/year',
]);
export type Unit = z.infer<typeof Unit>;

/** Start and end, both inclusive. */
export const Period = z.object({ start: IsoDate, end: IsoDate });
export const Reliability = z.enum(['high', 'medium', 'low']);

/** A numeric value with what is needed to read it (spec 2.5). */
export const Measure = z.object({
  value: z.number(),
  unit: Unit,
  period: Period.nullable(),
  zone: Zone.nullable(),
  sample_size: z.number().int().nullable(),
  reliability: Reliability,
  range: z.object({ low: z.number(), high: z.number() }).nullable(),
  definition: z.string(),
  updated_on: IsoDate,
  stale: z.boolean(),
});
export type Measure = z.infer<typeof Measure>;

/** Values in time for one zone (spec 2.5). */
export const Series = z.object({
  unit: Unit,
  zone: Zone.nullable(),
  points: z.array(z.object({ period: Period, value: z.number(), sample_size: z.number().int().nullable() })),
  changes: z.object({ '1y': z.number().nullable(), '5y': z.number().nullable(), since_start: z.number().nullable() }),
});
export type Series = z.infer<typeof Series>;

/** A distribution in buckets (spec 2.5). */
export const Breakdown = z.object({
  unit: Unit,
  total: z.number().int(),
  buckets: z.array(z.object({ code: z.string(), min: z.number().optional(), max: z.number().optional(), count: z.number().int() })),
});
export type Breakdown = z.infer<typeof Breakdown>;

/** An amount with its unit (spec 2.2: an amount is a number with its unit). */
export const Amount = z.object({ value: z.number(), unit: Unit });
