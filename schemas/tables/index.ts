import type { z } from 'zod';
import { AddressRow } from './addresses.ts';
import { MarketIndicatorRow } from './market-indicators.ts';
import { SaleRow } from './sales.ts';
import { ZoneCellRow, ZoneRow } from './zones.ts';

/**
 * Every table of data/<country>/ by name, with its row schema: what jobs declare they read and
 * write (ingest/*.job.ts), what sources feed (datasets/), one name per table.
 */
export const TABLES = {
  addresses: AddressRow,
  zones: ZoneRow,
  zone_cells: ZoneCellRow,
  sales: SaleRow,
  market_indicators: MarketIndicatorRow,
} as const satisfies Record<string, z.ZodType>;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];
