import { compactCells, getHexagonEdgeLengthAvg, gridDisk, latLngToCell, polygonToCells, UNITS } from 'h3-js';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { ZONE_COVER_RES } from '../../schemas/tables/zones.ts';

export interface ZoneCover {
  /** Cells wholly inside the zone, compacted (mixed resolutions up to `res`). */
  interior: string[];
  /** Cells at `res` that touch the zone's border: a point there needs an exact polygon test. */
  border: string[];
}

/**
 * Covers a WGS84 polygon with H3 cells (DESIGN.md, Spatial indexing). Border cells are found by
 * walking every ring at half an edge length and taking each sample's cell with its neighbours,
 * which over-covers the border on purpose: a cell not in `border` never crosses a ring, so if its
 * centre is inside, all of it is.
 */
export function coverZone(geometry: Polygon | MultiPolygon, res = ZONE_COVER_RES): ZoneCover {
  const polygons: Position[][][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const step = getHexagonEdgeLengthAvg(res, UNITS.m) / 2;
  const border = new Set<string>();
  const inside = new Set<string>();
  for (const rings of polygons) {
    for (const ring of rings) {
      for (const sample of walkRing(ring, step)) {
        for (const c of gridDisk(latLngToCell(sample[1], sample[0], res), 1)) border.add(c);
      }
    }
    for (const c of polygonToCells(rings as number[][][], res, true)) inside.add(c);
  }
  const interior: string[] = [];
  for (const c of inside) if (!border.has(c)) interior.push(c);
  return { interior: compactCells(interior), border: [...border] };
}

/** Points along a ring ([lng, lat]) no further apart than `stepM` meters. */
function* walkRing(ring: Position[], stepM: number): Generator<Position> {
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    yield a;
    const d = approxDistanceM(a, b);
    const n = Math.ceil(d / stepM);
    for (let k = 1; k < n; k++) {
      const t = k / n;
      yield [a[0]! + (b[0]! - a[0]!) * t, a[1]! + (b[1]! - a[1]!) * t];
    }
  }
}

/** Equirectangular distance: exact enough to space samples along short segments. */
function approxDistanceM(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const x = (b[0]! - a[0]!) * rad * Math.cos(((a[1]! + b[1]!) / 2) * rad);
  const y = (b[1]! - a[1]!) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_008.8;
}
