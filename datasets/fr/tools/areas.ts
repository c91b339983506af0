/**
 * Builds the sample partitions (Voronoi cells labelled "<territory code>|<IRIS code>") for the three
 * sample areas, from hand-typed outlines/anchors plus the sample addresses used as seeds, so that
 * every sample address lies inside the polygon of its own code at every level.
 *
 *   metropole Paris   : Lambert-93, labels "<arrondissement>|<IRIS>" or OUT
 *   metropole Gironde : Lambert-93, labels "<commune>|<IRIS>" (IRIS 0000) or OUT
 *   Réunion           : RGR92 / UTM 40S, labels "<commune>|" or OUT
 */
import { toL93, toUtm40s, type LonLat } from './crs.ts';
import { girondeAddresses, parisAddresses, reunionAddresses } from './addresses.ts';
import { DEMO_ARRONDISSEMENTS, OUTLINE } from './paris.ts';
import { classifyParisL93, irisOfPoint, OUT, PAIR_OFFSET, PAIR_SPACING, parisPrimarySeeds } from './paris-seeds.ts';
import { dedupeSeeds, pairSeeds, SeedIndex, voronoiCells, type Cell, type Seed } from './partition.ts';

export { OUT };

function bboxOf(seeds: Seed[], margin: number): [number, number, number, number] {
  const xs = seeds.map((s) => s.x);
  const ys = seeds.map((s) => s.y);
  return [Math.min(...xs) - margin, Math.min(...ys) - margin, Math.max(...xs) + margin, Math.max(...ys) + margin];
}

// ------------------------------------------------------------------------------------------------
// Paris

const DEMO = new Set(DEMO_ARRONDISSEMENTS);

export function parisCells(): Cell[] {
  const { primary, index } = parisPrimarySeeds();
  const addresses: Seed[] = parisAddresses().map((a) => {
    const [x, y] = toL93([a.lon, a.lat]);
    return { x, y, label: a.codeInsee };
  });
  // fill seeds every 120 m in the demo arrondissements so that their IRIS get reasonable shapes
  const fill: Seed[] = [];
  const ring = OUTLINE.map(toL93);
  const [x0, y0, x1, y1] = bboxOf(ring.map(([x, y]) => ({ x, y, label: '' })), 0);
  for (let x = x0; x <= x1; x += 120) {
    for (let y = y0; y <= y1; y += 120) {
      const near = index.nearest(x, y)!;
      if (near.label === OUT || !DEMO.has(near.label)) continue;
      if (Math.hypot(near.x - x, near.y - y) < 30) continue;
      fill.push({ x, y, label: classifyParisL93(x, y) });
    }
  }
  const seeds = dedupeSeeds([...addresses, ...primary, ...fill], 1).map((s) => ({
    ...s,
    label: s.label === OUT ? OUT : `${s.label}|${irisOfPoint(s.label, s.x, s.y)}`,
  }));
  return voronoiCells(seeds, bboxOf(seeds, 2000));
}

// ------------------------------------------------------------------------------------------------
// Gironde: Abzac and neighbours (outline of Abzac hand-drawn, clockwise)

export const ABZAC_OUTLINE: LonLat[] = [
  [-0.163, 45.012],
  [-0.156, 45.019],
  [-0.15, 45.024],
  [-0.139, 45.0262],
  [-0.128, 45.027],
  [-0.116, 45.0265],
  [-0.105, 45.025],
  [-0.095, 45.0222],
  [-0.088, 45.018],
  [-0.0855, 45.011],
  [-0.086, 45.005],
  [-0.092, 45.0],
  [-0.1, 44.996],
  [-0.112, 44.9935],
  [-0.125, 44.993],
  [-0.137, 44.995],
  [-0.148, 44.998],
  [-0.156, 45.0045],
];

export const GIRONDE_NEIGHBOUR_ANCHORS: Record<string, LonLat[]> = {
  '33138': [[-0.125, 45.04], [-0.15, 45.036], [-0.1, 45.038], [-0.135, 45.05], [-0.11, 45.048]], // Coutras
  '33393': [[-0.18, 44.995], [-0.155, 44.985], [-0.195, 45.005], [-0.17, 44.978], [-0.135, 44.982]], // Saint-Denis-de-Pile
  '33447': [[-0.07, 45.012], [-0.065, 45.022], [-0.075, 44.998], [-0.06, 45.0]], // Saint-Médard-de-Guizières
};

export function girondeCells(): Cell[] {
  const anchors: Seed[] = [];
  for (const [code, pts] of Object.entries(GIRONDE_NEIGHBOUR_ANCHORS)) {
    for (const p of pts) {
      const [x, y] = toL93(p);
      anchors.push({ x, y, label: code });
    }
  }
  const anchorIndex = new SeedIndex(anchors, 2000);
  const ring = [...ABZAC_OUTLINE, ABZAC_OUTLINE[0]].map(toL93);
  const outline = pairSeeds(ring, (p) => anchorIndex.nearest(p[0], p[1])!.label, '33001', PAIR_SPACING * 2, PAIR_OFFSET);
  // outer limit of the sample: a circle of OUT seeds around Abzac
  const [cx, cy] = toL93([-0.125, 45.01]);
  const outside: Seed[] = [];
  for (let i = 0; i < 72; i++) {
    const a = (i / 72) * 2 * Math.PI;
    outside.push({ x: cx + 7500 * Math.cos(a), y: cy + 7500 * Math.sin(a), label: OUT });
  }
  const addresses: Seed[] = girondeAddresses().map((a) => {
    const [x, y] = toL93([a.lon, a.lat]);
    return { x, y, label: a.codeInsee };
  });
  const seeds = dedupeSeeds([...addresses, ...outline, ...anchors, ...outside], 1).map((s) => ({
    ...s,
    label: s.label === OUT ? OUT : `${s.label}|${s.label}0000`,
  }));
  return voronoiCells(seeds, bboxOf(seeds, 3000));
}

// ------------------------------------------------------------------------------------------------
// La Réunion: Saint-Denis and neighbours (UTM 40S)

/** Coastline from west to east (the sea is on the left). */
export const REUNION_COAST: LonLat[] = [
  [55.28, -20.935],
  [55.3, -20.925],
  [55.33, -20.915],
  [55.36, -20.902],
  [55.39, -20.888],
  [55.41, -20.878],
  [55.43, -20.8745],
  [55.45, -20.8748],
  [55.465, -20.8745],
  [55.48, -20.877],
  [55.5, -20.882],
  [55.52, -20.888],
  [55.55, -20.893],
  [55.58, -20.9],
];

export const REUNION_ANCHORS: Record<string, LonLat[]> = {
  '97411': [[55.45, -20.9], [55.44, -20.93], [55.47, -20.94], [55.45, -20.97], [55.425, -20.905], [55.48, -20.91], [55.46, -21.0]], // Saint-Denis
  '97418': [[55.54, -20.91], [55.53, -20.95], [55.55, -20.98], [55.52, -20.905], [55.53, -21.01]], // Sainte-Marie
  '97408': [[55.33, -20.94], [55.35, -20.97], [55.37, -20.95], [55.385, -20.905], [55.37, -21.0]], // La Possession
};

export function reunionCells(): Cell[] {
  const anchors: Seed[] = [];
  for (const [code, pts] of Object.entries(REUNION_ANCHORS)) {
    for (const p of pts) {
      const [x, y] = toUtm40s(p);
      anchors.push({ x, y, label: code });
    }
  }
  const anchorIndex = new SeedIndex(anchors, 2000);
  const coast = pairSeeds(REUNION_COAST.map(toUtm40s), OUT, (p) => anchorIndex.nearest(p[0], p[1])!.label, 200, 10);
  const outside: Seed[] = [];
  for (let lon = 55.26; lon <= 55.6; lon += 0.01) {
    const [x, y] = toUtm40s([lon, -21.04]);
    outside.push({ x, y, label: OUT });
  }
  for (let lat = -21.03; lat <= -20.9; lat += 0.01) {
    for (const lon of [55.27, 55.59]) {
      const [x, y] = toUtm40s([lon, lat]);
      outside.push({ x, y, label: OUT });
    }
  }
  const addresses: Seed[] = reunionAddresses().map((a) => ({ x: a.x, y: a.y, label: a.codeInsee }));
  const seeds = dedupeSeeds([...addresses, ...coast, ...anchors, ...outside], 1).map((s) => ({
    ...s,
    label: s.label === OUT ? OUT : `${s.label}|`,
  }));
  return voronoiCells(seeds, bboxOf(seeds, 3000));
}

/** Territory code (arrondissement municipal or commune) of a cell label, null for OUT. */
export const territoryOf = (label: string): string | null => (label === OUT ? null : label.split('|')[0]);
/** IRIS code of a cell label, null for OUT or when there is none. */
export const irisCodeOf = (label: string): string | null => (label === OUT ? null : label.split('|')[1] || null);
