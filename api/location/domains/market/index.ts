import { FrMarket, FrZoneMarket } from '../../../../schemas/market.ts';
import type { MemoryTable } from '../../../core/warehouse.ts';
import type { DomainModule } from '../types.ts';
import { MARKET_FIELDS } from './fields.ts';
import { frMarketResolver } from './fr.ts';
import { frZoneMarketResolver } from './fr-zone.ts';
import { frMarketRoutes } from './routes.ts';

/** Market indicators of the report (24-month medians and yearly series); quarterly rows stay on disk. */
const INDICATORS_MEM: MemoryTable = { from: 'market_indicators', select: "SELECT * FROM {src} WHERE period IN ('24m', 'year') ORDER BY level, code" };

/** Market (spec 2.9): France from DVF sales; Quebec and Belgium to come (issue 14). */
export const marketDomain: DomainModule = {
  id: 'market',
  fields: MARKET_FIELDS,
  catalogFields: { be: ['sale_price_median.apartment', 'sale_price_median.house', 'permits_nearby'] },
  paths: { be: ['/market', '/market/permits', '/report'] },
  resolvers: { fr: frMarketResolver },
  schema: FrMarket,
  zoneResolvers: { fr: frZoneMarketResolver },
  zoneSchema: FrZoneMarket,
  tables: { fr: ['sales', 'market_indicators'] },
  memoryTables: { market_indicators_mem: INDICATORS_MEM },
  routes: { fr: frMarketRoutes },
};
