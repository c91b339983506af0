import type { Country } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Hazard, HazardLevel, HazardType } from '../../../../schemas/hazard.ts';
import { areaLayers, areasAt } from '../../kinds/areas.ts';
import type { Resolver } from '../types.ts';
import { byLevelDesc, hazardOf, isNotable } from './hazards.ts';

type Deps = Parameters<Resolver>[0];
type Ctx = Parameters<Resolver>[1];

/** A hazard type mapped as sectors (a layer of <country>/hazard_areas) and the job publishing it. */
export interface MappedHazard { type: HazardType; layer: string; source: string }

const AREAS = 'hazard_areas';
/** Common scale from lowest to highest, present between moderate and high (hazards.ts). */
const ORDER: readonly HazardLevel[] = ['very_low', 'low', 'moderate', 'present', 'high', 'very_high'];

/** Layers of the table holding at least one area (a layer not ingested is an outage, not an assessment). */
export function servedLayers(deps: Pick<Deps, 'warehouse'>, country: Country): Promise<Set<string>> {
  return areaLayers(deps.warehouse, country, AREAS);
}

/**
 * Hazards of mapped sectors at the point (spec 2.5, scope point): per type, the highest level of
 * the sectors containing the point. Outside every sector the type is not assessed ("absence of
 * zone is not absence of risk"); for a position known only to the street or the locality it is
 * not served (insufficient_precision: the sector would be another place's); a layer not ingested
 * here is unavailable, named in warnings.
 */
export async function mappedHazardsAt(deps: Deps, ctx: Ctx, country: Country, mapped: readonly MappedHazard[]):
  Promise<{ hazards: Hazard[]; assessed: HazardType[]; notAssessed: HazardType[]; missing: Missing; warnings: Warning[]; unavailable: number }> {
  const out = { hazards: [] as Hazard[], assessed: [] as HazardType[], notAssessed: [] as HazardType[], missing: {} as Missing, warnings: [] as Warning[], unavailable: 0 };
  const layers = deps.warehouse.has(country, AREAS) ? await servedLayers(deps, country) : new Set<string>();
  const { precision, latitude, longitude } = ctx.location;
  const imprecise = precision === 'street' || precision === 'locality';
  const hits = layers.size > 0 && !imprecise ? await areasAt(deps.warehouse, country, AREAS, longitude, latitude) : [];
  for (const m of mapped) {
    const path = `hazards.${m.type}`;
    if (!layers.has(m.layer)) {
      out.missing[path] = 'unavailable';
      out.unavailable++;
      out.warnings.push({ domain: 'risks', code: 'data_unavailable', message: `${path}: its source (${m.source}) is not ingested on this service` });
      continue;
    }
    if (imprecise) { out.missing[path] = 'insufficient_precision'; continue; }
    const levels = hits.filter((h) => h.layer === m.layer).map((h) => h.attributes?.level as HazardLevel).filter((l) => ORDER.includes(l));
    if (levels.length === 0) { out.missing[path] = 'not_assessed'; out.notAssessed.push(m.type); continue; }
    const level = ORDER.filter((l) => levels.includes(l)).at(-1)!;
    out.hazards.push(hazardOf(m.type, level, 'point', ctx.locale));
    out.assessed.push(m.type);
  }
  return out;
}

/** summary of data.risks (spec 2.10) from hazards already sorted highest first. */
export function summaryOf(hazards: Hazard[], assessed: HazardType[], notAssessed: HazardType[]) {
  const sorted = [...hazards].sort(byLevelDesc);
  return { highest_level: sorted[0]?.level ?? null, notable: sorted.filter((h) => isNotable(h.level)).map((h) => h.type), assessed, not_assessed: notAssessed };
}
