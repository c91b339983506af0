import { PROTECTED_AREAS_TABLE, PROTECTED_AREA_TYPES } from '../../../../datasets/fr/protected-areas/source.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { areasAt } from '../../kinds/areas.ts';
import { buildingPoint } from './place.ts';

/** How a protected area reads in heritage.protected_area: category, published type and name ("AC1 Périmètre des abords: Cirque d'Hiver"). */
export const protectedAreaLabel = (a: { category: string; typeass: string; name: string }) => `${a.category} ${a.typeass}: ${a.name}`;

/**
 * heritage.protected_area of a building (spec 2.7): the heritage easements of fr/protected_areas
 * (fr.protected-areas: AC1 monuments and abords, AC4 sites patrimoniaux remarquables) containing
 * the building's point, each as its label, the monument first, then the site, then abords
 * (by name within each), joined by "; "; null when none contains it. `ingested` false when the
 * table is not served here (the field is then unavailable, not not_found).
 */
export async function protectedAreaOf(warehouse: Warehouse, buildingId: string): Promise<{ ingested: boolean; value: string | null }> {
  if (!warehouse.has('fr', PROTECTED_AREAS_TABLE) || !warehouse.has('fr', 'buildings')) return { ingested: false, value: null };
  const point = await buildingPoint(warehouse, buildingId);
  if (!point) return { ingested: true, value: null };
  const { longitude: lng, latitude: lat } = point;
  const rank = (layer: string) => PROTECTED_AREA_TYPES.findIndex((t) => t.layer === layer);
  const hits = (await areasAt(warehouse, 'fr', PROTECTED_AREAS_TABLE, lng, lat))
    .filter((h) => rank(h.layer) >= 0 && h.attributes)
    .map((h) => ({ rank: rank(h.layer), label: protectedAreaLabel(h.attributes as { category: string; typeass: string; name: string }) }))
    .sort((a, b) => a.rank - b.rank || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const labels = [...new Set(hits.map((h) => h.label))];
  return { ingested: true, value: labels.length > 0 ? labels.join('; ') : null };
}
