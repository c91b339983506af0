import { z } from 'zod';
import { BeMarket, CaMarket, FrMarket, FrZoneMarket } from '../../../../schemas/market.ts';
import { beMarketResolver, beZoneMarketResolver } from './be.ts';
import { caMarketResolver, caZoneMarketResolver } from './ca.ts';
import type { MemoryTable } from '../../../core/warehouse.ts';
import type { DomainModule } from '../types.ts';
import { MARKET_FIELDS } from './fields.ts';
import { frMarketResolver } from './fr.ts';
import { frZoneMarketResolver } from './fr-zone.ts';
import { beMarketRoute, frMarketRoutes } from './routes.ts';

/** Market indicators of the report (24-month medians and yearly series); quarterly rows stay on disk. */
const INDICATORS_MEM: MemoryTable = { from: 'market_indicators', select: "SELECT * FROM {src} WHERE period IN ('24m', 'year') ORDER BY level, code" };

/** Market (spec 2.9): France from DVF sales, the rent map and the housing zonings; Quebec from CMHC's survey; Belgium from Statbel's sale prices (issue 14). */
export const marketDomain: DomainModule = {
  id: 'market',
  fields: MARKET_FIELDS,
  catalogFields: { be: ['sale_price_median.apartment', 'sale_price_median.house', 'permits_nearby'] },
  paths: { be: ['/market', '/market/permits', '/report'] },
  resolvers: { fr: frMarketResolver, ca: caMarketResolver, be: beMarketResolver },
  schema: z.union([FrMarket, CaMarket, BeMarket]),
  zoneResolvers: { fr: frZoneMarketResolver, ca: caZoneMarketResolver, be: beZoneMarketResolver },
  zoneSchema: z.union([FrZoneMarket, CaMarket, BeMarket]),
  tables: { fr: ['sales', 'market_indicators', 'zone_values', 'properties', 'property_events', 'diagnoses'], ca: ['zone_values'], be: ['zone_values'] },
  memoryTables: { market_indicators_mem: INDICATORS_MEM },
  routes: { fr: frMarketRoutes, be: (deps) => [beMarketRoute(deps)] },
};
