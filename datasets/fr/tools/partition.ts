/**
 * Planar partitions built from labelled seed points, used to make plausible (not real) boundaries.
 *
 * 1. Every seed gets its Voronoi cell (computed in a projected, metric system). The cells tile the
 *    bounding box, neighbouring cells share their vertices exactly (coordinates are rounded to the
 *    centimetre, identically for both neighbours).
 * 2. `dissolve` merges the cells by a key derived from the label (IRIS, arrondissement, commune,
 *    department, region...) by dropping the edges shared by two cells of the same key and chaining
 *    the remaining edges into rings. Because every level is dissolved from the same cells, the levels
 *    nest exactly and neighbours share identical borders.
 * 3. `pairSeeds` places pairs of seeds a few metres either side of a polyline: the Voronoi edge
 *    between the two seeds of a pair lies on the polyline, so a border can be drawn along a street.
 *
 * A seed lies strictly inside its own cell, so any point used as a seed (an address) is inside the
 * dissolved polygon of its label.
 */
import { voronoi } from '@turf/turf';
import { featureCollection, point } from '@turf/helpers';
import type { MultiPolygonCoords, Position, Ring } from './shapefile-writer.ts';
import { signedArea2 } from './shapefile-writer.ts';

export interface Seed {
  x: number;
  y: number;
  label: string;
}

export interface Cell {
  label: string;
  /** open ring (last vertex != first), counter-clockwise, centimetre-rounded */
  ring: Position[];
}

const round = (v: number): number => Math.round(v * 100) / 100;
const keyOf = (p: Position): string => `${p[0]},${p[1]}`;

/** Removes seeds closer than `minDistance` to an earlier seed (the earlier one wins). */
export function dedupeSeeds(seeds: Seed[], minDistance: number): Seed[] {
  const cell = minDistance;
  const grid = new Map<string, Seed[]>();
  const out: Seed[] = [];
  for (const s of seeds) {
    const gx = Math.floor(s.x / cell);
    const gy = Math.floor(s.y / cell);
    let clash = false;
    for (let dx = -1; dx <= 1 && !clash; dx++) {
      for (let dy = -1; dy <= 1 && !clash; dy++) {
        for (const o of grid.get(`${gx + dx},${gy + dy}`) ?? []) {
          if (Math.hypot(o.x - s.x, o.y - s.y) < minDistance) {
            clash = true;
            break;
          }
        }
      }
    }
    if (clash) continue;
    const k = `${gx},${gy}`;
    if (!grid.has(k)) grid.set(k, []);
    grid.get(k)!.push(s);
    out.push(s);
  }
  return out;
}

export function voronoiCells(seeds: Seed[], bbox: [number, number, number, number]): Cell[] {
  const fc = featureCollection(seeds.map((s, i) => point([s.x, s.y], { i })));
  const polys = voronoi(fc, { bbox });
  const cells: Cell[] = [];
  polys.features.forEach((f, i) => {
    if (!f) throw new Error(`no Voronoi cell for seed ${i} (duplicate point?)`);
    const coords = f.geometry.coordinates[0].slice(0, -1) as Position[];
    const ring: Position[] = [];
    for (const c of coords) {
      const p: Position = [round(c[0]), round(c[1])];
      const last = ring[ring.length - 1];
      if (!last || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
    }
    while (ring.length > 1 && keyOf(ring[0]) === keyOf(ring[ring.length - 1])) ring.pop();
    if (ring.length < 3) return;
    if (signedArea2(ring) < 0) ring.reverse();
    cells.push({ label: seeds[i].label, ring });
  });
  return cells;
}

function pointInRing(p: Position, ring: Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Merges cells by key; cells whose key is null are left out. Returns closed rings, outer rings
 * counter-clockwise and holes clockwise (GeoJSON order).
 */
export function dissolve(cells: Cell[], keyFn: (label: string) => string | null): Map<string, MultiPolygonCoords> {
  const edgeOwner = new Map<string, string>();
  const cellKeys = cells.map((c) => keyFn(c.label));
  cells.forEach((c, ci) => {
    const k = cellKeys[ci];
    if (k === null) return;
    const n = c.ring.length;
    for (let i = 0; i < n; i++) edgeOwner.set(`${keyOf(c.ring[i])}>${keyOf(c.ring[(i + 1) % n])}`, k);
  });

  // boundary edges per key, indexed by start vertex
  const boundary = new Map<string, Map<string, [Position, Position][]>>();
  cells.forEach((c, ci) => {
    const k = cellKeys[ci];
    if (k === null) return;
    const n = c.ring.length;
    for (let i = 0; i < n; i++) {
      const a = c.ring[i];
      const b = c.ring[(i + 1) % n];
      if (edgeOwner.get(`${keyOf(b)}>${keyOf(a)}`) === k) continue; // interior edge
      if (!boundary.has(k)) boundary.set(k, new Map());
      const byStart = boundary.get(k)!;
      const sk = keyOf(a);
      if (!byStart.has(sk)) byStart.set(sk, []);
      byStart.get(sk)!.push([a, b]);
    }
  });

  const result = new Map<string, MultiPolygonCoords>();
  for (const [k, byStart] of boundary) {
    const rings: Ring[] = [];
    for (;;) {
      let startEdge: [Position, Position] | undefined;
      for (const list of byStart.values()) {
        if (list.length) {
          startEdge = list.pop();
          break;
        }
      }
      if (!startEdge) break;
      const ring: Position[] = [startEdge[0]];
      let [prev, cur] = startEdge;
      const startKey = keyOf(startEdge[0]);
      let guard = 0;
      while (keyOf(cur) !== startKey) {
        if (++guard > 1e7) throw new Error('ring chaining did not terminate');
        ring.push(cur);
        const options = byStart.get(keyOf(cur));
        if (!options || options.length === 0) throw new Error(`open boundary for ${k} at ${keyOf(cur)}`);
        let best = 0;
        if (options.length > 1) {
          // several ways out (the region touches itself here): take the sharpest left turn
          const dinx = cur[0] - prev[0];
          const diny = cur[1] - prev[1];
          let bestAngle = -Infinity;
          options.forEach(([, b], oi) => {
            const dx = b[0] - cur[0];
            const dy = b[1] - cur[1];
            const angle = Math.atan2(dinx * dy - diny * dx, dinx * dx + diny * dy);
            if (angle > bestAngle) {
              bestAngle = angle;
              best = oi;
            }
          });
        }
        const [, next] = options.splice(best, 1)[0];
        prev = cur;
        cur = next;
      }
      ring.push([ring[0][0], ring[0][1]]);
      rings.push(ring);
    }
    const outers = rings.filter((r) => signedArea2(r) > 0);
    const holes = rings.filter((r) => signedArea2(r) <= 0);
    const polys: MultiPolygonCoords = outers
      .sort((a, b) => signedArea2(b) - signedArea2(a))
      .map((r) => [r]);
    for (const h of holes) {
      // smallest outer ring containing the hole (test the middle of the hole's first edge)
      const probe: Position = [(h[0][0] + h[1][0]) / 2, (h[0][1] + h[1][1]) / 2];
      let owner: Ring[] | undefined;
      let ownerArea = Infinity;
      for (const p of polys) {
        const a = signedArea2(p[0]);
        if (a < ownerArea && pointInRing(probe, p[0])) {
          owner = p;
          ownerArea = a;
        }
      }
      if (!owner) throw new Error(`hole without outer ring for ${k}`);
      owner.push(h);
    }
    result.set(k, polys);
  }
  return result;
}

/**
 * Seeds either side of a polyline (planar coordinates), `offset` metres away from it, every
 * `spacing` metres: left side gets `left`, right side gets `right` (walking from first to last vertex).
 */
export function pairSeeds(
  line: Position[],
  left: string | ((p: Position) => string),
  right: string | ((p: Position) => string),
  spacing: number,
  offset: number,
): Seed[] {
  const out: Seed[] = [];
  let carry = spacing / 2;
  for (let i = 0; i + 1 < line.length; i++) {
    const [x1, y1] = line[i];
    const [x2, y2] = line[i + 1];
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (len === 0) continue;
    const tx = (x2 - x1) / len;
    const ty = (y2 - y1) / len;
    let d = carry;
    for (; d < len; d += spacing) {
      const px = x1 + tx * d;
      const py = y1 + ty * d;
      const l: Position = [px - ty * offset, py + tx * offset];
      const r: Position = [px + ty * offset, py - tx * offset];
      out.push({ x: l[0], y: l[1], label: typeof left === 'string' ? left : left(l) });
      out.push({ x: r[0], y: r[1], label: typeof right === 'string' ? right : right(r) });
    }
    carry = d - len;
  }
  return out;
}

/** Nearest seed (brute force with a coarse grid index). */
export class SeedIndex {
  private grid = new Map<string, Seed[]>();
  constructor(
    seeds: Seed[],
    private cell = 500,
  ) {
    for (const s of seeds) {
      const k = `${Math.floor(s.x / cell)},${Math.floor(s.y / cell)}`;
      if (!this.grid.has(k)) this.grid.set(k, []);
      this.grid.get(k)!.push(s);
    }
  }
  nearest(x: number, y: number, accept: (s: Seed) => boolean = () => true): Seed | undefined {
    const gx = Math.floor(x / this.cell);
    const gy = Math.floor(y / this.cell);
    let best: Seed | undefined;
    let bestD = Infinity;
    for (let r = 0; r < 200; r++) {
      for (let dx = -r; dx <= r; dx++) {
        for (let dy = -r; dy <= r; dy++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
          for (const s of this.grid.get(`${gx + dx},${gy + dy}`) ?? []) {
            if (!accept(s)) continue;
            const d = Math.hypot(s.x - x, s.y - y);
            if (d < bestD) {
              bestD = d;
              best = s;
            }
          }
        }
      }
      // a seed found in ring r is the nearest once rings up to r+1 are scanned
      if (best && bestD < r * this.cell) break;
    }
    return best;
  }
}
