import { readFileSync } from 'node:fs';
import * as turf from '@turf/turf';
import { BORDERS, OUTLINE, ANCHORS } from '../tools/paris.ts';
import { toL93, fromL93 } from '../tools/crs.ts';
const real = JSON.parse(readFileSync('/work/shared/realdata/fr/boundaries/paris_arrondissements_opendataparis.geojson', 'utf8'));
function realArm(p: [number, number]): string {
  for (const f of real.features) if (turf.booleanPointInPolygon(turf.point(p), f)) return String(f.properties.c_arinsee);
  return 'OUT';
}
const OFF = Number(process.argv[2] ?? 40);
for (const b of BORDERS) {
  let ok = 0, bad: string[] = [];
  const pts = b.points.map(toL93);
  for (let i = 0; i + 1 < pts.length; i++) {
    const [x1, y1] = pts[i], [x2, y2] = pts[i + 1];
    const len = Math.hypot(x2 - x1, y2 - y1); const tx = (x2 - x1) / len, ty = (y2 - y1) / len;
    for (let d = 20; d < len; d += 60) {
      const px = x1 + tx * d, py = y1 + ty * d;
      const l = fromL93([px - ty * OFF, py + tx * OFF]), r = fromL93([px + ty * OFF, py - tx * OFF]);
      const el = typeof b.left === 'string' ? b.left : b.left(l), er = typeof b.right === 'string' ? b.right : b.right(r);
      const rl = realArm(l), rr = realArm(r);
      if (rl === el) ok++; else bad.push(`L ${l.map(v=>v.toFixed(5))} exp ${el} real ${rl}`);
      if (rr === er) ok++; else bad.push(`R ${r.map(v=>v.toFixed(5))} exp ${er} real ${rr}`);
    }
  }
  console.log(`${b.name}: ok ${ok} bad ${bad.length}`); for (const s of bad.slice(0, 12)) console.log('   ', s);
}
for (const [arm, pts] of Object.entries(ANCHORS)) for (const p of pts) { const r = realArm(p); if (r !== arm) console.log('anchor', arm, p, 'real', r); }
// outline: area comparison
const mine = turf.polygon([[...OUTLINE, OUTLINE[0]]]);
const areaReal = real.features.reduce((s: number, f: any) => s + turf.area(f), 0);
console.log('outline area', (turf.area(mine) / 1e6).toFixed(1), 'real', (areaReal / 1e6).toFixed(1));
let inOut = 0, n = 0;
for (const f of real.features) { for (const c of f.geometry.coordinates[0]) { n++; if (!turf.booleanPointInPolygon(turf.point(c), mine)) inOut++; } }
console.log('real boundary vertices outside my outline', inOut, '/', n);
