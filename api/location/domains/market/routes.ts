import { z } from 'zod';
import { INT4, queryInt } from '../../../../schemas/inputs.ts';
import { envelope as envelopeSchema } from '../../../../schemas/envelope.ts';
import { BeMarket, FrMarket, SalesPage } from '../../../../schemas/market.ts';
import { envelope } from '../../../core/respond.ts';
import type { AnyRoute } from '../../../core/routes.ts';
import { locate } from '../../locate.ts';
import { localeOf, placeInput, placeShape } from '../../params.ts';
import { PLACE_ERRORS, reportShape } from '../../params.ts';
import type { LocationRouteDeps } from '../types.ts';
import { frMarket, notCovered, parcelIdOf, rentPropertyOf, saleItem, SALES_RADIUS_M } from './fr.ts';
import { salesIndexOf } from './sales-index.ts';
import { beMarketResolver } from './be.ts';
import { salesAround } from './sales-nearby.ts';

export const FrMarketResponse = envelopeSchema(z.object({ market: FrMarket }));
export const FrSalesResponse = envelopeSchema(SalesPage.extend({ status: FrMarket.shape.status, missing: FrMarket.shape.missing }));

const perPage = queryInt(INT4, { min: 1, max: 100 }).optional().describe('1 to 100, default 20');
const page = queryInt(INT4, { min: 1 }).optional().describe('from 1');
const marketShape = { ...placeShape, property_type: reportShape.property_type, radius: reportShape.radius };
const ERRORS = PLACE_ERRORS;

/** France market routes, by analogy with Canada's and Belgium's /market and /market/permits (spec 4.3, 4.4). */
export function frMarketRoutes(deps: LocationRouteDeps): AnyRoute[] {
  // Starts building the radius index of the loaded sales table now rather than at the first query.
  salesIndexOf(deps.warehouse);
  return [
    {
      method: 'GET', url: '/api/v1/fr/market', tags: ['fr'], summary: 'Property market at a position or an address',
      description: `data.market (spec 2.9): sales around the point (radius, default ${SALES_RADIUS_M} m) with the median price per m² of the finest reliable zone, the yearly price trend; property_type restricts to apartments or houses.`,
      query: z.strictObject(marketShape), response: FrMarketResponse, errors: [...ERRORS],
      policy: { auth: true, country: 'fr', domain: 'market', units: 1 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const { location } = await locate(deps, 'fr', placeInput(query), locale);
        const { market, warnings } = await frMarket(deps, {
          lat: location.latitude, lng: location.longitude, zones: location.zones, parcelId: parcelIdOf(location.parcel),
          radius: query.radius ?? SALES_RADIUS_M, propertyType: query.property_type, locale,
          property: await rentPropertyOf(deps, { location, propertyType: query.property_type }),
        });
        return envelope(request, deps.clock, { market }, warnings);
      },
    },
    {
      method: 'GET', url: '/api/v1/fr/market/sales', tags: ['fr'], summary: 'Full paginated list of the sales around the point',
      description: 'Every sale within the radius (default 500 m), nearest first, all years held; property_type restricts to apartments or houses.',
      query: z.strictObject({ ...marketShape, page, per_page: perPage }), response: FrSalesResponse, errors: [...ERRORS],
      policy: { auth: true, country: 'fr', domain: 'market', units: 1 },
      handler: async ({ request, query }) => {
        const locale = localeOf(request, query.locale);
        const { location } = await locate(deps, 'fr', placeInput(query), locale);
        const p = query.page ?? 1;
        const size = query.per_page ?? 20;
        const pagination = { page: p, per_page: size, total: 0 };
        if (notCovered(location.zones)) {
          return envelope(request, deps.clock, { status: 'not_covered' as const, sales: [], pagination, missing: { sales: 'not_covered' as const } },
            [{ domain: 'market', code: 'not_covered', message: 'property sales are not published in Alsace-Moselle (57, 67, 68) and Mayotte (976)' }]);
        }
        if (!deps.warehouse.has('fr', 'sales')) {
          return envelope(request, deps.clock, { status: 'unavailable' as const, sales: [], pagination, missing: { sales: 'unavailable' as const } },
            [{ domain: 'market', code: 'data_unavailable', message: 'property sales (DVF) are not ingested on this service yet' }]);
        }
        const radius = query.radius ?? SALES_RADIUS_M;
        const type = query.property_type ?? null;
        const { stats, items: rows } = await salesAround(deps.warehouse, location.latitude, location.longitude, radius, type, null, { limit: size, offset: (p - 1) * size });
        const total = stats.reduce((n, s) => n + s.count, 0);
        const sales = rows.map((r) => saleItem(r, parcelIdOf(location.parcel), locale));
        return envelope(request, deps.clock, { status: 'ok' as const, sales, pagination: { ...pagination, total }, missing: total === 0 ? { sales: 'not_found' as const } : {} });
      },
    },
  ];
}

export const BeMarketResponse = envelopeSchema(z.object({ market: BeMarket }));

/**
 * GET /api/v1/be/market (spec 4.4): the municipality's median sale prices; property_type and
 * radius are accepted as the spec lists them (radius for the permits, property_type has no effect:
 * both types are always served).
 */
export function beMarketRoute(deps: LocationRouteDeps): AnyRoute {
  return {
    method: 'GET', url: '/api/v1/be/market', tags: ['be'], summary: 'Property market at a position or an address',
    description: "data.market (spec 2.9, Belgium): Statbel's median sale price of the point's municipality over the year, apartments and houses; planning permits (Flanders) not ingested yet.",
    query: z.strictObject(marketShape), response: BeMarketResponse, errors: [...ERRORS],
    policy: { auth: true, country: 'be', domain: 'market', units: 1 },
    handler: async ({ request, query }) => {
      const locale = localeOf(request, query.locale);
      const { location, warnings } = await locate(deps, 'be', placeInput(query), locale);
      const { value, warnings: w } = await beMarketResolver(deps, { country: 'be', location, locale, fields: [] });
      return envelope(request, deps.clock, { market: value }, [...warnings, ...w]);
    },
  };
}
