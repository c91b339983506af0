/**
 * Writes the heritage easements sample (SUP assiettes AC1, AC4 and one AC2 left out) as the
 * Géoportail de l'urbanisme's WFS answers a GetFeature of `wfs_sup:assiette_sup_s` in GeoJSON:
 * WGS84 declared by the `crs` member, [lng, lat], MultiPolygons, lower-case attributes.
 * Invented areas drawn around the Paris demo area (README.md).
 * Run: npx tsx datasets/fr/protected-areas/make-sample.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
type Ring = [number, number][];
const r7 = (v: number) => Math.round(v * 1e7) / 1e7;
const closed = (r: Ring): Ring => [...r, r[0]!].map(([x, y]) => [r7(x), r7(y)]);
/** A regular polygon of `n` vertices and `radius` metres around [lng, lat] (local flat approximation). */
function around(lng: number, lat: number, radius: number, n: number): Ring {
  const dLat = radius / 111_320, dLng = radius / (111_320 * Math.cos((lat * Math.PI) / 180));
  return Array.from({ length: n }, (_, i) => [lng + dLng * Math.cos((2 * Math.PI * i) / n), lat + dLat * Math.sin((2 * Math.PI * i) / n)] as [number, number]);
}

// The Marais SPR: its east edge runs between the two sides of the boulevard Beaumarchais (3e inside, 11e outside).
const marais: Ring = [[2.3500, 48.8520], [2.3686, 48.8520], [2.3686, 48.8550], [2.3680, 48.8580], [2.36762, 48.8594], [2.36735, 48.8610], [2.3670, 48.8640], [2.3500, 48.8640]];

const common = { srcgeoass: 'PCI vecteur', datesrcass: '20230101' };
const features: { gid: number; props: Record<string, unknown>; ring: Ring }[] = [
  { gid: 10231, ring: marais, props: { idass: 'AC4-75-1-1-1', idgen: 'AC4-75-1-1', nomass: 'AC4_SPRParisMarais_ass', typeass: 'Périmètre du SPR', modegeoass: 'Digitalisation', paramcalc: null, ...common, suptype: 'ac4', nomsuplitt: 'Site patrimonial remarquable de Paris - Le Marais' } },
  { gid: 20544, ring: around(2.36690, 48.86320, 500, 64), props: { idass: 'AC1-75-2-1-1', idgen: 'AC1-75-2-1', nomass: 'AC1_CirqueHiver_abor', typeass: 'Périmètre des abords', modegeoass: 'Zone tampon', paramcalc: 500, ...common, suptype: 'ac1', nomsuplitt: "Cirque d'Hiver" } },
  { gid: 20545, ring: around(2.36690, 48.86320, 35, 24), props: { idass: 'AC1-75-2-1-2', idgen: 'AC1-75-2-1', nomass: 'AC1_CirqueHiver_mh', typeass: 'Monument historique', modegeoass: 'Digitalisation', paramcalc: null, ...common, suptype: 'ac1', nomsuplitt: "Cirque d'Hiver" } },
  { gid: 30112, ring: [[2.3643, 48.8550], [2.3667, 48.8550], [2.3667, 48.8563], [2.3643, 48.8563]], props: { idass: 'AC2-75-3-1-1', idgen: 'AC2-75-3-1', nomass: 'AC2_PlaceVosges_ass', typeass: 'Enceinte du site', modegeoass: 'Égale au générateur', paramcalc: null, ...common, suptype: 'ac2', nomsuplitt: 'Place des Vosges' } },
];
const fc = {
  type: 'FeatureCollection',
  features: features.map((f) => ({ type: 'Feature', id: `assiette_sup_s.${f.gid}`, geometry: { type: 'MultiPolygon', coordinates: [[closed(f.ring)]] }, geometry_name: 'the_geom', properties: { gid: f.gid, ...f.props } })),
  totalFeatures: features.length, numberMatched: features.length, numberReturned: features.length, timeStamp: '2026-11-02T09:14:27.512Z',
  crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } },
};
writeFileSync(join(here, 'assiette_sup_s.geojson'), `${JSON.stringify(fc)}\n`);
