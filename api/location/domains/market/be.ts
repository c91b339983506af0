import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { BeMarket } from '../../../../schemas/market.ts';
import type { Zone } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, UpdatedOnDates, valuesOfZones } from '../../kinds/zone-values.ts';
import type { LocationRouteDeps, Resolved, Resolver, ZoneResolver } from '../types.ts';
import { definitionOf } from './fields.ts';

const TABLE = 'zone_values';
const INDICATOR = 'price.sale_median';
const SOURCES = ['be.statbel-prices', 'be.statbel-prices-sectors'];
/** REFNIS code of the Flemish Region, the only one whose planning permits the spec serves. */
const FLANDERS = '02000';

/**
 * Belgium's market over the point's statistical sector and municipality, finest first (or a zone
 * route's own zone): Statbel's median sale price of the year per type, at the finest zone with a
 * reliable value. A zone of another level publishes none (not_applicable): a zone never receives
 * a wider zone's value.
 */
async function beMarketOver(deps: LocationRouteDeps, zones: Zone[], region: string | null | 'zone', locale: Locale, otherLevel: boolean): Promise<Resolved> {
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const value: BeMarket = { status: 'ok', sale_price_median: null, permits_nearby: null, missing };
  // Permits are published by Flanders only (spec 2.9); its permit register is not ingested here.
  if (region === FLANDERS) {
    missing.permits_nearby = 'unavailable';
    warnings.push({ domain: 'market', code: 'data_unavailable', message: "permits_nearby is null: Flanders' planning permits (Omgevingsloket) are not ingested yet" });
    value.status = 'partial';
  } else missing.permits_nearby = region === 'zone' ? 'not_applicable' : 'not_covered';
  const manifest = await deps.manifests.get('be');
  const ingested = manifest.partitions.some((p) => p.table === TABLE && p.sources.some((s) => SOURCES.includes(s.id)));
  if (!ingested || !deps.warehouse.has('be', TABLE)) {
    missing.sale_price_median = 'unavailable';
    warnings.push({ domain: 'market', code: 'data_unavailable', message: "sale_price_median is null: Statbel's real-estate sales (be.statbel-prices) are not ingested on this service yet" });
    return { value: { ...value, status: 'unavailable' }, warnings };
  }
  if (zones.length === 0) {
    missing.sale_price_median = otherLevel ? 'not_applicable' : 'not_found';
    return { value, warnings };
  }
  const rows = await valuesOfZones(deps.warehouse, 'be', TABLE, zones, [INDICATOR]);
  const now = deps.clock.now();
  const dates = new UpdatedOnDates(manifest, TABLE, now);
  const measure = (type: 'apartment' | 'house') => {
    const served = finestValue(rows, zones, INDICATOR, type);
    if (!served.value) { missing[`sale_price_median.${type}`] = served.reason; return null; }
    const zone = zones.find((z) => z.level === served.value.level && z.code === served.value.code)!;
    return measureOf(served.value, zone, definitionOf('market.sale_price_median', locale), dates.of(served.value, `sale_price_median.${type}`), now);
  };
  value.sale_price_median = { apartment: measure('apartment'), house: measure('house') };
  warnings.push(...dates.warnings('market'));
  return { value, warnings };
}

/** Levels Statbel publishes prices for, finest first: the statistical sector, the municipality. */
const PRICE_LEVELS = ['sublocality_level2', 'locality'] as const;

export const beMarketResolver: Resolver = (deps, ctx) =>
  beMarketOver(deps, PRICE_LEVELS.map((l) => ctx.location.zones[l]).filter((z): z is Zone => z !== null), ctx.location.zones.administrative_area_level1?.code ?? null, ctx.locale, false);

/** A zone route: a sector's or a municipality's own figures, a zone of another level none; permits around a point mean nothing for a zone. */
export const beZoneMarketResolver: ZoneResolver = (deps, ctx) => {
  const priced = (PRICE_LEVELS as readonly string[]).includes(ctx.zone.level);
  return beMarketOver(deps, priced ? [ctx.zone] : [], 'zone', ctx.locale, !priced);
};
