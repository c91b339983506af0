import { readFileSync } from 'node:fs';
import * as turf from '@turf/turf';
import { OUTLINE } from '../tools/paris.ts';
const real = JSON.parse(readFileSync('/work/shared/realdata/fr/boundaries/paris_arrondissements_opendataparis.geojson', 'utf8'));
const mine = turf.polygon([[...OUTLINE, OUTLINE[0]]]);
const line = turf.polygonToLine(mine) as any;
const stats: Record<string, [number, number]> = {};
for (const f of real.features) for (const c of f.geometry.coordinates[0]) {
  if (!turf.booleanPointInPolygon(turf.point(c), mine)) {
    const d = turf.pointToLineDistance(turf.point(c), line, { units: 'meters' });
    const k = f.properties.c_arinsee; stats[k] ??= [0, 0]; stats[k][0]++; stats[k][1] = Math.max(stats[k][1], d);
  }
}
console.log(stats);
// my outline vertices: distance to real union boundary & in/out
for (const p of OUTLINE) {
  let inside = real.features.some((f: any) => turf.booleanPointInPolygon(turf.point(p), f));
  let dmin = Infinity; for (const f of real.features) { const d = turf.pointToLineDistance(turf.point(p), turf.polygonToLine(f) as any, { units: 'meters' }); dmin = Math.min(dmin, d); }
  console.log(p, inside ? 'in ' : 'out', dmin.toFixed(0));
}
