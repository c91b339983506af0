/**
 * Lazily loaded, indexed country outlines from Natural Earth 1:10m
 * (`world-atlas/countries-10m.json`, TopoJSON, ISC-licensed package, public
 * domain data).
 *
 * The file is read and converted once, on first use, and kept in memory as a
 * flat list of polygons with bounding boxes so a lookup is: bbox prefilter ->
 * turf `booleanPointInPolygon` on the few candidates.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import { booleanPointInPolygon } from '@turf/turf';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import type { Topology, GeometryCollection } from 'topojson-specification';

export type BBox = [minLng: number, minLat: number, maxLng: number, maxLat: number];

export interface IndexedPolygon {
  /** ISO 3166-1 numeric id as in world-atlas ('250' France, '056' Belgium, '124' Canada) or a custom tag. */
  id: string;
  bbox: BBox;
  /** GeoJSON polygon (outer ring first, then holes). */
  polygon: Polygon;
}

export const ISO_NUMERIC = { fr: '250', be: '056', ca: '124' } as const;

/**
 * France in this project = metropolitan France (incl. Corsica and coastal
 * islands) + the five DROM. Natural Earth 10m (world-atlas 2.0.2) models exactly
 * that in feature 250 (Saint-Pierre-et-Miquelon, New Caledonia, French
 * Polynesia, Wallis-et-Futuna, Saint-Martin, Saint-Barthélemy and the TAAF are
 * separate features). We still keep only polygons whose bbox lies in one of these
 * windows, so a future world-atlas build that merges overseas collectivities
 * into France cannot silently extend coverage.
 */
export const FRANCE_ALLOWED_WINDOWS: Record<string, BBox> = {
  metropole: [-5.5, 41.0, 10.0, 51.5],
  guadeloupe: [-61.9, 15.8, -60.9, 16.6],
  martinique: [-61.3, 14.3, -60.7, 14.95],
  guyane: [-54.7, 2.0, -51.5, 6.0],
  reunion: [55.1, -21.5, 56.0, -20.7],
  mayotte: [44.9, -13.1, 45.4, -12.5],
};

function bboxOfRing(ring: Position[]): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of ring) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export function bboxInside(inner: BBox, outer: BBox): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

export function polygonsOf(geometry: Polygon | MultiPolygon): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

export function indexPolygon(id: string, rings: Position[][]): IndexedPolygon {
  return { id, bbox: bboxOfRing(rings[0]), polygon: { type: 'Polygon', coordinates: rings } };
}

interface WorldIndex {
  /** Every polygon of every country, used to tell a land border from a coast. */
  all: IndexedPolygon[];
  byCountry: Map<string, IndexedPolygon[]>;
}

let world: WorldIndex | null = null;

/** Loads and indexes countries-10m once (≈ 100 ms), then reuses it. */
export function worldIndex(): WorldIndex {
  if (world) return world;
  const require = createRequire(import.meta.url);
  const path = require.resolve('world-atlas/countries-10m.json');
  const topo = JSON.parse(readFileSync(path, 'utf8')) as Topology<{ countries: GeometryCollection }>;
  const fc = feature(topo, topo.objects.countries) as FeatureCollection<Polygon | MultiPolygon>;
  const all: IndexedPolygon[] = [];
  const byCountry = new Map<string, IndexedPolygon[]>();
  fc.features.forEach((f: Feature<Polygon | MultiPolygon>, i: number) => {
    if (!f.geometry) return;
    // A few disputed / minor features have no ISO id: give them a unique tag.
    const id = f.id == null ? `x${i}` : String(f.id);
    for (const rings of polygonsOf(f.geometry)) {
      const p = indexPolygon(id, rings);
      if (id === ISO_NUMERIC.fr && !Object.values(FRANCE_ALLOWED_WINDOWS).some((w) => bboxInside(p.bbox, w))) {
        continue;
      }
      all.push(p);
      const list = byCountry.get(id) ?? [];
      list.push(p);
      byCountry.set(id, list);
    }
  });
  world = { all, byCountry };
  return world;
}

export function bboxContains(b: BBox, lng: number, lat: number, marginDeg = 0): boolean {
  return lng >= b[0] - marginDeg && lng <= b[2] + marginDeg && lat >= b[1] - marginDeg && lat <= b[3] + marginDeg;
}

/** Strict point-in-polygon over an indexed set (bbox prefilter, then turf). */
export function insideAny(polys: readonly IndexedPolygon[], lng: number, lat: number, excludeId?: string): boolean {
  const pt: Position = [lng, lat];
  for (const p of polys) {
    if (p.id !== excludeId && bboxContains(p.bbox, lng, lat) && booleanPointInPolygon(pt, p.polygon)) return true;
  }
  return false;
}

const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LNG_EQUATOR = 111.32;

/**
 * Distance in km from a point to a segment, on a local equirectangular
 * projection centred on the point. Error well under 1 % at the 1-2 km scale we
 * use it for, and much cheaper than geodesic maths or turf's buffer.
 */
function pointSegmentKm(lng: number, lat: number, a: Position, b: Position, kx: number): number {
  const ax = (a[0] - lng) * kx;
  const ay = (a[1] - lat) * KM_PER_DEG_LAT;
  const bx = (b[0] - lng) * kx;
  const by = (b[1] - lat) * KM_PER_DEG_LAT;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : -(ax * dx + ay * dy) / len2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const px = ax + t * dx;
  const py = ay + t * dy;
  return Math.sqrt(px * px + py * py);
}

/** True when the point lies within `toleranceKm` of any ring of the candidate polygons. */
export function withinKmOfOutline(
  polys: readonly IndexedPolygon[],
  lng: number,
  lat: number,
  toleranceKm: number,
): boolean {
  const kx = KM_PER_DEG_LNG_EQUATOR * Math.cos((lat * Math.PI) / 180);
  // Bbox margin in degrees: generous (longitude degrees shrink with latitude).
  const marginDeg = toleranceKm / Math.max(kx, 1) + toleranceKm / KM_PER_DEG_LAT;
  for (const p of polys) {
    if (!bboxContains(p.bbox, lng, lat, marginDeg)) continue;
    for (const ring of p.polygon.coordinates) {
      for (let i = 1; i < ring.length; i++) {
        if (pointSegmentKm(lng, lat, ring[i - 1], ring[i], kx) <= toleranceKm) return true;
      }
    }
  }
  return false;
}
