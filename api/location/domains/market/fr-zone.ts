import { dvfSource } from '../../../../datasets/fr/dvf/source.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrZoneMarket } from '../../../../schemas/market.ts';
import type { Measure, Series } from '../../../../schemas/measure.ts';
import type { Zone, ZoneLevel } from '../../../../schemas/zone.ts';
import type { ZoneResolver } from '../types.ts';
import { definitionOf, NOT_COVERED_DEPARTMENTS } from './fields.ts';
import { isStale, publicationDateUnknown, updatedOn } from './freshness.ts';
import { MARKET_LEVELS, zoneIndicators, type IndicatorRow } from './indicators.ts';
import { regulationOfZone } from './fr-regulation.ts';

const TYPES = ['apartment', 'house'] as const;
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** The department a French zone lies in, from its code (communes and IRIS start with it). */
function departmentOfZone(zone: Zone): string | null {
  if (zone.level === 'administrative_area_level2') return zone.code;
  if (zone.level === 'locality' || zone.level === 'sublocality_level1' || zone.level === 'sublocality_level2') return zone.code.startsWith('97') ? zone.code.slice(0, 3) : zone.code.slice(0, 2);
  return null;
}

function series(rows: IndicatorRow[], zone: Zone): Series | null {
  const points = rows.filter((r) => r.reliability !== null);
  if (points.length === 0) return null;
  const last = points.at(-1)!;
  return {
    unit: 'EUR/m2', zone,
    points: points.map((p) => ({ period: { start: p.period_start, end: p.period_end }, value: Math.round(p.median), sample_size: p.sample_size })),
    changes: { '1y': round1(last.change_1y), '5y': round1(last.change_5y), since_start: round1(last.change_since_start) },
  };
}

/** France's market of one zone: the values computed for that zone only (market_indicators), never a wider zone's. */
export const frZoneMarketResolver: ZoneResolver = async (deps, { zone, locale }) => {
  const regulation = await regulationOfZone(deps, zone, locale);
  const empty = (status: FrZoneMarket['status'], reason: 'not_covered' | 'unavailable' | 'not_applicable'): FrZoneMarket => ({
    status, median_price_per_m2: { apartment: null, house: null }, yearly: { apartment: null, house: null }, quarterly: { apartment: null, house: null },
    regulation: regulation.value,
    missing: { ...Object.fromEntries(['median_price_per_m2', 'yearly', 'quarterly'].map((f) => [f, reason])), ...regulation.missing },
  });
  const department = departmentOfZone(zone);
  if (department !== null && NOT_COVERED_DEPARTMENTS.includes(department)) {
    return { value: empty('not_covered', 'not_covered'), warnings: [{ domain: 'market', code: 'not_covered', message: 'property sales are not published in Alsace-Moselle (57, 67, 68) and Mayotte (976)' }] };
  }
  if (!MARKET_LEVELS.includes(zone.level as ZoneLevel)) {
    return { value: empty('not_covered', 'not_applicable'), warnings: [{ domain: 'market', code: 'not_covered', message: `market indicators are computed for regions, departments, communes, arrondissements and IRIS, not for level ${zone.level}` }] };
  }
  if (!deps.warehouse.has('fr', 'market_indicators')) {
    return { value: empty('unavailable', 'unavailable'), warnings: [{ domain: 'market', code: 'data_unavailable', message: 'property sales (DVF) are not ingested on this service yet' }] };
  }
  const target = [{ level: zone.level as ZoneLevel, code: zone.code }];
  const [rows, quarters] = await Promise.all([
    zoneIndicators(deps.warehouse, target),
    deps.warehouse.query<IndicatorRow>(
      `SELECT level, code, property_type, period, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end,
         sample_size, median, q1, q3, reliability, change_1y, change_5y, change_since_start
       FROM fr_market_indicators WHERE period = 'quarter' AND level = $1 AND code = $2 ORDER BY period_start`, [zone.level, zone.code]),
  ]);
  const manifest = await deps.manifests.get('fr');
  const now = deps.clock.now();
  const freshness = updatedOn(manifest, 'market_indicators');
  const updated = freshness?.date ?? now.toISOString().slice(0, 10);
  const stale = isStale(updated, dvfSource.update_frequency, now);
  const value = empty('ok', 'unavailable');
  const missing: Missing = {};
  for (const type of TYPES) {
    const w = rows.find((r) => r.property_type === type && r.period === '24m');
    if (w && w.reliability !== null) {
      value.median_price_per_m2[type] = {
        value: Math.round(w.median), unit: 'EUR/m2', period: { start: w.period_start, end: w.period_end }, zone, sample_size: w.sample_size, reliability: w.reliability,
        range: { low: Math.round(w.q1), high: Math.round(w.q3) }, definition: definitionOf('market.sales_nearby.median_price_per_m2', locale), updated_on: updated, stale,
      } satisfies Measure;
    } else missing[`median_price_per_m2.${type}`] = w ? 'insufficient_sample' : 'not_found';
    value.yearly[type] = series(rows.filter((r) => r.property_type === type && r.period === 'year'), zone);
    if (!value.yearly[type]) missing[`yearly.${type}`] = 'insufficient_sample';
    value.quarterly[type] = series(quarters.filter((r) => r.property_type === type), zone);
    if (!value.quarterly[type]) missing[`quarterly.${type}`] = 'insufficient_sample';
  }
  value.missing = { ...missing, ...regulation.missing };
  const warnings: Warning[] = [...regulation.warnings];
  if (!freshness?.published && TYPES.some((t) => value.median_price_per_m2[t] !== null)) warnings.push(publicationDateUnknown('market', ['median_price_per_m2'], dvfSource.id));
  return { value, warnings };
};
