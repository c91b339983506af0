import { RADON_INDICATOR } from '../../../../datasets/fr/radon/source.ts';
import { SEISMIC_INDICATOR } from '../../../../datasets/fr/seismic/source.ts';
import { GASPAR_INDICATOR } from '../../../../datasets/fr/gaspar/source.ts';
import { GASPAR_RISKS } from '../../../../datasets/fr/gaspar/nomenclature.ts';
import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Location } from '../../../../schemas/location.ts';
import type { Hazard, HazardLevel, HazardType } from '../../../../schemas/hazard.ts';
import type { FrLocalityRisks, FrRisks } from '../../../../schemas/risks.ts';
import type { z } from 'zod';
import type { Zone, ZoneLevel } from '../../../../schemas/zone.ts';
import { CLAY_LAYER } from '../../../../datasets/fr/clay/source.ts';
import { BRUSH_CLEARING_LAYER, brushClearingSource } from '../../../../datasets/fr/brush-clearing/source.ts';
import { areaAttributeValues, areasAt } from '../../kinds/areas.ts';
import { pointsAround } from '../../kinds/points.ts';
import { POLLUTED_SITE_TYPES, pollutedSitesAt } from './polluted-sites.ts';
import { finestValue, UpdatedOnDates, zoneValueIndicators, zoneValuesByZone, type ZoneValue } from '../../kinds/zone-values.ts';
import type { Resolver } from '../types.ts';
import { byLevelDesc, hazardEntry, hazardOf, isNotable } from './hazards.ts';
import { servedLayers } from './mapped.ts';

const TABLE = 'zone_values';
/** The hazard indicators of zone_values copied in memory at each refresh (index.ts): what requests read. */
export const HAZARD_VALUES = 'zone_values_hazards';
const AREAS = 'hazard_areas';
const CLAY_LEVELS: readonly HazardLevel[] = ['low', 'moderate', 'high'];

/** Zones of the point a commune class may describe, finest first: arrondissement (radon), then commune (spec 2.4). */
const COMMUNE_LEVELS: ZoneLevel[] = ['sublocality_level1', 'locality'];

/**
 * Hazards published by commune, as zone values: the producer's class -> the common level (the
 * mapping is documented in the catalogue's level definitions, hazards.ts). Scope locality: the
 * risk is known in the commune, not located at the point (spec 2.5).
 */
const COMMUNE_HAZARDS: { type: HazardType; indicator: string; levels: Record<number, HazardLevel> }[] = [
  { type: 'radon', indicator: RADON_INDICATOR, levels: { 1: 'very_low', 2: 'low', 3: 'moderate' } },
  { type: 'seismic', indicator: SEISMIC_INDICATOR, levels: { 1: 'very_low', 2: 'low', 3: 'moderate', 4: 'high', 5: 'very_high' } },
];

/** Parts of France's risks whose source is not ingested yet: null or absent with reason unavailable, named in meta.warnings. */
const PENDING: { path: string; source: string }[] = [];

/** Where hazards are looked for: a position, its precision, its zones and its building (a located place, or a building's own point). */
export type HazardPlace = Pick<Location, 'precision' | 'latitude' | 'longitude' | 'building_id' | 'zones'>;

/** What frHazardsAt finds: the hazards (unsorted), the types assessed and not, each absent type's reason, a warning per source not served here. */
export interface FoundHazards { hazards: Hazard[]; assessed: HazardType[]; notAssessed: HazardType[]; missing: Missing; warnings: Warning[]; unavailable: number; sources: number }

/**
 * France's hazards at a place (spec 2.5): the radon and seismic classes of its commune (scope
 * locality) and the clay exposure at its point (scope building when its building is known, else
 * point). data.risks.hazards and data.building.risks (building/risks.ts) are both this; `prefix`
 * is the path their absence reasons and warnings are named under (hazards.<type>, risks.<type>).
 */
export async function frHazardsAt(deps: Pick<Parameters<Resolver>[0], 'warehouse'>, place: HazardPlace, locale: Locale, prefix = 'hazards'): Promise<FoundHazards> {
  const zones = COMMUNE_LEVELS.map((l) => place.zones[l]).filter((z): z is Zone => z !== null);
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const hazards: Hazard[] = [];
  const assessed: HazardType[] = [];
  const notAssessed: HazardType[] = [];
  const ingested = deps.warehouse.has('fr', HAZARD_VALUES);
  const rows = await communeRows(deps, zones, ingested);
  let unavailable = 0;
  for (const h of COMMUNE_HAZARDS) {
    const chosen = finestValue(rows, zones, h.indicator);
    const level = chosen.value ? h.levels[chosen.value.value!] : undefined;
    if (level) {
      hazards.push(hazardOf(h.type, level, 'locality', locale));
      assessed.push(h.type);
    } else if (!ingested || !(await hasIndicator(deps, h.indicator))) {
      // The source is not served here: a momentary absence, not an assessment.
      missing[`${prefix}.${h.type}`] = 'unavailable';
      unavailable++;
      warnings.push({ domain: 'risks', code: 'data_unavailable', message: `${prefix}.${h.type}: its source is not ingested on this service` });
    } else {
      // Published for the country but not for this commune: nothing to say at this point.
      notAssessed.push(h.type);
      missing[`${prefix}.${h.type}`] = zones.length === 0 ? 'not_covered' : 'not_found';
    }
  }
  const clay = await clayAt(deps, place, locale);
  if ('hazard' in clay) { hazards.push(clay.hazard); assessed.push('clay_shrink_swell'); } else {
    missing[`${prefix}.clay_shrink_swell`] = clay.reason;
    if (clay.reason === 'not_assessed') notAssessed.push('clay_shrink_swell');
    if (clay.reason === 'unavailable') { unavailable++; warnings.push({ domain: 'risks', code: 'data_unavailable', message: `${prefix}.clay_shrink_swell: its source (fr.clay) is not ingested on this service` }); }
  }
  return { hazards, assessed, notAssessed, missing, warnings, unavailable, sources: COMMUNE_HAZARDS.length + 1 };
}

/** The hazard values (commune classes, GASPAR) of the zones, from the in-process copy of the table (a lookup, not a query). */
async function communeRows(deps: Pick<Parameters<Resolver>[0], 'warehouse'>, zones: Zone[], ingested: boolean): Promise<ZoneValue[]> {
  const byZone = ingested ? await zoneValuesByZone(deps.warehouse, 'fr', HAZARD_VALUES) : new Map<string, ZoneValue[]>();
  const wanted = new Set([...COMMUNE_HAZARDS.map((h) => h.indicator), GASPAR_INDICATOR]);
  return zones.flatMap((z) => byZone.get(`${z.level}|${z.code}`) ?? []).filter((r) => wanted.has(r.indicator));
}

/** data.risks in France (spec 2.10) at the commune of the point. */
export const frRisks: Resolver = async (deps, ctx) => {
  const zones = COMMUNE_LEVELS.map((l) => ctx.location.zones[l]).filter((z): z is Zone => z !== null);
  const found = await frHazardsAt(deps, ctx.location, ctx.locale);
  const missing: Missing = {};
  const warnings: Warning[] = PENDING.map((p) => ({ domain: 'risks', code: 'data_unavailable', message: `${p.path}: not ingested yet (${p.source})` }));
  for (const p of PENDING) missing[p.path] = 'unavailable';
  Object.assign(missing, found.missing);
  warnings.push(...found.warnings);
  const { hazards, assessed, notAssessed } = found;
  const ingested = deps.warehouse.has('fr', HAZARD_VALUES);
  const rows = await communeRows(deps, zones, ingested);
  for (const e of ['flood', 'landslide', 'coastal_erosion', 'wildfire'] as const) if (hazardEntry(e).notAssessedIn.includes('fr')) notAssessed.push(e);
  hazards.sort(byLevelDesc);
  const value: FrRisks = {
    status: found.unavailable === found.sources ? 'unavailable' : 'partial',
    hazards,
    not_assessed: notAssessed,
    summary: { highest_level: hazards[0]?.level ?? null, notable: hazards.filter((h) => isNotable(h.level)).map((h) => h.type), assessed, not_assessed: notAssessed },
    obligations: null,
    polluted_sites: null,
    locality: null,
    missing,
  };
  const locality = await localityAt(deps, ctx, zones, rows.filter((r) => r.indicator === GASPAR_INDICATOR), ingested);
  if ('reason' in locality) {
    missing.locality = locality.reason;
    if (locality.reason === 'unavailable') warnings.push({ domain: 'risks', code: 'data_unavailable', message: 'locality: its source (fr.gaspar, job fr.risk-communes) is not ingested on this service' });
  } else {
    value.locality = locality.value;
    warnings.push(...locality.warnings);
    if (locality.value.known_risks === null) missing['locality.known_risks'] = 'not_found';
  }
  const brush = await brushClearingAt(deps, ctx);
  if (typeof brush === 'boolean') value.obligations = { brush_clearing: brush }; else {
    missing.obligations = brush.reason;
    if (brush.reason === 'unavailable') warnings.push({ domain: 'risks', code: 'data_unavailable', message: `obligations: its source (${brushClearingSource.id}, job fr.risk-communes) is not ingested on this service` });
  }
  const sites = await pollutedSitesAt(deps, ctx, pointsAround);
  if ('sites' in sites) {
    value.polluted_sites = sites.sites;
    Object.assign(missing, sites.missing);
    warnings.push(...sites.warnings);
  } else {
    missing.polluted_sites = 'unavailable';
    warnings.push({ domain: 'risks', code: 'data_unavailable', message: `polluted_sites: not ingested yet (${POLLUTED_SITE_TYPES.join(', ')}: fr.polluted-sites)` });
  }
  // ok only when nothing of the domain is momentarily missing (spec 2.5: partial names it in warnings).
  if (value.status !== 'unavailable') value.status = Object.values(missing).includes('unavailable') ? 'partial' : 'ok';
  return { value, warnings };
};

/**
 * GASPAR's risks of the point's commune (spec 2.10, the information of the commune): the finest
 * zone the file lists (an arrondissement, else the commune). A commune absent from a served file
 * keeps its zone with known_risks null (not_found): the file says nothing of it.
 */
async function localityAt(deps: Parameters<Resolver>[0], ctx: Parameters<Resolver>[1], zones: Zone[], rows: ZoneValue[], ingested: boolean):
  Promise<{ value: z.infer<typeof FrLocalityRisks>; warnings: Warning[] } | { reason: 'unavailable' | 'not_covered' }> {
  if (!ingested || (rows.length === 0 && !(await hasIndicator(deps, GASPAR_INDICATOR)))) return { reason: 'unavailable' };
  const commune = ctx.location.zones.locality;
  const zone = zones.find((z) => rows.some((r) => r.level === z.level && r.code === z.code)) ?? commune;
  if (!zone) return { reason: 'not_covered' };
  const own = rows.filter((r) => r.level === zone.level && r.code === zone.code && r.value !== null && r.breakdown !== null);
  if (own.length === 0) return { value: { zone, known_risks: null, updated_on: null }, warnings: [] };
  // Codes as text: each family (11) before its kinds (112, 113), then the next family (12); AUTRE last.
  const known = own.map((r) => r.breakdown!).filter((c) => Object.hasOwn(GASPAR_RISKS, c)).sort();
  const dates = new UpdatedOnDates(await deps.manifests.get('fr'), TABLE, deps.clock.now());
  const updatedOn = own.map((r) => dates.of(r, 'locality')).sort().at(-1)!;
  return {
    value: {
      zone,
      known_risks: known.map((code) => ({ code, label: GASPAR_RISKS[code]![ctx.locale === 'en' ? 'en' : 'fr'], type: GASPAR_RISKS[code]!.type })),
      updated_on: updatedOn,
    },
    warnings: dates.warnings('risks'),
  };
}

/** Whether the table holds the indicator anywhere (a commune absent from a served source is not an outage). */
async function hasIndicator(deps: Pick<Parameters<Resolver>[0], 'warehouse'>, indicator: string): Promise<boolean> {
  return (await zoneValueIndicators(deps.warehouse, 'fr', HAZARD_VALUES)).has(indicator);
}

/**
 * Clay shrink-swell at the point (BRGM exposure polygons, the highest containing it): scope
 * building when the building is known, else point; never for a position known only to the street
 * or the commune (spec 2.6: it would describe another place). Outside every polygon the type is
 * not assessed: absence of zone is not absence of risk (spec 2.5). Where a departmental file of
 * BRGM is ingested (fr.clay --department), it replaces the national layer in that department.
 */
async function clayAt(deps: Pick<Parameters<Resolver>[0], 'warehouse'>, place: HazardPlace, locale: Locale): Promise<{ hazard: Hazard } | { reason: 'unavailable' | 'insufficient_precision' | 'not_assessed' }> {
  // The areas table holds other layers (SIS): clay is unavailable unless its own layer is there.
  if (!deps.warehouse.has('fr', AREAS) || !(await servedLayers(deps, 'fr')).has(CLAY_LAYER)) return { reason: 'unavailable' };
  const { precision, latitude, longitude, building_id: building } = place;
  if (precision === 'street' || precision === 'locality') return { reason: 'insufficient_precision' };
  // A department with its own BRGM file is served from it alone; elsewhere the national layer.
  const department = place.zones.administrative_area_level2?.code ?? null;
  const own = department !== null && (await areaAttributeValues(deps.warehouse, 'fr', AREAS, CLAY_LAYER, 'department')).has(department);
  const hits = (await areasAt(deps.warehouse, 'fr', AREAS, longitude, latitude))
    .filter((a) => a.layer === CLAY_LAYER && (own ? a.attributes?.department === department : a.attributes?.department === undefined));
  const levels = hits.map((h) => h.attributes?.level as HazardLevel).filter((l) => CLAY_LEVELS.includes(l));
  if (levels.length === 0) return { reason: 'not_assessed' };
  const level = CLAY_LEVELS.filter((l) => levels.includes(l)).at(-1)!;
  return { hazard: hazardOf('clay_shrink_swell', level, building ? 'building' : 'point', locale) };
}

/**
 * The legal brush-clearing obligation at the point (spec 2.10 obligations.brush_clearing): true
 * inside a zone of the national informative zoning, false outside it; not said for a position
 * known only to the street or the commune (the zones cut through communes).
 */
async function brushClearingAt(deps: Parameters<Resolver>[0], ctx: Parameters<Resolver>[1]): Promise<boolean | { reason: 'unavailable' | 'insufficient_precision' }> {
  if (!deps.warehouse.has('fr', AREAS) || !(await servedLayers(deps, 'fr')).has(BRUSH_CLEARING_LAYER)) return { reason: 'unavailable' };
  const { precision, latitude, longitude } = ctx.location;
  if (precision === 'street' || precision === 'locality') return { reason: 'insufficient_precision' };
  return (await areasAt(deps.warehouse, 'fr', AREAS, longitude, latitude)).some((a) => a.layer === BRUSH_CLEARING_LAYER);
}
