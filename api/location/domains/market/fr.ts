import { dvfSource } from '../../../../datasets/fr/dvf/source.ts';
import { labelOf, type Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import { SALE_TYPES, type FrMarket, type NearbySale } from '../../../../schemas/market.ts';
import type { Measure, Series } from '../../../../schemas/measure.ts';
import { reliabilityOf } from '../../../../schemas/tables/market-indicators.ts';
import type { Zone, Zones } from '../../../../schemas/zone.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Manifests } from '../../../core/manifests.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import type { Resolver } from '../types.ts';
import { definitionOf, NOT_COVERED_DEPARTMENTS } from './fields.ts';
import { isStale, publicationDateUnknown, updatedOn } from './freshness.ts';
import { finestReliable, indicatorWindow, MARKET_LEVELS, zoneIndicators, type IndicatorRow } from './indicators.ts';
import { salesAround, type NearbySaleRow } from './sales-nearby.ts';
import { rentEstimate, type RentProperty } from './fr-rents.ts';
import { reportProperty, rentSurfaceOf } from '../property/fr.ts';
import type { Location } from '../../../../schemas/location.ts';
import { regulationAt } from './fr-regulation.ts';

export interface MarketDeps { warehouse: Warehouse; manifests: Manifests; clock: Clock }
export interface MarketQuery {
  lat: number; lng: number; zones: Zones; parcelId: string | null;
  radius: number; propertyType: 'apartment' | 'house' | undefined; locale: Locale;
  /** The report's property (property_id, else the place's default) for the monthly rent, or why there is none. */
  property: RentProperty;
}

/** Default radius of the sales list (spec 8 leaves it to each domain). */
export const SALES_RADIUS_M = 500;
/** Sales kept in a report's list; the market sales route serves them all, paginated. */
export const REPORT_ITEMS = 10;
const PENDING = ['gross_yield', 'permits_nearby'] as const;
const PENDING_WARNING: Warning = { domain: 'market', code: 'data_unavailable', message: `${PENDING.join(', ')} are null: the gross yield is not computed yet, and planning permits are not ingested yet` };

function empty(status: FrMarket['status'], reason: 'not_covered' | 'unavailable'): FrMarket {
  const missing: Missing = Object.fromEntries(['sales_nearby', 'price_trend', 'rent_estimate', 'regulation', ...PENDING].map((f) => [f, reason]));
  return { status, sales_nearby: null, price_trend: null, rent_estimate: null, gross_yield: null, regulation: null, permits_nearby: null, missing };
}

/** Department of the point, from its zones (or its commune code when departments are not ingested). */
export function departmentOf(zones: Zones): string | null {
  if (zones.administrative_area_level2) return zones.administrative_area_level2.code;
  const commune = zones.locality?.code ?? zones.sublocality_level1?.code;
  if (!commune) return null;
  return commune.startsWith('97') ? commune.slice(0, 3) : commune.slice(0, 2);
}

/** Is the place where DVF publishes no sale (Alsace-Moselle, Mayotte)? */
export function notCovered(zones: Zones): boolean {
  const d = departmentOf(zones);
  return d !== null && NOT_COVERED_DEPARTMENTS.includes(d);
}

/** The French parcel id of data.location.parcel, if any. */
export function parcelIdOf(parcel: { id: string } | { lots: string[] } | null): string | null {
  return parcel && 'id' in parcel ? parcel.id : null;
}

export function saleItem(r: NearbySaleRow, parcelId: string | null, locale: Locale): NearbySale {
  return {
    date: r.date, address: r.address, type: r.property_type, type_label: labelOf(SALE_TYPES, r.property_type, locale),
    surface: r.surface, rooms: r.rooms,
    price: r.price === null ? null : { value: r.price, unit: 'EUR' },
    price_per_m2: r.price_per_m2 === null ? null : { value: Math.round(r.price_per_m2), unit: 'EUR/m2' },
    distance_m: Math.round(r.distance_m),
    same_parcel: parcelId !== null && r.parcels.includes(parcelId),
  };
}

const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** France data.market (spec 2.9) at a point: sales around, the finest reliable median, the price trend. */
export async function frMarket(deps: MarketDeps, q: MarketQuery): Promise<{ market: FrMarket; warnings: Warning[] }> {
  const { warehouse } = deps;
  // Only the sales are unpublished there (spec 2.5); the other parts answer as elsewhere in France.
  const regulation = await regulationAt(deps, q.zones, q.locale);
  if (notCovered(q.zones)) {
    const rent = await rentEstimate(deps, q.zones, q.propertyType ?? 'apartment', q.locale, q.property);
    const missing: Missing = { sales_nearby: 'not_covered', price_trend: 'not_covered', ...rent.missing, ...regulation.missing, ...Object.fromEntries(PENDING.map((f) => [f, 'unavailable'])) };
    return {
      market: { ...empty('partial', 'unavailable'), rent_estimate: rent.value, regulation: regulation.value, missing },
      warnings: [
        { domain: 'market', code: 'not_covered', message: 'property sales are not published in Alsace-Moselle (57, 67, 68) and Mayotte (976): sales_nearby and price_trend are null' },
        ...rent.warnings, ...regulation.warnings, PENDING_WARNING,
      ],
    };
  }
  if (!warehouse.has('fr', 'sales') || !warehouse.has('fr', 'market_indicators')) {
    const rent = await rentEstimate(deps, q.zones, q.propertyType ?? 'apartment', q.locale, q.property);
    const sales: Warning = { domain: 'market', code: 'data_unavailable', message: 'property sales (DVF) are not ingested on this service yet' };
    if (!rent.value && !regulation.value) return { market: empty('unavailable', 'unavailable'), warnings: [sales] };
    const missing: Missing = { sales_nearby: 'unavailable', price_trend: 'unavailable', ...rent.missing, ...regulation.missing, ...Object.fromEntries(PENDING.map((f) => [f, 'unavailable'])) };
    return { market: { ...empty('partial', 'unavailable'), rent_estimate: rent.value, regulation: regulation.value, missing }, warnings: [sales, ...rent.warnings, ...regulation.warnings, PENDING_WARNING] };
  }
  const manifest = await deps.manifests.get('fr');
  const freshness = updatedOn(manifest, 'market_indicators');
  const updated = freshness?.date ?? deps.clock.now().toISOString().slice(0, 10);
  const stale = isStale(updated, dvfSource.update_frequency, deps.clock.now());
  const window = await indicatorWindow(warehouse);
  const zones = MARKET_LEVELS.map((l) => q.zones[l]).filter((z): z is Zone => z !== null);
  const [{ stats, items }, rows] = await Promise.all([
    salesAround(warehouse, q.lat, q.lng, q.radius, q.propertyType ?? null, window, { limit: REPORT_ITEMS, offset: 0 }),
    zoneIndicators(warehouse, zones.map((z) => ({ level: z.level as IndicatorRow['level'], code: z.code }))),
  ]);
  const type = q.propertyType ?? dominantType(stats, rows, zones);
  const missing: Missing = {};

  // Median per m²: around the point first, then the zones finest first; the finest reliable one wins.
  const around = stats.find((s) => s.property_type === type);
  const measure = (value: number, q1: number, q3: number, n: number, zone: Zone, period: { start: string; end: string }): Measure => ({
    value: Math.round(value), unit: 'EUR/m2', period, zone, sample_size: n, reliability: reliabilityOf(n)!,
    range: { low: Math.round(q1), high: Math.round(q3) }, definition: definitionOf('market.sales_nearby.median_price_per_m2', q.locale), updated_on: updated, stale,
  });
  const candidates: { reliability: ReturnType<typeof reliabilityOf>; build: () => Measure }[] = [];
  if (around && window && around.median !== null) {
    candidates.push({ reliability: reliabilityOf(around.priced), build: () => measure(around.median!, around.q1!, around.q3!, around.priced, { level: 'radius', code: String(q.radius), name: null }, window) });
  }
  for (const z of zones) {
    const r = rows.find((x) => x.level === z.level && x.code === z.code && x.property_type === type && x.period === '24m');
    if (r) candidates.push({ reliability: r.reliability, build: () => measure(r.median, r.q1, r.q3, r.sample_size, z, { start: r.period_start, end: r.period_end }) });
  }
  const chosen = finestReliable(candidates);
  if (!chosen) missing['sales_nearby.median_price_per_m2'] = 'insufficient_sample';

  const trend = priceTrend(rows, zones, type, q.locale);
  if (!trend) missing.price_trend = 'insufficient_sample';
  for (const f of PENDING) missing[f] = 'unavailable';
  const rent = await rentEstimate(deps, q.zones, type, q.locale, q.property);
  Object.assign(missing, rent.missing, regulation.missing);

  const count = q.propertyType ? (around?.count ?? 0) : stats.reduce((n, s) => n + s.count, 0);
  const undated = !freshness?.published && chosen ? [publicationDateUnknown('market', ['sales_nearby.median_price_per_m2'], dvfSource.id)] : [];
  return {
    market: {
      status: 'partial',
      sales_nearby: { count, median_price_per_m2: chosen?.build() ?? null, items: items.map((r) => saleItem(r, q.parcelId, q.locale)) },
      price_trend: trend, rent_estimate: rent.value, gross_yield: null, regulation: regulation.value, permits_nearby: null, missing,
    },
    warnings: [...undated, ...rent.warnings, ...regulation.warnings, PENDING_WARNING],
  };
}

/** Without property_type: the type most sold around the point, else in the finest zone that has sales. */
function dominantType(stats: { property_type: string; priced: number }[], rows: IndicatorRow[], zones: Zone[]): 'apartment' | 'house' {
  const count = (t: string) => stats.find((s) => s.property_type === t)?.priced ?? 0;
  if (count('apartment') + count('house') > 0) return count('house') > count('apartment') ? 'house' : 'apartment';
  for (const z of zones) {
    const n = (t: string) => rows.find((r) => r.level === z.level && r.code === z.code && r.property_type === t && r.period === '24m')?.sample_size ?? 0;
    if (n('apartment') + n('house') > 0) return n('house') > n('apartment') ? 'house' : 'apartment';
  }
  return 'apartment';
}

/** Yearly series of the finest zone whose 24-month median is reliable and which has two published years or more. */
function priceTrend(rows: IndicatorRow[], zones: Zone[], type: string, _locale: Locale): Series | null {
  const candidates = zones.map((z) => {
    const points = rows.filter((r) => r.level === z.level && r.code === z.code && r.property_type === type && r.period === 'year' && r.reliability !== null);
    const window = rows.find((r) => r.level === z.level && r.code === z.code && r.property_type === type && r.period === '24m');
    return { zone: z, points, reliability: points.length >= 2 ? window?.reliability ?? null : null };
  });
  const chosen = finestReliable(candidates);
  if (!chosen) return null;
  const last = chosen.points.at(-1)!;
  return {
    unit: 'EUR/m2', zone: chosen.zone,
    points: chosen.points.map((p) => ({ period: { start: p.period_start, end: p.period_end }, value: Math.round(p.median), sample_size: p.sample_size })),
    changes: { '1y': round1(last.change_1y), '5y': round1(last.change_5y), since_start: round1(last.change_since_start) },
  };
}

/** The property of the place (property_id, else the default of data.property) with the surface its monthly rent uses. */
export async function rentPropertyOf(deps: MarketDeps, ctx: { location: Location; propertyType?: 'apartment' | 'house'; propertyId?: string }): Promise<RentProperty> {
  const chosen = await reportProperty(deps, ctx);
  if (!chosen.property) return { id: null, reason: chosen.reason };
  return { id: chosen.property.id, type: chosen.property.type, surface: await rentSurfaceOf(deps.warehouse, chosen.property) };
}

/** The report's market in France (api/location/domains/index.ts). */
export const frMarketResolver: Resolver = async (deps, ctx) => {
  const { market, warnings } = await frMarket(deps, {
    lat: ctx.location.latitude, lng: ctx.location.longitude, zones: ctx.location.zones, parcelId: parcelIdOf(ctx.location.parcel),
    radius: ctx.radius ?? SALES_RADIUS_M, propertyType: ctx.propertyType, locale: ctx.locale, property: await rentPropertyOf(deps, ctx),
  });
  return { value: market, warnings };
};
