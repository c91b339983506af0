import { z } from 'zod';
import { IsoDate } from './common.ts';
import { Amount } from './measure.ts';

/** document.type of a Feature (spec 2.5). */
export const DocumentType = z.enum(['sale', 'energy_diagnosis', 'building_record', 'copro_registry', 'permit', 'assessment_roll']);
const DocumentRef = z.object({ type: DocumentType, date: IsoDate.nullable() });

/** A characteristic taken from published documents; the most reliable value, the others alongside. */
export const Feature = z.object({
  value: z.union([z.number(), z.string()]).nullable(),
  unit: z.string().nullable(),
  document: DocumentRef,
  alternatives: z.array(z.object({ value: z.union([z.number(), z.string()]).nullable(), document: DocumentRef })),
});
export type Feature = z.infer<typeof Feature>;

/** A dated fact of the life of a property (spec 2.5). */
export const Event = z.object({
  id: z.string().regex(/^evt_/),
  type: z.enum(['sale', 'energy_diagnosis', 'permit', 'transfer', 'assessment']),
  date: IsoDate,
  attachment: z.object({ level: z.enum(['sure', 'probable']), reason: z.string(), label: z.string() }),
  sale: z.object({
    price: Amount,
    price_per_m2: Amount.extend({ surface_basis: z.string() }).nullable(),
    surface: z.number().nullable(),
    rooms: z.number().int().nullable(),
    market_sale: z.boolean(),
    annexes: z.array(z.string()),
    deed_dwellings: z.number().int().optional().describe('present when the deed sold several dwellings told apart by their lots: the price is the whole deed\'s, surface and rooms this property\'s'),
  }).optional(),
  energy_diagnosis: z.object({
    number: z.string(), scheme: z.string(), energy_class: z.string().nullable(), energy_per_m2: z.number().nullable(),
    climate_class: z.string().nullable(), surface: z.number().nullable(), floor: z.number().int().nullable(),
    heating: z.object({ energy: z.string().nullable(), system: z.string().nullable() }),
  }).optional(),
  transfer: z.object({ price: Amount.nullable() }).optional(),
  assessment: z.object({
    roll_year: z.number().int(), market_date: IsoDate, total_value: Amount, previous_value: Amount.nullable(), change: z.number().nullable(),
  }).optional(),
});
export type Event = z.infer<typeof Event>;
