/**
 * Writes the Brussels risk samples (issue 15) as GeoJSON in Belgian Lambert 72 (EPSG:31370,
 * declared by the `crs` member): Bruxelles Environnement's flood hazard zones and soil-status
 * parcels, drawn around the Grand-Place and the Senne valley with shared edges, so that tests
 * can stand on both sides of each. Run: npx tsx datasets/be/make-risk-samples.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import proj4 from 'proj4';

const here = dirname(fileURLToPath(import.meta.url));
proj4.defs('EPSG:31370', '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs');

type Ring = [number, number][];
const box = (w: number, s: number, e: number, n: number): Ring => [[w, s], [e, s], [e, n], [w, n], [w, s]];
const lambert72 = (r: Ring) => r.map(([x, y]) => (proj4('EPSG:4326', 'EPSG:31370', [x, y]) as number[]).map((v) => Math.round(v * 100) / 100));

function geojson(file: string, name: string, features: { props: Record<string, unknown>; ring: Ring }[]): void {
  const fc = {
    type: 'FeatureCollection', name,
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::31370' } },
    features: features.map((f) => ({ type: 'Feature', properties: f.props, geometry: { type: 'Polygon', coordinates: [lambert72(f.ring)] } })),
  };
  writeFileSync(join(here, file), `${JSON.stringify(fc, null, 1)}\n`);
}

// The Senne valley under the central boulevards, west of the Grand-Place: high hazard in the
// valley bottom, medium then low up the slope towards the Grand-Place (shared edges), which stays
// outside every zone.
geojson('brussels-flood/alea_inondation.geojson', 'alea_inondation', [
  { props: { ID: 1101, ALEA_FR: 'Aléa élevé', ALEA_NL: 'Hoog gevaar' }, ring: box(4.3440, 50.8440, 4.3475, 50.8490) },
  { props: { ID: 1102, ALEA_FR: 'Aléa moyen', ALEA_NL: 'Middelmatig gevaar' }, ring: box(4.3475, 50.8440, 4.3495, 50.8490) },
  { props: { ID: 1103, ALEA_FR: 'Aléa faible', ALEA_NL: 'Laag gevaar' }, ring: box(4.3495, 50.8440, 4.3510, 50.8490) },
]);

// Parcels around the Grand-Place: under treatment (4) sharing an edge with a parcel recognised as
// unpolluted (1, never served); polluted without risk (3); presumed polluted (0); 0+1 (suspected);
// 2+4 (under treatment); one beyond 500 m of the Grand-Place.
geojson('brussels-soil/inventaire_etat_sol.geojson', 'inventaire_etat_sol', [
  { props: { CAPAKEY: '21004A0123/00B000', CATEGORIE: '4', DATE_MAJ: '2024-02-12' }, ring: box(4.3540, 50.8460, 4.3550, 50.8466) },
  { props: { CAPAKEY: '21004A0124/00C000', CATEGORIE: '1', DATE_MAJ: '2023-11-03' }, ring: box(4.3550, 50.8460, 4.3560, 50.8466) },
  { props: { CAPAKEY: '21004A0311/00D002', CATEGORIE: '3', DATE_MAJ: '2022-06-20' }, ring: box(4.3500, 50.8478, 4.3508, 50.8483) },
  { props: { CAPAKEY: '21004A0412/00A000', CATEGORIE: '0', DATE_MAJ: '2021-09-01' }, ring: box(4.3530, 50.8440, 4.3537, 50.8445) },
  { props: { CAPAKEY: '21004A0413/00F000', CATEGORIE: '0+1', DATE_MAJ: '2021-09-01' }, ring: box(4.3537, 50.8440, 4.3544, 50.8445) },
  { props: { CAPAKEY: '21004B0721/00K000', CATEGORIE: '2+4', DATE_MAJ: '2024-05-30' }, ring: box(4.3600, 50.8500, 4.3610, 50.8506) },
]);
