import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { CaMarket } from '../../../../schemas/market.ts';
import type { Measure } from '../../../../schemas/measure.ts';
import type { Zone } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, UpdatedOnDates, valuesOfZones } from '../../kinds/zone-values.ts';
import type { LocationRouteDeps, Resolved, Resolver, ZoneResolver } from '../types.ts';
import { definitionOf } from './fields.ts';

const TABLE = 'zone_values';
const ROOMS = ['studio', 'one_bedroom', 'two_bedrooms', 'three_bedrooms_plus'] as const;
/**
 * Fields whose sources are not ingested: registered sales, permits; the tax estimate needs the
 * property's roll value (the roll's values are not ingested).
 */
const PENDING = ['registered_sales', 'gross_yield', 'property_tax.estimate', 'permits_nearby'] as const;
const FACTOR = 'assessment.market_factor';
const TAX_RATE = 'tax.residential_rate';
/** MAMH's profil financier (ca.financial-profile): the standardized average values of the municipality. */
const AVERAGES = [
  { field: 'average_single_family', indicator: 'assessment.average_single_family' },
  { field: 'average_per_dwelling', indicator: 'assessment.average_per_dwelling' },
] as const;
const AVERAGE_WHY: Record<string, string> = {
  unavailable: "MAMH's profil financier (ca.financial-profile) is not ingested on this service",
  not_found: "MAMH's profil financier publishes no value for the municipality",
};

/**
 * Quebec's market over the given zones (the point's rental-survey neighbourhood; a zone route's
 * own zone): CMHC's average rents by bedroom type and the vacancy rate. A zone never gets another
 * zone's value.
 */
async function caMarketOver(deps: LocationRouteDeps, zones: Zone[], locale: Locale, outsideSurvey: 'not_covered' | 'not_applicable'): Promise<Resolved> {
  const missing: Missing = Object.fromEntries(PENDING.map((f) => [f, 'unavailable']));
  const warnings: Warning[] = [
    { domain: 'market', code: 'data_unavailable', message: "property_tax.estimate is null: it needs the property's roll value (Quebec's roll values are not ingested)" },
    { domain: 'market', code: 'data_unavailable', message: 'registered_sales, gross_yield, permits_nearby are null: registered sales and permits are not ingested yet, and the gross yield is not computed' },
  ];
  const value: CaMarket = {
    status: 'partial', registered_sales: null, assessed_values: null, average_rent: null, gross_yield: null,
    property_tax: { rates: { residential: null }, estimate: null }, rental_vacancy: null, permits_nearby: null, missing,
  };
  const surveyZones = zones.filter((z) => z.level === 'rental_survey_area');
  const municipality = zones.find((z) => z.level === 'locality') ?? null;
  if (!deps.warehouse.has('ca', TABLE)) {
    missing.average_rent = 'unavailable'; missing.rental_vacancy = 'unavailable'; missing['assessed_values.market_factor'] = 'unavailable'; missing['property_tax.rates.residential'] = 'unavailable';
    for (const a of AVERAGES) missing[`assessed_values.${a.field}`] = 'unavailable';
    warnings.push({ domain: 'market', code: 'data_unavailable', message: "CMHC's Rental Market Survey (ca.cmhc) is not ingested on this service yet" });
    return { value: { ...value, status: 'unavailable' }, warnings };
  }
  const manifest = await deps.manifests.get('ca');
  const now = deps.clock.now();
  const dates = new UpdatedOnDates(manifest, TABLE, now);
  // The roll's comparative factor, the standardized average values and the residential tax rate of the municipality (MAMH, ca.assessment).
  const municipalRows = municipality ? await valuesOfZones(deps.warehouse, 'ca', TABLE, [municipality], [FACTOR, TAX_RATE, ...AVERAGES.map((a) => a.indicator)]) : [];
  const factor = municipality ? finestValue(municipalRows, [municipality], FACTOR) : null;
  const rate = municipality ? finestValue(municipalRows, [municipality], TAX_RATE) : null;
  const ingested = (source: string) => manifest.partitions.some((p) => p.table === TABLE && p.sources.some((x) => x.id === source));
  const assessmentIngested = ingested('ca.assessment');
  value.assessed_values = {
    average_single_family: null, average_per_dwelling: null,
    market_factor: factor?.value ? measureOf(factor.value, municipality!, definitionOf('market.assessed_values', locale), dates.of(factor.value, 'assessed_values.market_factor'), now) : null,
  };
  if (!value.assessed_values.market_factor) {
    missing['assessed_values.market_factor'] = !assessmentIngested ? 'unavailable' : !municipality ? outsideSurvey : factor!.reason!;
  }
  const profileIngested = ingested('ca.financial-profile');
  const unserved: { field: string; reason: string }[] = [];
  for (const a of AVERAGES) {
    const served = municipality ? finestValue(municipalRows, [municipality], a.indicator) : null;
    if (served?.value) {
      value.assessed_values[a.field] = measureOf(served.value, municipality!, definitionOf(`market.assessed_values.${a.field}`, locale), dates.of(served.value, `assessed_values.${a.field}`), now);
      continue;
    }
    const reason = !profileIngested ? 'unavailable' : !municipality ? outsideSurvey : served!.reason!;
    missing[`assessed_values.${a.field}`] = reason;
    if (AVERAGE_WHY[reason]) unserved.push({ field: `assessed_values.${a.field}`, reason });
  }
  if (unserved.length > 0) {
    const why = [...new Set(unserved.map((u) => AVERAGE_WHY[u.reason]))].join('; ');
    warnings.push({ domain: 'market', code: 'data_unavailable', message: `${unserved.map((u) => u.field).join(', ')} ${unserved.length > 1 ? 'are' : 'is'} null: ${why}` });
  }
  value.property_tax.rates.residential = rate?.value ? measureOf(rate.value, municipality!, definitionOf('market.property_tax', locale), dates.of(rate.value, 'property_tax.rates.residential'), now) : null;
  if (!value.property_tax.rates.residential) {
    missing['property_tax.rates.residential'] = !ingested('ca.tax-rates') ? 'unavailable' : !municipality ? outsideSurvey : rate!.reason!;
  }
  if (surveyZones.length === 0) {
    missing.average_rent = outsideSurvey; missing.rental_vacancy = outsideSurvey;
    return { value, warnings: [...warnings, ...dates.warnings('market')] };
  }
  const rows = await valuesOfZones(deps.warehouse, 'ca', TABLE, surveyZones, ['rent.average', 'rental.vacancy_rate']);
  const measure = (indicator: string, breakdown: string | null, field: string): Measure | null => {
    const served = finestValue(rows, surveyZones, indicator, breakdown);
    if (!served.value) { missing[field] = served.reason; return null; }
    const zone = surveyZones.find((z) => z.code === served.value.code)!;
    return measureOf(served.value, zone, definitionOf(`market.${field.split('.')[0]}`, locale), dates.of(served.value, field), now);
  };
  const rent = Object.fromEntries(ROOMS.map((r) => [r, measure('rent.average', r, `average_rent.${r}`)])) as NonNullable<CaMarket['average_rent']>;
  value.average_rent = rent;
  value.rental_vacancy = measure('rental.vacancy_rate', null, 'rental_vacancy');
  return { value, warnings: [...warnings, ...dates.warnings('market')] };
}

/** A point outside every surveyed neighbourhood: the survey publishes nothing there. */
export const caMarketResolver: Resolver = (deps, ctx) =>
  caMarketOver(deps, [ctx.location.zones.rental_survey_area, ctx.location.zones.locality].filter((z): z is Zone => z !== null), ctx.locale, 'not_covered');
/** A zone of another level: the survey's figures have no meaning there (they are published by neighbourhood). */
export const caZoneMarketResolver: ZoneResolver = (deps, ctx) => caMarketOver(deps, [ctx.zone], ctx.locale, 'not_applicable');
