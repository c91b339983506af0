import { CA_COASTAL_EROSION_LAYER, coastalErosionSource } from '../../../../datasets/ca/coastal-erosion/source.ts';
import { CA_CONTAMINATED_CATEGORY, contaminatedLandSource } from '../../../../datasets/ca/contaminated-land/source.ts';
import { CA_FLOOD_LAYER, floodZonesSource } from '../../../../datasets/ca/flood-zones/source.ts';
import { CA_LANDSLIDE_LAYER, landslideSource } from '../../../../datasets/ca/landslide/source.ts';
import type { Warning } from '../../../../schemas/domain.ts';
import type { CaRisks, CaSiteStatus } from '../../../../schemas/risks.ts';
import { pointsAround } from '../../kinds/points.ts';
import type { Resolver } from '../types.ts';
import { byLevelDesc } from './hazards.ts';
import { mappedHazardsAt, summaryOf, type MappedHazard } from './mapped.ts';

/** Quebec's mapped hazards (spec 2.5: CA flood, landslide, coastal erosion in mapped sectors). */
export const CA_MAPPED: readonly MappedHazard[] = [
  { type: 'flood', layer: CA_FLOOD_LAYER, source: floodZonesSource.id },
  { type: 'landslide', layer: CA_LANDSLIDE_LAYER, source: landslideSource.id },
  { type: 'coastal_erosion', layer: CA_COASTAL_EROSION_LAYER, source: coastalErosionSource.id },
];
const SITES = 'polluted_sites';
/** Spec 8: default radius of polluted sites. */
export const SITES_RADIUS_M = 500;
/** Nearest sites served (spec 8 leaves the number to the service; as France). */
const ITEMS = 10;

/** data.risks in Quebec (spec 2.10). */
export const caRisks: Resolver = async (deps, ctx) => {
  const m = await mappedHazardsAt(deps, ctx, 'ca', CA_MAPPED);
  const hazards = m.hazards.sort(byLevelDesc);
  const warnings: Warning[] = [...m.warnings];
  const missing = { ...m.missing };
  let polluted: CaRisks['polluted_sites'] = null;
  if (deps.warehouse.has('ca', SITES)) {
    const answer = await pointsAround(deps.warehouse, 'ca', SITES, {
      lat: ctx.location.latitude, lng: ctx.location.longitude, radiusM: ctx.radius ?? SITES_RADIUS_M, categories: [CA_CONTAMINATED_CATEGORY], limit: ITEMS, offset: 0,
    });
    polluted = {
      inside: null,
      counts: { contaminated_land: answer.counts[CA_CONTAMINATED_CATEGORY] ?? 0 },
      items: answer.items.map((h) => {
        const a = (h.attributes ?? {}) as { address?: string | null; status?: CaSiteStatus; updated_on?: string | null };
        return { type: 'contaminated_land' as const, status: a.status ?? 'unknown', name: h.name, address: a.address ?? null, distance_m: Math.round(h.distance_m), updated_on: a.updated_on ?? null };
      }),
    };
    // The Répertoire publishes a point per site, not the parcel: whether the point lies on one is not known.
    missing['polluted_sites.inside'] = 'not_covered';
  } else {
    missing.polluted_sites = 'unavailable';
    warnings.push({ domain: 'risks', code: 'data_unavailable', message: `polluted_sites: its source (${contaminatedLandSource.id}) is not ingested on this service` });
  }
  const parts = CA_MAPPED.length + 1;
  const down = m.unavailable + (polluted === null ? 1 : 0);
  const value: CaRisks = {
    status: down === parts ? 'unavailable' : down > 0 ? 'partial' : 'ok',
    hazards,
    not_assessed: m.notAssessed,
    summary: summaryOf(hazards, m.assessed, m.notAssessed),
    polluted_sites: polluted,
    missing,
  };
  return { value, warnings };
};
