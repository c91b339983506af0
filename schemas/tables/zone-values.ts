import { z } from 'zod';
import { ZoneLevel } from '../zone.ts';

/**
 * Table kind "zone values" (issue 13, section 4): a figure a producer publishes for a zone
 * (median income of an IRIS, average rent of a rental-survey area, median sale price of a
 * commune), with what is needed to serve it as a Measure (spec 2.5). Served at the finest zone
 * that publishes it; a zone never receives a wider zone's value.
 */
export const ZoneValueRow = z.object({
  level: ZoneLevel,
  code: z.string().min(1),
  indicator: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, 'indicator must be a dotted snake_case name').describe('field name of the domain (income.taxable_median)'),
  breakdown: z.string().nullable().describe('the part of the zone the value describes (apartment, house, 2_bedrooms); null for the whole'),
  period_start: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().describe('first day described, inclusive; null for a value without period (a rate in force)'),
  period_end: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().describe('last day described, inclusive'),
  value: z.number().nullable().describe('null: withheld by the producer (see `suppressed`)').meta({ unit: 'the row\'s `unit`' }),
  unit: z.string().describe('unit of spec 2.3'),
  sample_size: z.number().int().nonnegative().nullable(),
  reliability: z.enum(['high', 'medium', 'low']).nullable().describe("from the producer's quality codes where published, else from the sample"),
  range_low: z.number().nullable().describe('lower bound published with the value').meta({ unit: 'the row\'s `unit`' }),
  range_high: z.number().nullable().describe('upper bound published with the value').meta({ unit: 'the row\'s `unit`' }),
  suppressed: z.boolean().describe('true when the producer withholds the value (statistical secrecy, unreliable)'),
  source: z.string(),
  published_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().describe("the producer's publication date of the edition (Measure.updated_on), required by every job since 2026-11-27; null only in partitions written before (served their import date, with a warning)"),
});
export type ZoneValueRow = z.infer<typeof ZoneValueRow>;

export const ZONE_VALUE_COLUMNS = {
  level: 'VARCHAR', code: 'VARCHAR', indicator: 'VARCHAR', breakdown: 'VARCHAR', period_start: 'DATE', period_end: 'DATE',
  value: 'DOUBLE', unit: 'VARCHAR', sample_size: 'INTEGER', reliability: 'VARCHAR', range_low: 'DOUBLE', range_high: 'DOUBLE',
  suppressed: 'BOOLEAN', source: 'VARCHAR', published_on: 'DATE',
} as const satisfies Record<keyof ZoneValueRow, string>;
