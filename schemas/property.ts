import { z } from 'zod';
import { IsoDate } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Event, Feature } from './feature.ts';
import { Amount, Reliability } from './measure.ts';

/** data.property.value_today (spec 2.8): the last sale carried to today by the price index of its zone. */
export const ValueToday = z.object({
  value: z.number(), unit: z.literal('EUR'), as_of: IsoDate, method: z.literal('indexed_last_sale'), reliability: Reliability,
});

/** data.property for France (spec 2.8). */
export const FrProperty = z.object({
  status: DomainStatus,
  id: z.string().regex(/^prp_/),
  building_id: z.string().nullable(),
  type: z.enum(['apartment', 'house']),
  address: z.string().nullable(),
  lot: z.string().nullable(),
  living_area_m2: Feature.nullable(),
  carrez_area_m2: Feature.nullable(),
  rooms: Feature.nullable(),
  energy: z.object({
    scheme: z.string(), energy_class: z.string().nullable(), energy_per_m2: z.number().nullable(), climate_class: z.string().nullable(),
    climate_per_m2: z.number().nullable(), number: z.string(), date: IsoDate,
  }).nullable(),
  last_sale: z.object({ date: IsoDate, price: Amount.nullable(), price_per_m2: Amount.nullable(), surface_basis: z.string().nullable() }).nullable(),
  value_today: ValueToday.nullable(),
  vs_sublocality_level2: z.number().nullable(),
  events: z.array(Event),
  story: z.string().nullable(),
  others: z.array(z.object({ id: z.string(), type: z.enum(['apartment', 'house']), lot: z.string().nullable(), floor: z.number().int().nullable(), living_area_m2: z.number().nullable(), last_event_on: IsoDate })),
  missing: Missing,
});
export type FrProperty = z.infer<typeof FrProperty>;
