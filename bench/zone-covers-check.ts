import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { booleanPointInPolygon, randomPoint } from '@turf/turf';
import { cellToParent, latLngToCell } from 'h3-js';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { readFeatures } from '../ingest/core/readers/features.ts';
import { reprojectGeometry, toWgs84 } from '../ingest/core/reproject.ts';
import { ZoneTree } from '../ingest/core/zone-tree.ts';
import { communeChain } from '../ingest/be/zones.ts';
import { readRefnis } from '../ingest/be/refnis.ts';

// The derived covers of the real unions against an exact turf test on the union's outline: random
// points over each union and points either side of its children's vertices. Run: npx tsx bench/zone-covers-check.ts
const REAL = join(import.meta.dirname, '../../shared/realdata');
const BE = join(REAL, 'be/municipalities_flanders_brussels_2024/gemeente2024.shp');
const CA = join(REAL, 'ca/quebec_regions_sda_regio_s/regio_s.shp');

async function beTree(): Promise<ZoneTree> {
  const refnis = await readRefnis(join(REAL, 'be/statbel_refnis_municipalities/REFNIS_2019.csv'));
  const tree = new ZoneTree();
  for await (const { feature, crs } of readFeatures(BE, {})) {
    const chain = communeChain(String(feature.properties!.gemeente), null, refnis);
    if (typeof chain !== 'string') tree.add(chain, reprojectGeometry(feature.geometry!, toWgs84(crs)) as Polygon | MultiPolygon);
  }
  return tree;
}

async function caTree(): Promise<ZoneTree> {
  const tree = new ZoneTree();
  for await (const { feature, crs } of readFeatures(CA, { encoding: 'cp850' })) {
    tree.add([
      { level: 'administrative_area_level1', code: '24', name: null, parent_level: null, parent_code: null },
      { level: 'administrative_area_level2', code: String(feature.properties!.RES_CO_REG), name: null, parent_level: 'administrative_area_level1', parent_code: '24' },
    ], reprojectGeometry(feature.geometry!, toWgs84(crs)) as Polygon | MultiPolygon);
  }
  return tree;
}

const rings = (g: Polygon | MultiPolygon) => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates).flat();

async function check(name: string, tree: ZoneTree, random: number, vertexStep: number) {
  const zones = [...tree.build()];
  const finest = zones[0]!.level;
  const nearBorders: Position[] = [];
  for (const z of zones.filter((e) => e.level === finest)) {
    for (const ring of rings(z.geometry)) for (let i = 0; i < ring.length; i += vertexStep) {
      const [x, y] = ring[i] as [number, number];
      for (const o of [1e-6, 3e-4, 2e-3]) nearBorders.push([x + o, y], [x - o, y], [x, y + o], [x, y - o]);
    }
  }
  let checked = 0, inside = 0, mismatches = 0;
  for (const z of zones.filter((e) => e.level !== finest)) {
    const interior = new Set(z.cover.interior), border = new Set(z.cover.border);
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const ring of rings(z.geometry)) for (const [x, y] of ring) { w = Math.min(w, x!); s = Math.min(s, y!); e = Math.max(e, x!); n = Math.max(n, y!); }
    const points = [...randomPoint(random, { bbox: [w, s, e, n] }).features.map((f) => f.geometry.coordinates), ...nearBorders];
    for (const [lng, lat] of points as [number, number][]) {
      const cell = latLngToCell(lat, lng, 9);
      const under = [...Array(10).keys()].some((r) => interior.has(r === 9 ? cell : cellToParent(cell, r)));
      const exact = booleanPointInPolygon([lng, lat], z.geometry);
      // As the lookup reads the cover: interior answers, a border cell takes the exact test, no cell means outside.
      const answered = under || (border.has(cell) && exact);
      checked++;
      if (exact) inside++;
      if (answered !== exact) { mismatches++; console.log(`mismatch ${z.level} ${z.code} at ${lng}, ${lat}`); }
    }
  }
  console.log(`${name}: ${checked} points checked (${inside} inside), ${mismatches} mismatches`);
}

if (existsSync(BE)) await check('be unions of communes', await beTree(), 400, 40);
if (existsSync(CA)) await check('ca province as the union of its regions', await caTree(), 3000, 200);
