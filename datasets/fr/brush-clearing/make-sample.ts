/**
 * Writes the brush-clearing obligation sample (OLD zones) as GeoJSON in Lambert-93: two zones
 * sharing an edge in the pine forest south of Abzac (Gironde).
 * Run: npx tsx datasets/fr/brush-clearing/make-sample.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';

const here = dirname(fileURLToPath(import.meta.url));
const toL93 = fromWgs84('EPSG:2154');
type Ring = [number, number][];
const box = (w: number, s: number, e: number, n: number): Ring => [[w, s], [e, s], [e, n], [w, n], [w, s]];
const l93 = (r: Ring) => r.map((p) => toL93(p).map((v) => Math.round(v * 100) / 100));
const features = [
  { props: { id_zone: 'OLD-33-000101', insee_com: '33001' }, ring: box(-0.135, 45.000, -0.120, 45.010) },
  { props: { id_zone: 'OLD-33-000102', insee_com: '33001' }, ring: box(-0.120, 45.000, -0.110, 45.010) },
];
const fc = {
  type: 'FeatureCollection', name: 'zonage_old',
  crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
  features: features.map((f) => ({ type: 'Feature', properties: f.props, geometry: { type: 'Polygon', coordinates: [l93(f.ring)] } })),
};
writeFileSync(join(here, 'zonage_old.geojson'), `${JSON.stringify(fc, null, 1)}\n`);
