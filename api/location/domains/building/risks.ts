import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Hazard } from '../../../../schemas/hazard.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { frHazardsAt } from '../risks/fr.ts';
import { byLevelDesc } from '../risks/hazards.ts';
import type { BuildingPlace } from './place.ts';

/**
 * data.building.risks (spec 2.7, "hazards at the building"): the risks domain's hazards
 * (frHazardsAt) at the building's own point, its building known, highest first. So the clay
 * exposure is the one at the footprint, scope building; and the commune's radon and seismic
 * classes are kept, scope locality: they are the classes that bind the building (seismic
 * construction rules, the radon information owed to its buyers and tenants), a /buildings/{id}
 * answer has no data.risks beside it, and the scope says what each hazard is the exposure of
 * (spec 2.5), so an empty list never reads as "no risk" where the commune has one. GASPAR's
 * list of the commune (data.risks.locality) is not a Hazard and stays in data.risks.
 * Absent types keep the risks domain's reasons, under risks.<type> (not_assessed outside every
 * clay polygon: absence of zone is not absence of risk). No hazard source served: [] with
 * missing.risks unavailable.
 */
export async function buildingRisks(deps: { warehouse: Warehouse }, id: string, place: BuildingPlace | null, locale: Locale): Promise<{ value: Hazard[]; missing: Missing; warnings: Warning[] }> {
  if (!place) return { value: [], missing: { risks: 'not_found' }, warnings: [] };
  const found = await frHazardsAt(deps, { precision: 'building', latitude: place.latitude, longitude: place.longitude, building_id: id, zones: place.zones }, locale, 'risks');
  if (found.unavailable === found.sources) {
    return { value: [], missing: { risks: 'unavailable' }, warnings: [{ domain: 'building', code: 'data_unavailable', message: 'risks: no hazard source (fr.clay, fr.radon, fr.seismic) is ingested on this service' }] };
  }
  return { value: found.hazards.sort(byLevelDesc), missing: found.missing, warnings: found.warnings.map((w) => ({ ...w, domain: 'building' as const })) };
}
