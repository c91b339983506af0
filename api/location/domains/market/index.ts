import { z } from 'zod';
import { CaMarket, FrMarket, FrZoneMarket } from '../../../../schemas/market.ts';
import { caMarketResolver, caZoneMarketResolver } from './ca.ts';
import type { MemoryTable } from '../../../core/warehouse.ts';
import type { DomainModule } from '../types.ts';
import { MARKET_FIELDS } from './fields.ts';
import { frMarketResolver } from './fr.ts';
import { frZoneMarketResolver } from './fr-zone.ts';
import { frMarketRoutes } from './routes.ts';

/** Market indicators of the report (24-month medians and yearly series); quarterly rows stay on disk. */
const INDICATORS_MEM: MemoryTable = { from: 'market_indicators', select: "SELECT * FROM {src} WHERE period IN ('24m', 'year') ORDER BY level, code" };

/** Market (spec 2.9): France from DVF sales and the rent map; Quebec from CMHC's survey; Belgium to come (issue 14). */
export const marketDomain: DomainModule = {
  id: 'market',
  fields: MARKET_FIELDS,
  catalogFields: { be: ['sale_price_median.apartment', 'sale_price_median.house', 'permits_nearby'] },
  paths: { be: ['/market', '/market/permits', '/report'] },
  resolvers: { fr: frMarketResolver, ca: caMarketResolver },
  schema: z.union([FrMarket, CaMarket]),
  zoneResolvers: { fr: frZoneMarketResolver, ca: caZoneMarketResolver },
  zoneSchema: z.union([FrZoneMarket, CaMarket]),
  tables: { fr: ['sales', 'market_indicators', 'zone_values'], ca: ['zone_values'] },
  memoryTables: { market_indicators_mem: INDICATORS_MEM },
  routes: { fr: frMarketRoutes },
};
