import { booleanPointInPolygon } from '@turf/turf';
import { cellToChildren, cellToLatLng, cellToParent, getHexagonEdgeLengthAvg, gridDisk, latLngToCell, polygonToCells, UNITS } from 'h3-js';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { ZONE_COVER_RES } from '../../schemas/tables/zones.ts';

export interface ZoneCover {
  /** Cells wholly inside the zone, as coarse as possible (mixed resolutions up to `res`). */
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
  for (const rings of polygons) {
    for (const ring of rings) {
      for (const sample of walkRing(ring, step)) {
        for (const c of gridDisk(latLngToCell(sample[1], sample[0], res), 1)) border.add(c);
      }
    }
  }
  // Interior, coarse to fine: a cell none of whose descendants touches the border lies wholly on
  // one side of it (its descendants form one connected patch), the side of its centre. Only cells
  // holding border descendants are split, so a region of a million km² costs no more than its outline.
  const start = Math.min(COARSE_RES, res);
  const touching: Set<string>[] = Array.from({ length: res + 1 }, () => new Set<string>());
  for (const c of border) for (let r = start; r < res; r++) touching[r]!.add(cellToParent(c, r));
  const interior: string[] = [];
  const inside = (cell: string) => {
    const [lat, lng] = cellToLatLng(cell);
    return booleanPointInPolygon([lng, lat], geometry);
  };
  let level = new Set<string>(touching[start]);
  for (const rings of polygons) for (const c of polygonToCells(rings as number[][][], start, true)) level.add(c);
  for (let r = start; r <= res && level.size > 0; r++) {
    const next = new Set<string>();
    for (const c of level) {
      if (r === res ? border.has(c) : touching[r]!.has(c)) {
        if (r < res) for (const child of cellToChildren(c, r + 1)) next.add(child);
      } else if (inside(c)) {
        interior.push(c);
      }
    }
    level = next;
  }
  return { interior, border: [...border] };
}

/** Resolution the interior cover starts from (about 250 km² a cell). */
const COARSE_RES = 5;

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
