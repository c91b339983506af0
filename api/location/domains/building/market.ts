import { dvfSource } from '../../../../datasets/fr/dvf/source.ts';
import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrBuilding } from '../../../../schemas/building.ts';
import { reliabilityOf } from '../../../../schemas/tables/market-indicators.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Manifests } from '../../../core/manifests.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { isStale, publicationDateUnknown, updatedOn } from '../market/freshness.ts';
import { indicatorWindow, irisMedian24m, percentDifference } from '../market/indicators.ts';
import { quantileCont } from '../market/sales-index.ts';
import type { BuildingSaleRow } from './reads.ts';
import { buildingDefinition } from './fields.ts';
import type { BuildingPlace } from './place.ts';

export interface BuildingMarket {
  value: Pick<FrBuilding, 'median_price_per_m2_24m' | 'vs_sublocality_level2'>;
  missing: Missing;
  warnings: Warning[];
}

/** The priced sales of the window: market sales of one dwelling (apartment or house) with a price per m², as the market's medians count them. */
export function salesInWindow<T extends Pick<BuildingSaleRow, 'date' | 'property_type' | 'price_per_m2'>>(sales: readonly T[], window: { start: string; end: string }): T[] {
  return sales.filter((s) => s.price_per_m2 !== null && s.property_type !== 'other' && s.date >= window.start && s.date <= window.end);
}

/**
 * median_price_per_m2_24m and vs_sublocality_level2 of a building (spec 2.7) from its sales
 * (building.sales[], attached by parcel). The window is the market's 24 months (indicatorWindow:
 * the 24 months ending at the end of the month of the latest published sale), the sales counted
 * the ones its medians count (sales[] rows with a price per m², apartments and houses); quartiles
 * as DuckDB's quantile_cont. zone is null: the value describes the building, not a zone (as
 * electricity_per_meter). Reliability from the sample as the market's medians (5, 10, 30 sales);
 * under 5 the value is still served, reliability low: they are the building's own sales, each
 * listed in sales[] with its price, and a building rarely sells five dwellings in two years.
 * vs_sublocality_level2: percent difference of that median to the published 24-month median of
 * the building's IRIS for the type most of those sales are (apartment on a tie, as the market
 * domain chooses its type), the same reference as the property's (irisMedian24m).
 */
export async function buildingMarket(deps: { warehouse: Warehouse; manifests: Manifests; clock: Clock }, sales: readonly BuildingSaleRow[], place: BuildingPlace | null, locale: Locale): Promise<BuildingMarket> {
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const value: BuildingMarket['value'] = { median_price_per_m2_24m: null, vs_sublocality_level2: null };
  const window = deps.warehouse.has('fr', 'sales') ? await indicatorWindow(deps.warehouse) : null;
  if (!window) {
    missing.median_price_per_m2_24m = 'unavailable';
    missing.vs_sublocality_level2 = 'unavailable';
    warnings.push({ domain: 'building', code: 'data_unavailable', message: 'median_price_per_m2_24m, vs_sublocality_level2: property sales and their indicators (fr.dvf) are not ingested on this service' });
    return { value, missing, warnings };
  }
  const priced = salesInWindow(sales, window);
  if (priced.length === 0) {
    // No sale of the building with a price per m² in the window: nothing to compare either.
    missing.median_price_per_m2_24m = 'not_found';
    missing.vs_sublocality_level2 = 'not_found';
    return { value, missing, warnings };
  }
  const v = Float64Array.from(priced, (s) => s.price_per_m2!);
  const [median, q1, q3] = [quantileCont(v, 0.5), quantileCont(v, 0.25), quantileCont(v, 0.75)];
  const manifest = await deps.manifests.get('fr');
  const freshness = updatedOn(manifest, 'sales');
  const updated = freshness?.date ?? deps.clock.now().toISOString().slice(0, 10);
  if (!freshness?.published) warnings.push(publicationDateUnknown('building', ['median_price_per_m2_24m'], dvfSource.id));
  value.median_price_per_m2_24m = {
    value: Math.round(median), unit: 'EUR/m2', period: window, zone: null, sample_size: priced.length, reliability: reliabilityOf(priced.length) ?? 'low',
    range: { low: Math.round(q1), high: Math.round(q3) }, definition: buildingDefinition('building.median_price_per_m2_24m', locale),
    updated_on: updated, stale: isStale(updated, dvfSource.update_frequency, deps.clock.now()),
  };
  const houses = priced.filter((s) => s.property_type === 'house').length;
  const type = houses > priced.length - houses ? 'house' : 'apartment';
  const iris = place?.zones.sublocality_level2 ?? null;
  if (!iris) {
    const ingested = place === null || place.levels.has('sublocality_level2');
    missing.vs_sublocality_level2 = ingested ? 'not_found' : 'unavailable';
    if (!ingested) warnings.push({ domain: 'building', code: 'data_unavailable', message: 'vs_sublocality_level2: IRIS boundaries are not ingested on this service' });
    return { value, missing, warnings };
  }
  const reference = await irisMedian24m(deps.warehouse, iris.code, type);
  if (reference === null) missing.vs_sublocality_level2 = 'insufficient_sample';
  else value.vs_sublocality_level2 = percentDifference(median, reference);
  return { value, missing, warnings };
}
