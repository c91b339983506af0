import { booleanPointInPolygon, centroid } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { PROTECTED_AREAS_TABLE, PROTECTED_AREA_TYPES } from '../../../../datasets/fr/protected-areas/source.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { areasAt } from '../../kinds/areas.ts';

/**
 * A point inside a footprint on the horizontal line through `lat`: the middle of the widest
 * stretch of that line inside it (even-odd over every ring, holes included), or null when the
 * line misses it.
 */
function pointOnLine(footprint: Polygon | MultiPolygon, lat: number): [number, number] | null {
  const parts = footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
  let best: [number, number] | null = null, width = -1;
  for (const rings of parts) {
    const xs: number[] = [];
    for (const ring of rings) for (let i = 0; i + 1 < ring.length; i++) {
      const [x1, y1] = ring[i]!, [x2, y2] = ring[i + 1]!;
      // Half-open edges: a vertex on the line counts once.
      if ((y1! <= lat && lat < y2!) || (y2! <= lat && lat < y1!)) xs.push(x1! + ((lat - y1!) * (x2! - x1!)) / (y2! - y1!));
    }
    xs.sort((a, b) => a - b);
    for (let i = 0; i + 1 < xs.length; i += 2) if (xs[i + 1]! - xs[i]! > width) { width = xs[i + 1]! - xs[i]!; best = [(xs[i]! + xs[i + 1]!) / 2, lat]; }
  }
  return best;
}

/**
 * The point a building is placed in protected areas by: the centroid of its RNB footprint, or,
 * when the centroid falls outside it (an L- or U-shaped building), the middle of the widest
 * stretch of the footprint on the centroid's latitude (for a multipolygon missing that latitude,
 * its first part's point). A footprint straddling a perimeter is
 * attached by that point only.
 */
export function buildingPoint(footprint: Polygon | MultiPolygon): [number, number] {
  const c = centroid(footprint).geometry.coordinates as [number, number];
  if (booleanPointInPolygon(c, footprint, { ignoreBoundary: true })) return c;
  const onLine = pointOnLine(footprint, c[1]);
  if (onLine) return onLine;
  // Parts apart from the centroid's latitude: the first part's own point.
  if (footprint.type === 'MultiPolygon') return buildingPoint({ type: 'Polygon', coordinates: footprint.coordinates[0]! });
  return footprint.coordinates[0]![0]! as [number, number];
}

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
  const row = (await warehouse.query<{ geometry: string }>(`SELECT geometry FROM fr_buildings WHERE id = $1 LIMIT 1`, [buildingId]))[0];
  if (!row) return { ingested: true, value: null };
  const [lng, lat] = buildingPoint(JSON.parse(row.geometry) as Polygon | MultiPolygon);
  const rank = (layer: string) => PROTECTED_AREA_TYPES.findIndex((t) => t.layer === layer);
  const hits = (await areasAt(warehouse, 'fr', PROTECTED_AREAS_TABLE, lng, lat))
    .filter((h) => rank(h.layer) >= 0 && h.attributes)
    .map((h) => ({ rank: rank(h.layer), label: protectedAreaLabel(h.attributes as { category: string; typeass: string; name: string }) }))
    .sort((a, b) => a.rank - b.rank || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const labels = [...new Set(hits.map((h) => h.label))];
  return { ingested: true, value: labels.length > 0 ? labels.join('; ') : null };
}
