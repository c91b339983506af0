import type { Warehouse } from '../../../core/warehouse.ts';
import type { MarketIndicatorRow } from '../../../../schemas/tables/market-indicators.ts';
import type { ZoneLevel } from '../../../../schemas/zone.ts';

/** Zone levels that carry market indicators, finest first (spec 2.5: the finest reliable zone wins). */
export const MARKET_LEVELS: ZoneLevel[] = ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level2', 'administrative_area_level1'];

export type IndicatorRow = Omit<MarketIndicatorRow, 'reliability'> & { reliability: MarketIndicatorRow['reliability'] };

/** Every indicator row of the given zones (both property types, all periods). */
export async function zoneIndicators(warehouse: Warehouse, zones: { level: ZoneLevel; code: string }[]): Promise<IndicatorRow[]> {
  if (zones.length === 0 || !warehouse.has('fr', 'market_indicators_mem')) return [];
  const params = zones.flatMap((z) => [z.level, z.code]);
  const where = zones.map((_, i) => `(level = $${2 * i + 1} AND code = $${2 * i + 2})`).join(' OR ');
  return warehouse.query<IndicatorRow>(
    `SELECT level, code, property_type, period, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end,
       sample_size, median, q1, q3, reliability, change_1y, change_5y, change_since_start
     FROM fr_market_indicators_mem WHERE ${where} ORDER BY period_start`, params);
}

const windows = new WeakMap<Warehouse, { generation: number; window: { start: string; end: string } | null }>();
/** The 24-month window of the indicators (same for every zone), or null before any ingest; read once per warehouse generation. */
export async function indicatorWindow(warehouse: Warehouse): Promise<{ start: string; end: string } | null> {
  const hit = windows.get(warehouse);
  if (hit && hit.generation === warehouse.generation) return hit.window;
  let window: { start: string; end: string } | null = null;
  if (warehouse.has('fr', 'market_indicators_mem')) {
    const [w] = await warehouse.query<{ start: string | null; end: string | null }>(
      `SELECT strftime(min(period_start), '%Y-%m-%d') AS start, strftime(max(period_end), '%Y-%m-%d') AS "end" FROM fr_market_indicators_mem WHERE period = '24m'`);
    window = w?.start && w.end ? { start: w.start, end: w.end } : null;
  }
  windows.set(warehouse, { generation: warehouse.generation, window });
  return window;
}

/**
 * The published 24-month median price per m² of an IRIS (sublocality_level2) for a property type:
 * the reference of vs_sublocality_level2 (property, building). Null when the IRIS has no row for
 * the type or too few sales to publish one (reliability null).
 */
export async function irisMedian24m(warehouse: Warehouse, irisCode: string, type: 'apartment' | 'house'): Promise<number | null> {
  if (!warehouse.has('fr', 'market_indicators_mem')) return null;
  const [row] = await warehouse.query<{ median: number }>(
    `SELECT median FROM fr_market_indicators_mem WHERE level = 'sublocality_level2' AND code = $1 AND property_type = $2 AND period = '24m' AND reliability IS NOT NULL LIMIT 1`, [irisCode, type]);
  return row?.median ?? null;
}

/** Percent difference of a price per m² to a reference median, to one decimal (3.2 means 3.2 % above). */
export function percentDifference(value: number, reference: number): number {
  return Math.round((value / reference - 1) * 1000) / 10;
}

const RANK = { high: 2, medium: 1, low: 0 } as const;

/**
 * The value to serve among candidates ordered finest first (spec 2.5): the finest whose
 * reliability is medium or high; else the finest published one (low); else none.
 */
export function finestReliable<T extends { reliability: 'high' | 'medium' | 'low' | null }>(candidates: T[]): T | null {
  return candidates.find((c) => c.reliability !== null && RANK[c.reliability] >= RANK.medium) ?? candidates.find((c) => c.reliability !== null) ?? null;
}
