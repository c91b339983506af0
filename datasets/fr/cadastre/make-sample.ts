/**
 * Writes the cadastre sample: `cadastre-<insee>-parcelles.json` for the Paris arrondissements and
 * Abzac of the BAN sample (`cadastre-33001-parcelles.json.gz` gzipped, as Etalab serves them).
 * One parcel per parcel id of the BAN (`cad_parcelles`) and DVF samples, placed around the points
 * that name it (the BAN address, the DVF parcel centres): the Voronoi cell of its seed among the
 * commune's parcels, cut to a square around the seed, so parcels never overlap and each contains
 * its address. Two parcels have no `contenance`, as some published parcels do.
 * Run: npx tsx datasets/fr/cadastre/make-sample.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { area, bbox, booleanPointInPolygon, featureCollection, intersect, point, polygon, voronoi } from '@turf/turf';
import type { Feature, Polygon } from 'geojson';

const HERE = import.meta.dirname;
const COMMUNES = ['75103', '75104', '75111', '75112', '75113', '33001'];
const NO_CONTENANCE = new Set(['75111000AQ0029', '33001000XK0052']);

const points = new Map<string, [number, number][]>();
/** The BAN address of a parcel is its seed: the address must fall in its parcel. */
const banPoint = new Map<string, [number, number]>();
const add = (id: string, lng: number, lat: number) => {
  if (!id || !Number.isFinite(lng) || !Number.isFinite(lat) || !COMMUNES.includes(id.slice(0, 5))) return;
  points.set(id, [...(points.get(id) ?? []), [lng, lat]]);
};
for (const f of ['adresses-75.csv', 'adresses-33.csv']) {
  const [head, ...lines] = readFileSync(join(HERE, '..', 'ban', f), 'utf8').trim().split('\n');
  const cols = head!.split(';');
  for (const c of lines.map((l) => l.split(';'))) {
    const id = c[cols.indexOf('cad_parcelles')]!, lng = Number(c[cols.indexOf('lon')]), lat = Number(c[cols.indexOf('lat')]);
    add(id, lng, lat);
    if (id) banPoint.set(id, [lng, lat]);
  }
}
const dvf = join(HERE, '..', 'dvf', 'csv');
for (const year of readdirSync(dvf)) for (const f of readdirSync(join(dvf, year, 'departements'))) {
  const [head, ...lines] = readFileSync(join(dvf, year, 'departements', f), 'utf8').trim().split('\n');
  const cols = head!.split(',');
  for (const c of lines.map((l) => l.split(','))) {
    const lng = c[cols.indexOf('longitude')]!, lat = c[cols.indexOf('latitude')]!;
    if (lng !== '' && lat !== '') add(c[cols.indexOf('id_parcelle')]!, Number(lng), Number(lat));
  }
}

const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
let outside = 0;
for (const commune of COMMUNES) {
  const ids = [...points.keys()].filter((id) => id.startsWith(commune)).sort();
  const seeds = ids.map((id) => {
    const ps = points.get(id)!;
    if (banPoint.has(id)) return point(banPoint.get(id)!, { id });
    return point([ps.reduce((s, p) => s + p[0], 0) / ps.length, ps.reduce((s, p) => s + p[1], 0) / ps.length], { id });
  });
  const half = commune.startsWith('75') ? 0.00018 : 0.0006; // about 13 m in Paris, 45 m in Abzac
  const [x0, y0, x1, y1] = bbox(featureCollection(seeds));
  const cells = voronoi(featureCollection(seeds), { bbox: [x0 - 2 * half, y0 - 2 * half, x1 + 2 * half, y1 + 2 * half] });
  const lines: string[] = [];
  seeds.forEach((seed, i) => {
    const id = seed.properties.id as string;
    const [cx, cy] = seed.geometry.coordinates as [number, number];
    const square = polygon([[[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half], [cx - half, cy - half]]]);
    const cut = intersect(featureCollection([cells.features[i] as Feature<Polygon>, square])) as Feature<Polygon>;
    const ring = cut.geometry.coordinates[0]!.map(([x, y]) => [r7(x!), r7(y!)]);
    const geometry: Polygon = { type: 'Polygon', coordinates: [ring] };
    for (const p of points.get(id)!) if (!booleanPointInPolygon(p, geometry)) outside++;
    if (banPoint.has(id) && !booleanPointInPolygon(banPoint.get(id)!, geometry)) throw new Error(`the BAN address of ${id} falls outside its parcel`);
    const properties: Record<string, unknown> = { id, commune, prefixe: id.slice(5, 8), section: id.slice(8, 10), numero: String(Number(id.slice(10))) };
    if (!NO_CONTENANCE.has(id)) properties.contenance = Math.round(area(geometry));
    Object.assign(properties, { arpente: false, created: '2007-01-23', updated: '2024-01-10' });
    lines.push(JSON.stringify({ type: 'Feature', id, geometry, properties }));
  });
  const text = `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}]}`;
  if (commune === '33001') writeFileSync(join(HERE, `cadastre-${commune}-parcelles.json.gz`), gzipSync(text, { level: 9, mtime: 0 } as never));
  else writeFileSync(join(HERE, `cadastre-${commune}-parcelles.json`), text);
  console.log(`cadastre-${commune}: ${lines.length} parcels`);
}
console.log(`${outside} published points fall outside their parcel (a DVF centre nearer another parcel's seed)`);
