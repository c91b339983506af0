import { z } from 'zod';
import { Reliability } from '../measure.ts';
import { ZoneLevel } from '../zone.ts';

/** Periods of the indicators: the 24 months ending at the latest sale, calendar years, calendar quarters. */
export const IndicatorPeriod = z.enum(['24m', 'year', 'quarter']);
export type IndicatorPeriod = z.infer<typeof IndicatorPeriod>;

/**
 * Sample sizes behind a median price per m² (documented in /catalog/fields): below MIN_PUBLISHED
 * no value is served (insufficient_sample); the finest zone at MEDIUM or more wins (spec 2.5).
 */
export const RELIABILITY_THRESHOLDS = { high: 30, medium: 10, low: 5 } as const;

/** Reliability of a median from its sample size, or null when too few sales to publish one. */
export function reliabilityOf(sampleSize: number): z.infer<typeof Reliability> | null {
  if (sampleSize >= RELIABILITY_THRESHOLDS.high) return 'high';
  if (sampleSize >= RELIABILITY_THRESHOLDS.medium) return 'medium';
  if (sampleSize >= RELIABILITY_THRESHOLDS.low) return 'low';
  return null;
}

/**
 * Row of the table `market_indicators` (data/fr/market_indicators/all.parquet): the median price
 * per m² of one zone, property type and period, computed by DuckDB at ingest over every sales
 * partition. Only market sales of one dwelling with a surface count. Series rows (year, quarter)
 * carry the change to the same period 1 and 5 years before and to the first period of the zone.
 */
export const MarketIndicatorRow = z.object({
  level: ZoneLevel.describe('administrative_area_level1 (region), administrative_area_level2 (department), locality (commune), sublocality_level1 (arrondissement), sublocality_level2 (IRIS)'),
  code: z.string(),
  property_type: z.enum(['apartment', 'house']),
  period: IndicatorPeriod,
  period_start: z.string().describe('DATE'),
  period_end: z.string().describe('DATE, inclusive'),
  sample_size: z.number().int(),
  median: z.number().describe('median price per m2, EUR/m2').meta({ unit: 'EUR/m²' }),
  q1: z.number().describe('first quartile').meta({ unit: 'EUR/m²' }),
  q3: z.number().describe('third quartile').meta({ unit: 'EUR/m²' }),
  reliability: Reliability.nullable().describe('from sample_size (RELIABILITY_THRESHOLDS); null below the publication threshold'),
  change_1y: z.number().nullable().describe('percent change of the median from the same period one year before (series rows)').meta({ unit: '%' }),
  change_5y: z.number().nullable().describe('percent change from the same period five years before').meta({ unit: '%' }),
  change_since_start: z.number().nullable().describe('percent change from the first period of the series').meta({ unit: '%' }),
});
export type MarketIndicatorRow = z.infer<typeof MarketIndicatorRow>;

export const MARKET_INDICATOR_COLUMNS = {
  level: 'VARCHAR', code: 'VARCHAR', property_type: 'VARCHAR', period: 'VARCHAR', period_start: 'DATE', period_end: 'DATE',
  sample_size: 'INTEGER', median: 'DOUBLE', q1: 'DOUBLE', q3: 'DOUBLE', reliability: 'VARCHAR',
  change_1y: 'DOUBLE', change_5y: 'DOUBLE', change_since_start: 'DOUBLE',
} as const satisfies Record<keyof MarketIndicatorRow, string>;
