import { BE_FLOOD_LAYER, brusselsFloodSource } from '../../../../datasets/be/brussels-flood/source.ts';
import { BE_SOIL_LAYER, brusselsSoilSource } from '../../../../datasets/be/brussels-soil/source.ts';
import { BRUSSELS_REGION_CODE } from '../../../../datasets/be/profile.ts';
import type { Warning } from '../../../../schemas/domain.ts';
import type { BeRisks } from '../../../../schemas/risks.ts';
import { areasAt } from '../../kinds/areas.ts';
import { pointsAround } from '../../kinds/points.ts';
import type { Resolver } from '../types.ts';
import { SITES_RADIUS_M } from './ca.ts';
import { byLevelDesc } from './hazards.ts';
import { mappedHazardsAt, summaryOf, type MappedHazard } from './mapped.ts';

/** Belgium's mapped hazards (spec 2.5: BE flood in the Brussels-Capital Region). */
export const BE_MAPPED: readonly MappedHazard[] = [{ type: 'flood', layer: BE_FLOOD_LAYER, source: brusselsFloodSource.id }];
const TYPES = ['contaminated_land', 'suspected_land'] as const;
const category = (t: (typeof TYPES)[number]) => `polluted_site.${t}`;
const ITEMS = 10;
type Site = { type: (typeof TYPES)[number]; status: 'suspected' | 'confirmed' | 'under_treatment' };

/**
 * data.risks in Belgium (spec 2.10): the Brussels-Capital Region only; elsewhere not_covered (the
 * Flemish and Walloon maps are not sources of this service). Flood hazard of the map's zone
 * containing the point; the inventory's parcels containing the point (inside, to be reported to
 * a buyer) and around it (counts and nearest, distance to the parcel's centre).
 */
export const beRisks: Resolver = async (deps, ctx) => {
  const region = ctx.location.zones.administrative_area_level1;
  if (region?.code !== BRUSSELS_REGION_CODE) {
    return {
      value: { status: 'not_covered', missing: {} },
      warnings: [{ domain: 'risks', code: 'not_covered', message: 'risks are served in the Brussels-Capital Region only (Bruxelles Environnement\'s flood map and soil-status inventory)' }],
    };
  }
  const m = await mappedHazardsAt(deps, ctx, 'be', BE_MAPPED);
  const hazards = m.hazards.sort(byLevelDesc);
  const warnings: Warning[] = [...m.warnings];
  const missing = { ...m.missing };
  let polluted: BeRisks['polluted_sites'] = null;
  if (deps.warehouse.has('be', 'polluted_sites')) {
    const { latitude: lat, longitude: lng } = ctx.location;
    const answer = await pointsAround(deps.warehouse, 'be', 'polluted_sites', { lat, lng, radiusM: ctx.radius ?? SITES_RADIUS_M, categories: TYPES.map(category), limit: ITEMS, offset: 0 });
    // A parcel is a building-scale fact: not said for a position known only to the street or the commune.
    const imprecise = ctx.location.precision === 'street' || ctx.location.precision === 'locality';
    const parcels = imprecise ? [] : (await areasAt(deps.warehouse, 'be', 'hazard_areas', lng, lat)).filter((a) => a.layer === BE_SOIL_LAYER);
    polluted = {
      inside: parcels.map((p) => { const a = p.attributes as Site; return { type: a.type, status: a.status }; }),
      counts: { contaminated_land: answer.counts[category('contaminated_land')] ?? 0, suspected_land: answer.counts[category('suspected_land')] ?? 0 },
      items: answer.items.map((h) => { const a = h.attributes as Site; return { type: a.type, status: a.status, distance_m: Math.round(h.distance_m) }; }),
    };
    if (imprecise) missing['polluted_sites.inside'] = 'insufficient_precision';
  } else {
    missing.polluted_sites = 'unavailable';
    warnings.push({ domain: 'risks', code: 'data_unavailable', message: `polluted_sites: its source (${brusselsSoilSource.id}) is not ingested on this service` });
  }
  const down = m.unavailable + (polluted === null ? 1 : 0);
  const value: BeRisks = {
    status: down === BE_MAPPED.length + 1 ? 'unavailable' : down > 0 ? 'partial' : 'ok',
    hazards,
    not_assessed: m.notAssessed,
    summary: summaryOf(hazards, m.assessed, m.notAssessed),
    polluted_sites: polluted,
    missing,
  };
  return { value, warnings };
};
