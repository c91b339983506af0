import { readFileSync } from 'node:fs';
import * as turf from '@turf/turf';
const real = JSON.parse(readFileSync('/work/shared/realdata/fr/boundaries/paris_arrondissements_opendataparis.geojson', 'utf8'));
function realArm(p: [number, number]): string {
  for (const f of real.features) if (turf.booleanPointInPolygon(turf.point(p), f)) return String(f.properties.c_arinsee).slice(3);
  return 'OUT';
}
const specs = process.argv.slice(2); // lat:48.843:2.355:2.375 or lon:2.368:48.86:48.875
for (const s of specs) {
  const [kind, fixed, a, b] = s.split(':'); const f = +fixed, lo = +a, hi = +b;
  const step = kind === 'lat' ? 0.0003 : 0.0002; let prev = ''; let out = `${kind}=${fixed}: `;
  for (let v = lo; v <= hi; v += step) { const p: [number, number] = kind === 'lat' ? [v, f] : [f, v]; const r = realArm(p); if (r !== prev) { out += `${v.toFixed(4)}→${r} `; prev = r; } }
  console.log(out);
}
