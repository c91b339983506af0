import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Measure } from '../../../../schemas/measure.ts';
import type { FrResidents } from '../../../../schemas/residents.ts';
import type { Zone, ZoneLevel } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, updatedOnOf, valuesOfZones } from '../../kinds/zone-values.ts';
import type { Locale } from '../../../../schemas/common.ts';
import type { LocationRouteDeps, Resolved, Resolver, ZoneResolver } from '../types.ts';
import { definitionOf } from './fields.ts';

/** Zones a French figure may describe, finest first (spec 2.5: the finest zone with a reliable value). */
const LEVELS: ZoneLevel[] = ['sublocality_level2', 'sublocality_level1', 'locality', 'administrative_area_level2', 'administrative_area_level1'];
const INCOME = { median_disposable_per_unit: 'income.median_disposable_per_unit', poverty_rate: 'income.poverty_rate' } as const;
/** Census fields, whose source (fr.census) is not ingested yet. */
const PENDING = ['households.count', 'housing.dwellings', 'housing.houses_share', 'housing.owners_share', 'housing.social_housing_share'] as const;
const TABLE = 'zone_values';

/**
 * data.residents in France over the given zones, finest first: incomes at the finest zone with a
 * reliable value. A zone route passes its one zone, so a zone never gets a wider zone's value.
 */
async function residentsOver(deps: LocationRouteDeps, zones: Zone[], locale: Locale): Promise<Resolved> {
  const missing: Missing = Object.fromEntries(PENDING.map((f) => [f, 'unavailable']));
  const warnings: Warning[] = [{ domain: 'residents', code: 'data_unavailable', message: `${PENDING.join(', ')} are null: the census (fr.census) is not ingested yet` }];
  const value: FrResidents = {
    status: 'partial',
    income: { median_disposable_per_unit: null, poverty_rate: null },
    households: { count: null },
    housing: { dwellings: null, houses_share: null, owners_share: null, social_housing_share: null },
    missing,
  };
  if (!deps.warehouse.has('fr', TABLE)) {
    for (const f of Object.values(INCOME)) missing[f] = 'unavailable';
    warnings.push({ domain: 'residents', code: 'data_unavailable', message: 'incomes (fr.filosofi) are not ingested on this service yet' });
    return { value: { ...value, status: 'unavailable' }, warnings };
  }
  const rows = await valuesOfZones(deps.warehouse, 'fr', TABLE, zones, Object.values(INCOME));
  const manifest = await deps.manifests.get('fr');
  const now = deps.clock.now();
  for (const [field, indicator] of Object.entries(INCOME) as [keyof typeof INCOME, string][]) {
    const served = finestValue(rows, zones, indicator);
    if (!served.value) { missing[indicator] = served.reason; continue; }
    const zone = zones.find((z) => z.level === served.value.level && z.code === served.value.code)!;
    const updated = updatedOnOf(served.value, manifest, TABLE) ?? now.toISOString().slice(0, 10);
    value.income[field] = measureOf(served.value, zone, definitionOf(`residents.${indicator}`, locale), updated, now) satisfies Measure;
  }
  return { value, warnings };
}

/** The report's residents in France: over the zones of the point. */
export const frResidentsResolver: Resolver = (deps, ctx) =>
  residentsOver(deps, LEVELS.map((l) => ctx.location.zones[l]).filter((z): z is Zone => z !== null), ctx.locale);

/** A zone's own residents figures (zone route). */
export const frZoneResidentsResolver: ZoneResolver = (deps, ctx) => residentsOver(deps, [ctx.zone], ctx.locale);
