/**
 * Primary seeds of the Paris sample partition (borders, outline, anchors) and the classification of
 * any point into an arrondissement / IRIS with them. Addresses are classified with the same seeds,
 * so an address and the boundaries built around it always agree.
 */
import { toL93, fromL93, type LonLat } from './crs.ts';
import { ANCHORS, BORDERS, OUTLINE, irisOf } from './paris.ts';
import { pairSeeds, SeedIndex, type Seed } from './partition.ts';

export const PAIR_SPACING = 40;
export const PAIR_OFFSET = 4;
export const OUT = 'OUT';

function lineL93(points: LonLat[]): [number, number][] {
  return points.map((p) => toL93(p));
}

let cache: { primary: Seed[]; index: SeedIndex } | undefined;

/** Anchors, border pairs and outline pairs, labelled with arrondissement codes (or OUT). */
export function parisPrimarySeeds(): { primary: Seed[]; index: SeedIndex } {
  if (cache) return cache;
  const inner: Seed[] = [];
  for (const [arm, pts] of Object.entries(ANCHORS)) {
    for (const p of pts) {
      const [x, y] = toL93(p);
      inner.push({ x, y, label: arm });
    }
  }
  for (const b of BORDERS) {
    const wrap = (f: string | ((p: LonLat) => string)) =>
      typeof f === 'string' ? f : (p: [number, number]) => f(fromL93(p));
    inner.push(...pairSeeds(lineL93(b.points), wrap(b.left), wrap(b.right), PAIR_SPACING, PAIR_OFFSET));
  }
  const innerIndex = new SeedIndex(inner);
  // the outline is clockwise: outside on the left, Paris on the right
  const ring = lineL93([...OUTLINE, OUTLINE[0]]);
  const outline = pairSeeds(ring, OUT, (p) => innerIndex.nearest(p[0], p[1])!.label, PAIR_SPACING, PAIR_OFFSET);
  const primary = [...inner, ...outline];
  cache = { primary, index: new SeedIndex(primary) };
  return cache;
}

/** Arrondissement code (or OUT) of a point, by nearest primary seed. */
export function classifyParisL93(x: number, y: number): string {
  return parisPrimarySeeds().index.nearest(x, y)!.label;
}

export function classifyParis(p: LonLat): string {
  const [x, y] = toL93(p);
  return classifyParisL93(x, y);
}

const irisCentresL93 = new Map<string, { code: string; name: string; x: number; y: number }[]>();

/** IRIS (9-character code) of a point already known to be in arrondissement `arm`. */
export function irisOfPoint(arm: string, x: number, y: number): string {
  if (!irisCentresL93.has(arm)) {
    irisCentresL93.set(
      arm,
      irisOf(arm).map((i) => {
        const [cx, cy] = toL93(i.centre);
        return { code: `${arm}${i.iris}`, name: i.name, x: cx, y: cy };
      }),
    );
  }
  let best = '';
  let bestD = Infinity;
  for (const c of irisCentresL93.get(arm)!) {
    const d = Math.hypot(c.x - x, c.y - y);
    if (d < bestD) {
      bestD = d;
      best = c.code;
    }
  }
  return best;
}
