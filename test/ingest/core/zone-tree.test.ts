import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon, featureCollection, polygon, union } from '@turf/turf';
import { cellToParent, getResolution, latLngToCell } from 'h3-js';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statbelSectorsSource } from '../../../datasets/be/statbel-sectors/source.ts';
import { type Warehouse } from '../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../api/location/warehouse.ts';
import { createZoneLookup, type ZoneLookup } from '../../../api/location/zones/lookup.ts';
import { ingestTreeFile } from '../../../ingest/core/tree-file.ts';
import { ZoneTree } from '../../../ingest/core/zone-tree.ts';
import { coverZone, type ZoneCover } from '../../../ingest/core/zone-cover.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

// Two arrondissements made of communes sharing published vertices, under one region ([lng, lat]).
// P = A + B + C + E (E an enclave filling A's hole, B and A meeting along a zigzag); Q = F alone.
const A: Position[][] = [
  [[4.30, 50.80], [4.35, 50.80], [4.36, 50.82], [4.35, 50.84], [4.30, 50.84], [4.30, 50.80]],
  [[4.31, 50.81], [4.32, 50.81], [4.32, 50.82], [4.31, 50.82], [4.31, 50.81]],
];
const E: Position[][] = [[[4.31, 50.81], [4.31, 50.82], [4.32, 50.82], [4.32, 50.81], [4.31, 50.81]]];
const B: Position[][] = [[[4.35, 50.80], [4.40, 50.80], [4.40, 50.84], [4.35, 50.84], [4.36, 50.82], [4.35, 50.80]]];
const C: Position[][] = [[[4.30, 50.77], [4.40, 50.77], [4.40, 50.80], [4.35, 50.80], [4.30, 50.80], [4.30, 50.77]]];
// F touches P's east edge along a stretch with different vertices (published separately).
const F: Position[][] = [[[4.40, 50.78], [4.44, 50.78], [4.44, 50.83], [4.40, 50.83], [4.40, 50.815], [4.40, 50.78]]];
const COMMUNES = { A, B, C, E, F };
const PARENT: Record<string, string> = { A: 'P', B: 'P', C: 'P', E: 'P', F: 'Q' };

const unionOf = (parts: Position[][][]): Polygon | MultiPolygon => union(featureCollection(parts.map((p) => polygon(p))))!.geometry;
const P = unionOf([A, B, C, E]);
const Q: Polygon = { type: 'Polygon', coordinates: F };
const R = unionOf([A, B, C, E, F]);

/** Points on both sides of every ring of `rings`, at `offset` degrees across each segment, and the segment ends. */
function pointsAcross(rings: Position[][], offset: number, perSegment = 12): Position[] {
  const out: Position[] = [];
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const [x1, y1] = ring[i] as [number, number];
      const [x2, y2] = ring[i + 1] as [number, number];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const nx = -(y2 - y1) / len, ny = (x2 - x1) / len;
      for (let k = 0; k <= perSegment; k++) {
        const t = k / perSegment;
        const x = x1 + (x2 - x1) * t, y = y1 + (y2 - y1) * t;
        out.push([x + nx * offset, y + ny * offset], [x - nx * offset, y - ny * offset]);
      }
    }
  }
  return out;
}

const allRings = Object.values(COMMUNES).flat();
// 1 cm and 100 m either side of every commune border (shared ones and the outer ones).
const POINTS = [1e-7, 1e-3].flatMap((o) => pointsAcross(allRings, o, 6));

function exact(point: Position): { arr: string | null; region: string | null } {
  const arr = booleanPointInPolygon(point, P) ? 'P' : booleanPointInPolygon(point, Q) ? 'Q' : null;
  return { arr, region: booleanPointInPolygon(point, R) ? 'R' : null };
}

describe('a tree of unions served by the zone lookup', () => {
  let warehouse: Warehouse;
  let lookup: ZoneLookup;

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-tree-'));
    const file = join(root, 'communes.geojson');
    const features = Object.entries(COMMUNES).map(([code, rings]) => ({ type: 'Feature', properties: { code }, geometry: { type: 'Polygon', coordinates: rings } }));
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features }));
    const dataDir = join(root, 'data');
    await ingestTreeFile(silentContext(dataDir), {
      country: 'be', job: 'be.zones', source: statbelSectorsSource, partition: 'test.tree', path: file,
      toChain: (props) => {
        const code = String(props.code);
        return [
          { level: 'administrative_area_level1', code: 'R', name: 'R', parent_level: 'country', parent_code: 'BE' },
          { level: 'administrative_area_level3', code: PARENT[code]!, name: PARENT[code]!, parent_level: 'administrative_area_level1', parent_code: 'R' },
          { level: 'locality', code, name: code, parent_level: 'administrative_area_level3', parent_code: PARENT[code]! },
        ];
      },
    });
    warehouse = await openLocationWarehouse(dataDir);
    lookup = createZoneLookup(warehouse);
  });
  afterAll(() => warehouse?.close());

  it('gives points on both sides of the borders between children, and of the outer border, the zone an exact test on the union gives', async () => {
    let insideP = 0, outsideAll = 0;
    for (const point of POINTS) {
      const found = await lookup.zonesAt('be', point[0]!, point[1]!);
      const at = (level: string) => found.find((z) => z.level === level)?.code ?? null;
      const want = exact(point);
      expect({ arr: at('administrative_area_level3'), region: at('administrative_area_level1') }, `at ${point.join(', ')}`).toEqual(want);
      if (want.arr === 'P') insideP++;
      if (want.region === null) outsideAll++;
    }
    // Both sides are exercised: inside the parent near its children's borders, and just outside the union.
    expect(insideP).toBeGreaterThan(200);
    expect(outsideAll).toBeGreaterThan(60);
  });
});

describe('ZoneTree covers', () => {
  const tree = new ZoneTree();
  for (const [code, rings] of Object.entries(COMMUNES)) {
    tree.add([
      { level: 'administrative_area_level1', code: 'R', name: 'R', parent_level: 'country', parent_code: 'BE' },
      { level: 'administrative_area_level3', code: PARENT[code]!, name: null, parent_level: 'administrative_area_level1', parent_code: 'R' },
      { level: 'locality', code, name: null, parent_level: 'administrative_area_level3', parent_code: PARENT[code]! },
    ], { type: 'Polygon', coordinates: rings });
  }
  const built = new Map([...tree.build()].map((z) => [`${z.level}:${z.code}`, z]));

  const inCover = (cover: ZoneCover, point: Position) => {
    const cell = latLngToCell(point[1]!, point[0]!, 9);
    const interior = new Set(cover.interior);
    const under = [...Array(10).keys()].some((r) => interior.has(r === 9 ? cell : cellToParent(cell, r)));
    return { under, border: cover.border.includes(cell) };
  };

  it('derives a parent cover whose interior never holds an outside point and which reaches every inside point', () => {
    for (const [key, union] of [['administrative_area_level3:P', P], ['administrative_area_level1:R', R]] as const) {
      const { cover } = built.get(key)!;
      for (const point of POINTS) {
        const { under, border } = inCover(cover, point);
        const inside = booleanPointInPolygon(point, union);
        if (under) expect(inside, `${key} interior at ${point.join(', ')}`).toBe(true);
        if (inside) expect(under || border, `${key} misses ${point.join(', ')}`).toBe(true);
      }
      expect(cover.border.every((c) => getResolution(c) === 9)).toBe(true);
    }
  });

  it('turns the children\'s shared borders into interior cells: no more border cells than covering the union afresh', () => {
    const { cover, geometry } = built.get('administrative_area_level3:P')!;
    const fresh = coverZone(geometry);
    expect(cover.border.length).toBeLessThanOrEqual(fresh.border.length);
    // The zigzag between A and B, well inside P, is answered without an exact test.
    const cell = latLngToCell(50.82, 4.36, 9);
    expect(cover.border.includes(cell)).toBe(false);
    expect(inCover(cover, [4.36, 50.82]).under).toBe(true);
    // A single child's cover is its parent's.
    expect(built.get('administrative_area_level3:Q')!.cover).toEqual(built.get('locality:F')!.cover);
  });
});
