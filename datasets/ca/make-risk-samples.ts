/**
 * Writes the Quebec risk samples (issue 15) in the layouts the producers publish, as far as we
 * could read them: flood zones, landslide and coastal-erosion constraint zones as GeoJSON in
 * NAD83 / Quebec Lambert (EPSG:32198, declared by the `crs` member), and the Répertoire des
 * terrains contaminés as a GeoPackage (layer `point`, table `detailsFiches`). Outlines are
 * drawn for the demo, sharing edges so that tests can stand on both sides of each.
 * Run: npx tsx datasets/ca/make-risk-samples.ts
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import proj4 from 'proj4';
import initSqlJs from 'sql.js';

const here = dirname(fileURLToPath(import.meta.url));
proj4.defs('EPSG:32198', '+proj=lcc +lat_0=44 +lon_0=-68.5 +lat_1=60 +lat_2=46 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');

type Ring = [number, number][];
const box = (w: number, s: number, e: number, n: number): Ring => [[w, s], [e, s], [e, n], [w, n], [w, s]];
const lambert = (r: Ring) => r.map(([x, y]) => (proj4('EPSG:4326', 'EPSG:32198', [x, y]) as number[]).map((v) => Math.round(v * 100) / 100));

function geojson(file: string, name: string, features: { props: Record<string, unknown>; ring: Ring }[]): void {
  const fc = {
    type: 'FeatureCollection', name,
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32198' } },
    features: features.map((f) => ({ type: 'Feature', properties: f.props, geometry: { type: 'Polygon', coordinates: [lambert(f.ring)] } })),
  };
  writeFileSync(join(here, file), `${JSON.stringify(fc, null, 1)}\n`);
}

// Ahuntsic, on the south bank of the Rivière des Prairies: a 0-20 years strip along the river,
// the 20-100 years strip south of it sharing its south edge, and a zone mapped without a return
// period to the east, sharing the east edge of both.
function floodZones(): void {
  geojson('flood-zones/zones_inondables.geojson', 'zones_inondables', [
    { props: { NO_ZONE: 'ZI-66023-0001', TYPE_ZONE: '0-20 ans', MUNICIPALITE: 'Montréal', SOURCE_CARTO: 'Cartographie gouvernementale', DATE_MAJ: '2023-03-31' }, ring: box(-73.666, 45.553, -73.656, 45.557) },
    { props: { NO_ZONE: 'ZI-66023-0002', TYPE_ZONE: '20-100 ans', MUNICIPALITE: 'Montréal', SOURCE_CARTO: 'Cartographie gouvernementale', DATE_MAJ: '2023-03-31' }, ring: box(-73.666, 45.550, -73.656, 45.553) },
    { props: { NO_ZONE: 'ZI-66023-0003', TYPE_ZONE: 'Zone inondable sans cote', MUNICIPALITE: 'Montréal', SOURCE_CARTO: 'Schéma d’aménagement', DATE_MAJ: '2019-06-14' }, ring: box(-73.656, 45.550, -73.650, 45.557) },
  ]);
}

// A slope of the Rivière des Prairies bank east of the flood zones: NA1 on the slope, NS1 at its top.
function landslide(): void {
  geojson('landslide/zones_contraintes_glissements.geojson', 'zones_contraintes_glissements', [
    { props: { NO_ZONE: 'GT-66023-0101', CLASSE: 'NA1', MUNICIPALITE: 'Montréal' }, ring: box(-73.640, 45.566, -73.634, 45.568) },
    { props: { NO_ZONE: 'GT-66023-0102', CLASSE: 'NS1', MUNICIPALITE: 'Montréal' }, ring: box(-73.640, 45.564, -73.634, 45.566) },
  ]);
}

// The island of Montréal has no coastal-erosion sector (they line the estuary and the gulf): the
// sample lies on the south shore of the estuary at Sainte-Flavie, a low cliff and a beach terrace.
function coastalErosion(): void {
  geojson('coastal-erosion/zones_contraintes_erosion_cotiere.geojson', 'zones_contraintes_erosion_cotiere', [
    { props: { NO_ZONE: 'EC-09060-0001', TYPE_COTE: 'Falaise meuble', MUNICIPALITE: 'Sainte-Flavie' }, ring: box(-68.236, 48.606, -68.226, 48.609) },
    { props: { NO_ZONE: 'EC-09060-0002', TYPE_COTE: 'Terrasse de plage', MUNICIPALITE: 'Sainte-Flavie' }, ring: box(-68.226, 48.606, -68.216, 48.609) },
  ]);
}

/** A GeoPackage point geometry: header GP, version 0, flags (little-endian, no envelope), srs_id, then WKB. */
function gpkgPoint(lng: number, lat: number, srs: number): Uint8Array {
  const b = Buffer.alloc(8 + 21);
  b.write('GP', 0, 'latin1'); b.writeUInt8(0, 2); b.writeUInt8(1, 3); b.writeInt32LE(srs, 4);
  b.writeUInt8(1, 8); b.writeUInt32LE(1, 9); b.writeDoubleLE(lng, 13); b.writeDoubleLE(lat, 21);
  return new Uint8Array(b);
}

// Sites around the Plateau (rue Saint-Denis, avenue du Mont-Royal): statuses of every kind, one
// site with two files, one without a file, one beyond 500 m.
async function contaminatedLand(): Promise<void> {
  const require = createRequire(import.meta.url);
  const SQL = await initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
  const db = new SQL.Database();
  db.run('PRAGMA application_id = 1196444487'); // 'GPKG'
  db.run('PRAGMA user_version = 10300');
  db.run(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)`);
  db.run(`INSERT INTO gpkg_spatial_ref_sys VALUES ('NAD83', 4269, 'EPSG', 4269, 'GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4269"]]', NULL)`);
  db.run(`CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL, min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)`);
  db.run(`CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, PRIMARY KEY (table_name, column_name))`);
  db.run(`INSERT INTO gpkg_contents VALUES ('point', 'features', 'point', '', '2024-09-02T00:00:00Z', -73.60, 45.51, -73.56, 45.54, 4269), ('detailsFiches', 'attributes', 'detailsFiches', '', '2024-09-02T00:00:00Z', NULL, NULL, NULL, NULL, NULL)`);
  db.run(`INSERT INTO gpkg_geometry_columns VALUES ('point', 'geom', 'POINT', 4269, 0, 0)`);
  db.run(`CREATE TABLE point (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT, NO_MEF_LIEU TEXT, LATITUDE REAL, LONGITUDE REAL, ADR_CIV_LIEU TEXT, CODE_POST_LIEU TEXT, LST_MRC_REG_ADM TEXT, DESC_MILIEU_RECEPT TEXT, NB_FICHES INTEGER)`);
  db.run(`CREATE TABLE detailsFiches (fid INTEGER PRIMARY KEY AUTOINCREMENT, NO_MEF_LIEU TEXT, NO_SEQ_DOSSIER TEXT, AUTR_ADR_AFF TEXT, CONTAM_EAU_EXTRA TEXT, CONTAM_SOL_EXTRA TEXT, QUAL_SOLS_AV TEXT, ETAT_REHAB TEXT, QUAL_SOLS TEXT, DATE_CRE_MAJ DATE)`);
  const MRC = 'Montréal (66), Montréal (06)';
  const sites: [string, number | null, number | null, string, string, string][] = [
    ['7610-0401', 45.52205, -73.58155, '4200, rue Saint-Denis, Montréal (Québec)', 'H2J 2K8', 'Sol'],
    ['7610-0402', 45.52390, -73.58280, '4450, rue Saint-Denis, Montréal (Québec)', 'H2J 2L1', 'Sol, Eau souterraine'],
    ['7610-0403', 45.52160, -73.57920, '210, avenue du Mont-Royal Est, Montréal (Québec)', 'H2T 1P2', 'Sol'],
    ['7610-0404', 45.51860, -73.58330, '3900, boulevard Saint-Laurent, Montréal (Québec)', 'H2W 1Y2', 'Sol'],
    ['7610-0405', 45.52950, -73.57400, '5000, rue De Lorimier, Montréal (Québec)', 'H2H 2B4', 'Sol'],
  ];
  for (const [id, lat, lng, adr, cp, milieu] of sites) {
    db.run('INSERT INTO point (geom, NO_MEF_LIEU, LATITUDE, LONGITUDE, ADR_CIV_LIEU, CODE_POST_LIEU, LST_MRC_REG_ADM, DESC_MILIEU_RECEPT, NB_FICHES) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [lat === null ? null : gpkgPoint(lng!, lat, 4269), id, lat, lng, adr, cp, MRC, milieu, 1]);
  }
  const files: [string, string, string, string][] = [
    ['7610-0401', '12001', 'Terminée en 2016', '2016-11-08'],
    ['7610-0402', '12002', 'Initiée', '2023-05-17'],
    ['7610-0402', '12003', 'Non débutée', '2021-02-03'],
    ['7610-0403', '12004', 'Non nécessaire', '2019-09-12'],
    ['7610-0405', '12005', 'Non débutée', '2022-01-20'],
  ];
  for (const [id, seq, etat, date] of files) {
    db.run('INSERT INTO detailsFiches (NO_MEF_LIEU, NO_SEQ_DOSSIER, CONTAM_SOL_EXTRA, QUAL_SOLS_AV, ETAT_REHAB, QUAL_SOLS, DATE_CRE_MAJ) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, seq, 'Hydrocarbures pétroliers C10 à C50', '> C', etat, etat.startsWith('Terminée') ? '<= B' : null, date]);
  }
  writeFileSync(join(here, 'contaminated-land/RepertoireTerrainsContamines.gpkg'), db.export());
  db.close();
}

floodZones();
landslide();
coastalErosion();
await contaminatedLand();
