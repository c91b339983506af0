import { bbox, booleanPointInPolygon, randomPoint } from '@turf/turf';
import { cellToBoundary, cellToChildren, cellToLatLng, cellToParent, getResolution, latLngToCell } from 'h3-js';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { compactCover, coverZone, narrowerThanCells, soleCell } from '../../../ingest/core/zone-cover.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MultiPolygon } from 'geojson';
import { REPO_ROOT } from '../../../ingest/jobs.ts';

const JUVISY = join(REPO_ROOT, '../shared/realdata/fr/cadastre/cadastre-91326-parcelles.json');

// A concave outline around the Place de la Bastille, [lng, lat].
const polygon: Polygon = {
  type: 'Polygon',
  coordinates: [[[2.360, 48.850], [2.380, 48.850], [2.380, 48.860], [2.370, 48.855], [2.360, 48.860], [2.360, 48.850]]],
};

describe('coverZone', () => {
  const cover = coverZone(polygon, 9);
  const interior = new Set(cover.interior);
  const border = new Set(cover.border);

  it('puts every point inside the polygon in an interior cell or a border cell', () => {
    const points = randomPoint(3000, { bbox: [2.355, 48.845, 2.385, 48.865] }).features;
    let inside = 0;
    for (const p of points) {
      const [lng, lat] = p.geometry.coordinates as [number, number];
      const cell = latLngToCell(lat, lng, 9);
      const inInterior = [...Array(10).keys()].some((r) => interior.has(r === 9 ? cell : cellToParent(cell, r)));
      const exact = booleanPointInPolygon([lng, lat], polygon);
      if (exact) { inside++; expect(inInterior || border.has(cell)).toBe(true); }
      // An interior cell never holds a point outside the polygon.
      if (inInterior) expect(exact).toBe(true);
    }
    expect(inside).toBeGreaterThan(500);
  });

  it('keeps interior cells as coarse as possible and border cells at the cover resolution', () => {
    expect(cover.border.every((c) => getResolution(c) === 9)).toBe(true);
    expect(cover.interior.every((c) => getResolution(c) <= 9)).toBe(true);
    expect(cover.interior.some((c) => border.has(c))).toBe(false);
  });
});

describe('coverZone on a region-sized polygon', () => {
  it('covers a 250 km wide zone with coarse interior cells: the work follows the outline, not the area', () => {
    const region: Polygon = { type: 'Polygon', coordinates: [[[-74, 45], [-71, 45], [-71, 47], [-74, 47], [-74, 45]]] };
    const cover = coverZone(region, 9);
    // At resolution 9 the area alone would be about 480,000 cells.
    expect(cover.interior.length).toBeLessThan(20_000);
    expect(cover.interior.some((c) => getResolution(c) <= 6)).toBe(true);
    const montreal = latLngToCell(45.5017, -73.5673, 9);
    const ancestors = new Set([...Array(10).keys()].map((r) => (r === 9 ? montreal : cellToParent(montreal, r))));
    expect(cover.interior.some((c) => ancestors.has(c))).toBe(true);
  });
});

describe('compactCover', () => {
  const parent = latLngToCell(48.85, 2.35, 7);
  const children = cellToChildren(parent, 8);
  const grandchildren = cellToChildren(children[0]!, 9);

  it('merges complete sets of children into their parent, up through the resolutions', () => {
    // The first child given as its own seven children: they merge into it, then the seven into the parent.
    expect(compactCover([...grandchildren, ...children.slice(1)], 9)).toEqual([parent]);
  });

  it('keeps an incomplete set as it is and drops cells already under another', () => {
    const partial = [...grandchildren.slice(1), ...children.slice(1)];
    expect(new Set(compactCover(partial, 9))).toEqual(new Set(partial));
    expect(compactCover([parent, children[3]!, grandchildren[2]!], 9)).toEqual([parent]);
  });
});

describe('coverZone of shapes narrower than a cell (parcels, footprints)', () => {
  it.skipIf(!existsSync(JUVISY))('covers every real Juvisy parcel: each of its points in a cell of its cover, one cell where it lies inside it with a metre to spare, else the walk\'s cover, at resolutions 9 and 11', () => {
    const parcels = (JSON.parse(readFileSync(JUVISY, 'utf8')) as { features: { geometry: Polygon | MultiPolygon }[] }).features.map((f) => f.geometry);
    expect(parcels.length).toBeGreaterThan(2800);
    let shortcut = 0, sole = 0, checked = 0;
    for (const res of [9, 11]) {
      for (const g of parcels) {
        if (narrowerThanCells(g, res)) shortcut++;
        const fast = coverZone(g, res), full = coverZone(g, res, { smallShortcut: false });
        const one = soleCell(g, res);
        if (narrowerThanCells(g, res) && one) {
          sole++;
          expect(fast).toEqual({ interior: [], border: [one] });
          // The walk's cover holds that cell (and its neighbours: what the shortcut saves).
          expect(full.border).toContain(one);
        } else {
          expect([[...fast.interior].sort(), [...fast.border].sort()]).toEqual([[...full.interior].sort(), [...full.border].sort()]);
        }
        // Every point of the parcel finds it: its vertices, points along its edges, random points inside.
        const cells = new Set([...fast.border, ...fast.interior]);
        const covered = (lng: number, lat: number) => { const c = latLngToCell(lat, lng, res); return [...Array(res + 1).keys()].some((r) => cells.has(r === res ? c : cellToParent(c, r))); };
        const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat();
        for (const ring of rings) for (let i = 0; i + 1 < ring.length; i++) {
          const [a, b] = [ring[i]!, ring[i + 1]!];
          for (const t of [0, 0.25, 0.5, 0.75]) { checked++; expect(covered(a[0]! + t * (b[0]! - a[0]!), a[1]! + t * (b[1]! - a[1]!))).toBe(true); }
        }
        for (const p of randomPoint(10, { bbox: bbox(g) as [number, number, number, number] }).features) {
          const [lng, lat] = p.geometry.coordinates as [number, number];
          if (booleanPointInPolygon([lng, lat], g)) { checked++; expect(covered(lng, lat)).toBe(true); }
        }
      }
    }
    // Most parcels are narrower than a resolution-9 cell; at resolution 11 (about 25 m edges) many are not.
    expect(shortcut).toBeGreaterThan(2800);
    expect(shortcut).toBeLessThan(2 * parcels.length);
    // About four in five lie in one resolution-9 cell with a metre to spare.
    expect(sole).toBeGreaterThan(2000);
    expect(checked).toBeGreaterThan(100_000);
  });

  it('gives one cell only to a shape a metre or more inside it: never to one across or near its edge', () => {
    const cell = latLngToCell(48.85, 2.35, 9);
    const [b0, b1] = cellToBoundary(cell) as [[number, number], [number, number]];
    const [clat, clng] = cellToLatLng(cell);
    // A 4 m square whose centre is d metres inward from the middle of an edge (negative: outside).
    const mid = [(b0[0] + b1[0]) / 2, (b0[1] + b1[1]) / 2] as const;
    const toward = [clat - mid[0], clng - mid[1]] as const;
    const len = Math.hypot(toward[0] * 110_574, toward[1] * 111_320 * Math.cos((clat * Math.PI) / 180));
    const square = (d: number): Polygon => {
      const lat = mid[0] + (toward[0] * d) / len, lng = mid[1] + (toward[1] * d) / len, h = 2 / 110_574;
      return { type: 'Polygon', coordinates: [[[lng - h, lat - h], [lng + h, lat - h], [lng + h, lat + h], [lng - h, lat + h], [lng - h, lat - h]]] };
    };
    // The square reaches 2 to 2.83 m toward the edge from its centre (as it is turned to it).
    for (const d of [10, 5]) expect(soleCell(square(d), 9)).toBe(cell);
    // Within a metre of the edge, or across it.
    for (const d of [2.5, 2, 0, -2]) {
      expect(soleCell(square(d), 9)).toBeNull();
      expect(coverZone(square(d), 9).border.length).toBeGreaterThan(1);
    }
  });

  it('never takes the shortcut for a shape that holds a whole cell', () => {
    expect(narrowerThanCells(polygon, 9)).toBe(false);
    // A 20 m square holds no resolution-9 cell; a 4 km one holds some, and keeps them.
    const square = (side: number): Polygon => ({ type: 'Polygon', coordinates: [[[2.3, 48.8], [2.3 + side, 48.8], [2.3 + side, 48.8 + side], [2.3, 48.8 + side], [2.3, 48.8]]] });
    expect(narrowerThanCells(square(0.0002), 9)).toBe(true);
    expect(narrowerThanCells(square(0.05), 9)).toBe(false);
    expect(coverZone(square(0.05), 9).interior.length).toBeGreaterThan(0);
  });
});
