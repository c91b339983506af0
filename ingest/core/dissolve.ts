import { featureCollection, polygon, multiPolygon, union } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';

/**
 * The union of outlines ([lng, lat], WGS84): a wider zone built from the zones it is made of
 * (communes -> arrondissement...), when the producer publishes only the finest level. Shared
 * edges come from the same published vertices, so they cancel out exactly.
 */
export function dissolve(parts: (Polygon | MultiPolygon)[]): Polygon | MultiPolygon {
  if (parts.length === 1) return parts[0]!;
  const features = parts.map((g): Feature<Polygon | MultiPolygon> => (g.type === 'Polygon' ? polygon(g.coordinates) : multiPolygon(g.coordinates)));
  const merged = union(featureCollection(features));
  if (!merged) throw new Error('the union of the parts is empty');
  return merged.geometry;
}
