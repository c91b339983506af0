import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrMarket } from '../../../../schemas/market.ts';
import type { Zone, ZoneLevel, Zones } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, updatedOnOf, valuesOfZones, type ZoneValue } from '../../kinds/zone-values.ts';
import type { MarketDeps } from './fr.ts';
import { definitionOf } from './fields.ts';

/** Zones the rent map publishes, finest first: the municipal arrondissement, else the commune. */
const RENT_LEVELS: ZoneLevel[] = ['sublocality_level1', 'locality'];
const TABLE = 'zone_values';
const INDICATOR = 'rent.per_m2';
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * rent_estimate of spec 2.9 from the rent map (fr.rents): the rent per m² of the property type at
 * the finest zone with a reliable value, its change over a year when the previous edition is
 * ingested. The monthly rent needs the property's surface, which the service does not hold yet.
 */
export async function rentEstimate(deps: MarketDeps, zonesOfPoint: Zones, type: 'apartment' | 'house', locale: Locale): Promise<{ value: FrMarket['rent_estimate']; missing: Missing; warnings: Warning[] }> {
  const zones = RENT_LEVELS.map((l) => zonesOfPoint[l]).filter((z): z is Zone => z !== null);
  const rows = deps.warehouse.has('fr', TABLE) ? await valuesOfZones(deps.warehouse, 'fr', TABLE, zones, [INDICATOR]) : [];
  const manifest = await deps.manifests.get('fr');
  if (rows.length === 0 && !manifest.partitions.some((p) => p.sources.some((s) => s.id === 'fr.rents'))) {
    return { value: null, missing: { rent_estimate: 'unavailable' }, warnings: [{ domain: 'market', code: 'data_unavailable', message: 'rent_estimate is null: the rent map (fr.rents) is not ingested yet' }] };
  }
  const served = finestValue(rows, zones, INDICATOR, type);
  if (!served.value) return { value: null, missing: { rent_estimate: served.reason }, warnings: [] };
  const chosen: ZoneValue = served.value;
  const zone = zones.find((z) => z.level === chosen.level && z.code === chosen.code)!;
  const now = deps.clock.now();
  const updated = updatedOnOf(chosen, manifest, TABLE, now);
  // The same zone and type one edition earlier.
  const previousEnd = chosen.period_end ? `${Number(chosen.period_end.slice(0, 4)) - 1}${chosen.period_end.slice(4)}` : null;
  const previous = rows.find((r) => r.level === chosen.level && r.code === chosen.code && r.breakdown === type && r.period_end === previousEnd && r.value !== null);
  const missing: Missing = { 'rent_estimate.monthly': 'unavailable' };
  if (!previous) missing['rent_estimate.change_1y'] = 'not_found';
  return {
    value: {
      monthly: null,
      per_m2: measureOf(chosen, zone, definitionOf('market.rent_estimate', locale), updated, now),
      change_1y: previous ? round1((chosen.value! / previous.value! - 1) * 100) : null,
    },
    missing,
    warnings: [{ domain: 'market', code: 'data_unavailable', message: "rent_estimate.monthly is null: the property's surface is not known to the service yet" }],
  };
}
