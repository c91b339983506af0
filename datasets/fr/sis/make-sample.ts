/**
 * Writes the SIS sample (soil information areas) as GeoJSON in Lambert-93: two areas in Paris 11e
 * sharing an edge, one near the report point of the 3e (not containing it).
 * Run: npx tsx datasets/fr/sis/make-sample.ts
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
const features: { props: Record<string, unknown>; ring: Ring }[] = [
  { props: { id_sis: '75SIS06001', nom: 'Ancienne teinturerie rue Amelot', adresse: '60 rue Amelot 75011 Paris', code_insee: '75111', date_maj: '2022-03-18' }, ring: box(2.3680, 48.8590, 2.3692, 48.8597) },
  { props: { id_sis: '75SIS06002', nom: 'Ancien atelier de traitement de surface', adresse: '10 passage Saint-Pierre Amelot 75011 Paris', code_insee: '75111', date_maj: '2021-11-05' }, ring: box(2.3692, 48.8590, 2.3702, 48.8597) },
  { props: { id_sis: '75SIS03004', nom: 'Ancien garage rue de Bretagne', adresse: '40 rue de Bretagne 75003 Paris', code_insee: '75103', date_maj: '2020-06-30' }, ring: box(2.3615, 48.8628, 2.3622, 48.8633) },
];
const fc = {
  type: 'FeatureCollection', name: 'sis',
  crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
  features: features.map((f) => ({ type: 'Feature', properties: f.props, geometry: { type: 'Polygon', coordinates: [l93(f.ring)] } })),
};
writeFileSync(join(here, 'sis.geojson'), `${JSON.stringify(fc, null, 1)}\n`);
