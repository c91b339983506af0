import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrMarket, MonthlyRent } from '../../../../schemas/market.ts';
import type { Zone, ZoneLevel, Zones } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, UpdatedOnDates, valuesOfZones, type ZoneValue } from '../../kinds/zone-values.ts';
import type { MarketDeps } from './fr.ts';
import { definitionOf } from './fields.ts';

/** Zones the rent map publishes, finest first: the municipal arrondissement, else the commune. */
const RENT_LEVELS: ZoneLevel[] = ['sublocality_level1', 'locality'];
const TABLE = 'zone_values';
const INDICATOR = 'rent.per_m2';
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The property whose monthly rent is asked (the report's property) with the surface a rent per m² applies to, or why there is none. */
export type RentProperty =
  | { id: string; type: 'apartment' | 'house'; surface: { value: number; basis: MonthlyRent['surface_basis'] } | null }
  | { id: null; reason: 'insufficient_precision' | 'unavailable' | 'not_found' };

const NO_MONTHLY: Record<string, string> = {
  insufficient_precision: 'rent_estimate.monthly is null: the position is too imprecise to know the property',
  unavailable: 'rent_estimate.monthly is null: properties are not built on this service (fr.properties)',
  not_found: 'rent_estimate.monthly is null: no property is known at this place',
  no_surface: "rent_estimate.monthly is null: the property's surface is not known (no diagnosis or sale gives it)",
};

/**
 * rent_estimate of spec 2.9 from the rent map (fr.rents): the rent per m² of the property type at
 * the finest zone with a reliable value, its change over a year when the previous edition is
 * ingested, and the monthly rent of the report's property when its surface is known (the rent per
 * m² and its range times the surface); otherwise monthly is null with the reason.
 */
export async function rentEstimate(deps: MarketDeps, zonesOfPoint: Zones, type: 'apartment' | 'house', locale: Locale, property: RentProperty): Promise<{ value: FrMarket['rent_estimate']; missing: Missing; warnings: Warning[] }> {
  const zones = RENT_LEVELS.map((l) => zonesOfPoint[l]).filter((z): z is Zone => z !== null);
  const rows = deps.warehouse.has('fr', TABLE) ? await valuesOfZones(deps.warehouse, 'fr', TABLE, zones, [INDICATOR]) : [];
  const manifest = await deps.manifests.get('fr');
  if (rows.length === 0 && !manifest.partitions.some((p) => p.sources.some((s) => s.id === 'fr.rents'))) {
    return { value: null, missing: { rent_estimate: 'unavailable' }, warnings: [{ domain: 'market', code: 'data_unavailable', message: 'rent_estimate is null: the rent map (fr.rents) is not ingested yet' }] };
  }
  // The property's own type when the report knows the property: its rent per m² is the one its surface multiplies.
  const rentType = property.id !== null ? property.type : type;
  const served = finestValue(rows, zones, INDICATOR, rentType);
  if (!served.value) return { value: null, missing: { rent_estimate: served.reason }, warnings: [] };
  const chosen: ZoneValue = served.value;
  const zone = zones.find((z) => z.level === chosen.level && z.code === chosen.code)!;
  const now = deps.clock.now();
  const dates = new UpdatedOnDates(manifest, TABLE, now);
  const updated = dates.of(chosen, 'rent_estimate.per_m2');
  // The same zone and type one edition earlier.
  const previousEnd = chosen.period_end ? `${Number(chosen.period_end.slice(0, 4)) - 1}${chosen.period_end.slice(4)}` : null;
  const previous = rows.find((r) => r.level === chosen.level && r.code === chosen.code && r.breakdown === rentType && r.period_end === previousEnd && r.value !== null);
  const missing: Missing = {};
  const warnings: Warning[] = [];
  let monthly: MonthlyRent | null = null;
  if (property.id !== null && property.surface) {
    const s = property.surface.value;
    monthly = {
      value: Math.round(chosen.value! * s), unit: 'EUR/month',
      range: chosen.range_low !== null && chosen.range_high !== null ? { low: Math.round(chosen.range_low * s), high: Math.round(chosen.range_high * s) } : null,
      property_id: property.id, surface_m2: s, surface_basis: property.surface.basis, definition: definitionOf('market.rent_estimate.monthly', locale),
    };
  } else if (property.id !== null) {
    missing['rent_estimate.monthly'] = 'not_found';
    warnings.push({ domain: 'market', code: 'not_found', message: NO_MONTHLY.no_surface! });
  } else {
    missing['rent_estimate.monthly'] = property.reason;
    warnings.push({ domain: 'market', code: property.reason === 'unavailable' ? 'data_unavailable' : property.reason, message: NO_MONTHLY[property.reason]! });
  }
  if (!previous) missing['rent_estimate.change_1y'] = 'not_found';
  warnings.push(...dates.warnings('market'));
  return {
    value: {
      monthly,
      per_m2: measureOf(chosen, zone, definitionOf('market.rent_estimate', locale), updated, now),
      change_1y: previous ? round1((chosen.value! / previous.value! - 1) * 100) : null,
    },
    missing,
    warnings,
  };
}
