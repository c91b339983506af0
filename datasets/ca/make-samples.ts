/**
 * Writes the Quebec samples in the producers' published layouts: SDA layers (regio_s, munic_s,
 * arron_s; NAD83 geographic), MAMH's MUN.csv, Statistics Canada's forward sortation areas
 * (EPSG:3347), rental-survey neighbourhoods, and Adresses Québec civic addresses (EPSG:32198).
 * Outlines are hand-drawn around the real places; streets and positions are real.
 * Run: npx tsx datasets/ca/make-samples.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import proj4 from 'proj4';
import { writePolygonShapefile, type DbfField, type MultiPolygonCoords } from '../fr/tools/shapefile-writer.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATE = new Date(Date.UTC(2024, 2, 15));
proj4.defs('EPSG:3347', '+proj=lcc +lat_0=63.390675 +lon_0=-91.8666666666667 +lat_1=49 +lat_2=77 +x_0=6200000 +y_0=3000000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');
proj4.defs('EPSG:32198', '+proj=lcc +lat_0=44 +lon_0=-68.5 +lat_1=60 +lat_2=46 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');

const PRJ_NAD83 = 'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const PRJ_STATCAN = 'PROJCS["NAD_1983_Statistics_Canada_Lambert",GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",6200000.0],PARAMETER["False_Northing",3000000.0],PARAMETER["Central_Meridian",-91.86666666666666],PARAMETER["Standard_Parallel_1",49.0],PARAMETER["Standard_Parallel_2",77.0],PARAMETER["Latitude_Of_Origin",63.390675],UNIT["Meter",1.0]]';

type Ring = [number, number][];
const box = (w: number, s: number, e: number, n: number): Ring => [[w, s], [e, s], [e, n], [w, n], [w, s]];
// Rivière des Prairies, west to east: the shared edge of the Island of Montréal (south) and Laval (north).
const RIVER: Ring = [[-73.97, 45.47], [-73.80, 45.505], [-73.70, 45.535], [-73.62, 45.585], [-73.52, 45.665], [-73.47, 45.70]];
const ISLAND: Ring = [[-73.97, 45.47], [-73.95, 45.42], [-73.75, 45.42], [-73.60, 45.45], [-73.53, 45.52], [-73.47, 45.63], ...[...RIVER].reverse()];
const LAVAL: Ring = [...RIVER, [-73.53, 45.73], [-73.70, 45.69], [-73.88, 45.60], [-73.97, 45.53], [-73.97, 45.47]];
const poly = (ring: Ring): MultiPolygonCoords => [[ring]];

function sda(): void {
  const regionFields: DbfField[] = [
    { name: 'RES_NO_IND', type: 'C', length: 14 }, { name: 'RES_DE_IND', type: 'C', length: 40 }, { name: 'RES_CO_REG', type: 'C', length: 2 },
    { name: 'RES_NM_REG', type: 'C', length: 64 }, { name: 'RES_CO_REF', type: 'C', length: 8 }, { name: 'RES_CO_VER', type: 'C', length: 8 },
  ];
  writePolygonShapefile(join(here, 'sda/regio_s'), [
    { geometry: poly(ISLAND), properties: { RES_NO_IND: '50 02 0100 000', RES_DE_IND: 'Région administrative', RES_CO_REG: '06', RES_NM_REG: 'Montréal', RES_CO_REF: 'BDGA1M', RES_CO_VER: 'V2024-03' } },
    { geometry: poly(LAVAL), properties: { RES_NO_IND: '50 02 0100 000', RES_DE_IND: 'Région administrative', RES_CO_REG: '13', RES_NM_REG: 'Laval', RES_CO_REF: 'BDGA1M', RES_CO_VER: 'V2024-03' } },
  ], { fields: regionFields, prj: PRJ_NAD83, date: DATE });
  const munFields: DbfField[] = [
    { name: 'MUS_CO_GEO', type: 'C', length: 5 }, { name: 'MUS_NM_MUN', type: 'C', length: 64 }, { name: 'MUS_CO_DES', type: 'C', length: 3 },
    { name: 'MUS_CO_MRC', type: 'C', length: 3 }, { name: 'MUS_NM_MRC', type: 'C', length: 64 }, { name: 'MUS_CO_REG', type: 'C', length: 2 }, { name: 'MUS_NM_REG', type: 'C', length: 64 },
  ];
  writePolygonShapefile(join(here, 'sda/munic_s'), [
    // The City of Montréal drawn over the whole island: the villes liées are left out of this sample.
    { geometry: poly(ISLAND), properties: { MUS_CO_GEO: '66023', MUS_NM_MUN: 'Montréal', MUS_CO_DES: 'V', MUS_CO_MRC: '66', MUS_NM_MRC: 'Montréal', MUS_CO_REG: '06', MUS_NM_REG: 'Montréal' } },
    { geometry: poly(LAVAL), properties: { MUS_CO_GEO: '65005', MUS_NM_MUN: 'Laval', MUS_CO_DES: 'V', MUS_CO_MRC: '65', MUS_NM_MRC: 'Laval', MUS_CO_REG: '13', MUS_NM_REG: 'Laval' } },
  ], { fields: munFields, prj: PRJ_NAD83, date: DATE });
  const arrFields: DbfField[] = [
    { name: 'ARS_CO_ARR', type: 'C', length: 5 }, { name: 'ARS_NM_ARR', type: 'C', length: 64 }, { name: 'ARS_CO_MUN', type: 'C', length: 5 }, { name: 'ARS_NM_MUN', type: 'C', length: 64 },
  ];
  writePolygonShapefile(join(here, 'sda/arron_s'), [
    { geometry: poly(box(-73.597, 45.512, -73.562, 45.537)), properties: { ARS_CO_ARR: 'REM21', ARS_NM_ARR: 'Le Plateau-Mont-Royal', ARS_CO_MUN: '66023', ARS_NM_MUN: 'Montréal' } },
    { geometry: poly(box(-73.66, 45.46, -73.60, 45.51)), properties: { ARS_CO_ARR: 'REM34', ARS_NM_ARR: 'Côte-des-Neiges–Notre-Dame-de-Grâce', ARS_CO_MUN: '66023', ARS_NM_MUN: 'Montréal' } },
  ], { fields: arrFields, prj: PRJ_NAD83, date: DATE });
}

/** MUN.csv: all 123 columns of MAMH's layout, quoted, UTF-8 with BOM; the columns the service reads are filled. */
function mun(): void {
  const cols = ['mcode', 'munnom', 'madr1', 'madr2', 'madr3', 'madr4', 'mcodpos', 'mcourriel', 'mweb', 'mtel', 'mfax', 'mcodedesi', 'mdes', 'mgentile', 'regadm', 'divrec', 'mrc', 'admregionale', 'horsmrcautoch', 'mdatcons', 'mdatregi', 'msuperf', 'mpopul', 'datelec', 'electype', 'delectype', 'elecmode', 'delecmode', 'divter', 'mcm', 'mcirc', 'msupft', 'maire',
    ...Array.from({ length: 75 }, (_, i) => `con${i + 1}`), 'dirgen', 'dirsecpub', 'tres', 'gref', 'sectres', 'polic', 'incen', 'loisir', 'trvpub', 'mesurg', 'urban', 'communic', 'permis', 'batim', 'nd'];
  const rows: Record<string, string>[] = [
    { mcode: '66023', munnom: 'Montréal', madr1: '275, rue Notre-Dame E.', madr2: 'Montréal', mcodpos: 'H2Y1C6', mweb: 'www.montreal.ca', mcodedesi: '10', mdes: 'Ville', regadm: 'Montréal (06)', divrec: 'Montréal (66)', mrc: '', horsmrcautoch: 'non', msuperf: '431.5', mpopul: '1948747' },
    { mcode: '65005', munnom: 'Laval', madr1: '3131, boulevard Saint-Martin O., Étage 5e', madr2: 'Laval', mcodpos: 'H7V3Z4', mweb: 'www.laval.ca', mcodedesi: '10', mdes: 'Ville', regadm: 'Laval (13)', divrec: 'Laval (65)', mrc: '', horsmrcautoch: 'non', msuperf: '266.97', mpopul: '458981' },
    { mcode: '46005', munnom: 'Abercorn', madr1: '10, rue des Églises O.', madr2: 'Abercorn', mcodpos: 'J0E1B0', mweb: 'www.abercorn.ca', mcodedesi: '06', mdes: 'Village', regadm: 'Estrie (05)', divrec: 'Brome-Missisquoi (46)', mrc: 'MRC Brome-Missisquoi (460)', msuperf: '26.97', mpopul: '356' },
  ];
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const text = [cols.map(q).join(','), ...rows.map((r) => cols.map((c) => q(r[c] ?? '')).join(','))].join('\n');
  writeFileSync(join(here, 'mun/MUN.csv'), `\uFEFF${text}\n`);
}

function fsa(): void {
  const fields: DbfField[] = [
    { name: 'CFSAUID', type: 'C', length: 3 }, { name: 'DGUID', type: 'C', length: 21 }, { name: 'PRUID', type: 'C', length: 2 },
    { name: 'PRNAME', type: 'C', length: 100 }, { name: 'LANDAREA', type: 'N', length: 17, decimals: 4 },
  ];
  const lambert = (r: Ring): MultiPolygonCoords => [[r.map(([x, y]) => (proj4('EPSG:4326', 'EPSG:3347', [x, y]) as [number, number]).map((v) => Math.round(v * 100) / 100) as [number, number])]];
  const QC = 'Quebec / Québec';
  const areas: [string, string, string, Ring, number][] = [
    ['H2T', '24', QC, box(-73.605, 45.522, -73.575, 45.537), 2.9],
    ['H2W', '24', QC, box(-73.590, 45.512, -73.562, 45.522), 2.1],
    ['H3T', '24', QC, box(-73.635, 45.490, -73.600, 45.510), 3.4],
    ['H4A', '24', QC, box(-73.635, 45.460, -73.600, 45.480), 3.9],
    ['H7V', '24', QC, box(-73.76, 45.54, -73.70, 45.58), 14.2],
    // Vaudreuil-Soulanges: its west edge is the Ontario border (Pointe-Fortune to Lake Saint-François).
    ['J0P', '24', QC, [[-74.39, 45.56], [-74.36, 45.2], [-74.0, 45.2], [-74.0, 45.56], [-74.39, 45.56]], 812.6],
    ['K0B', '35', 'Ontario', [[-74.8, 45.56], [-74.8, 45.2], [-74.36, 45.2], [-74.39, 45.56], [-74.8, 45.56]], 1403.5],
  ];
  writePolygonShapefile(join(here, 'fsa/lfsa000b21a_e'), areas.map(([code, pr, name, ring, area]) => ({
    geometry: lambert(ring), properties: { CFSAUID: code, DGUID: `2021A0011${pr}${code}`, PRUID: pr, PRNAME: name, LANDAREA: area },
  })), { fields, prj: PRJ_STATCAN, date: DATE });
}

function rental(): void {
  const fields: DbfField[] = [
    { name: 'REGION_ENQ', type: 'C', length: 3 }, { name: 'NOM_REGION', type: 'C', length: 80 }, { name: 'QUARTIER', type: 'C', length: 3 }, { name: 'NOM_QUARTI', type: 'C', length: 100 },
  ];
  writePolygonShapefile(join(here, 'rental-areas/quartiers_enquete_locative'), [
    { geometry: poly(box(-73.62, 45.505, -73.555, 45.545)), properties: { REGION_ENQ: '1', NOM_REGION: 'Île de Montréal', QUARTIER: '5', NOM_QUARTI: 'Plateau-Mont-Royal / Mile End / Outremont' } },
    { geometry: poly(box(-73.68, 45.45, -73.595, 45.505)), properties: { REGION_ENQ: '1', NOM_REGION: 'Île de Montréal', QUARTIER: '9', NOM_QUARTI: 'Côte-des-Neiges / Notre-Dame-de-Grâce / Hampstead / Côte-Saint-Luc' } },
    { geometry: poly(LAVAL), properties: { REGION_ENQ: '2', NOM_REGION: 'Laval', QUARTIER: '1', NOM_QUARTI: 'Laval' } },
  ], { fields, prj: PRJ_NAD83, date: DATE });
}

/** Adresses Québec civic addresses, CSV export of the layer, Quebec Lambert (EPSG:32198). */
function adresses(): void {
  const header = 'IdAdr,NoCivq,SufxNoCivq,Generique,Liaison,Specifique,Direction,CodeMun,NomMun,CodePostal,X,Y';
  const rows: [number, string, string, string, string, string, string, string, string, string, number, number][] = [
    [1354021, '4115', '', 'rue', '', 'Saint-Denis', '', '66023', 'Montréal', 'H2W2M7', 45.52050, -73.57900],
    [1354022, '4117', '', 'rue', '', 'Saint-Denis', '', '66023', 'Montréal', 'H2W2M7', 45.52058, -73.57906],
    [1354027, '4129', '', 'rue', '', 'Saint-Denis', '', '66023', 'Montréal', 'H2W2M7', 45.52082, -73.57924],
    [1360551, '200', '', 'avenue', 'du', 'Mont-Royal', 'Est', '66023', 'Montréal', 'H2T1P1', 45.52350, -73.58550],
    [1360560, '220', '', 'avenue', 'du', 'Mont-Royal', 'Est', '66023', 'Montréal', 'H2T1P1', 45.52368, -73.58512],
    [1361877, '4500', '', 'boulevard', '', 'Saint-Laurent', '', '66023', 'Montréal', 'H2T1R2', 45.52300, -73.58850],
    [1420115, '3101', '', 'boulevard', '', 'Édouard-Montpetit', '', '66023', 'Montréal', 'H3T1K3', 45.50116, -73.61550],
    [1420986, '5400', '', 'chemin', 'de la', 'Côte-des-Neiges', '', '66023', 'Montréal', 'H3T1Y2', 45.49700, -73.62300],
    [1433412, '5100', '', 'rue', '', 'Sherbrooke', 'Ouest', '66023', 'Montréal', 'H4A1T1', 45.47200, -73.61450],
    [2210457, '1', '', 'place', 'du', 'Souvenir', '', '65005', 'Laval', 'H7V1W7', 45.55690, -73.72110],
  ];
  const lines = rows.map(([id, no, suf, gen, liaison, spec, dir, code, mun, cp, lat, lng]) => {
    const [x, y] = (proj4('EPSG:4326', 'EPSG:32198', [lng, lat]) as [number, number]).map((v) => v.toFixed(2));
    return [id, no, suf, gen, liaison, spec, dir, code, mun, cp, x, y].join(',');
  });
  writeFileSync(join(here, 'adresses-quebec/AQ_adresses.csv'), `${header}\n${lines.join('\n')}\n`);
}

/** Montreal's assessment roll units (uniteevaluationfonciere.csv): text quoted, numbers bare, civic numbers right-aligned. */
function roll(): void {
  const header = 'ID_UEV,CIVIQUE_DEBUT,CIVIQUE_FIN,NOM_RUE,SUITE_DEBUT,MUNICIPALITE,ETAGE_HORS_SOL,NOMBRE_LOGEMENT,ANNEE_CONSTRUCTION,CODE_UTILISATION,LETTRE_DEBUT,LETTRE_FIN,LIBELLE_UTILISATION,CATEGORIE_UEF,MATRICULE83,SUPERFICIE_TERRAIN,SUPERFICIE_BATIMENT,NO_ARROND_ILE_CUM';
  const q = (v: string) => `"${v}"`;
  const civic = (n: string) => q(n.padStart(5, ' '));
  const rows: [string, string, string, string, string, number, number, number, string, string, string, string, number, number][] = [
    // 4115 is in Adresses Québec: the roll adds nothing there.
    ['01042801', '4115', '4115', 'rue Saint-Denis  (MTL)', '', 3, 3, 1905, '1000', 'Logement', 'Régulier', '9842-90-1146-2-000-0000', 180, 402],
    // 4121 (two condominium units) and 4125 are missing from the official addresses.
    ['05210311', '4121', '4121', 'rue Saint-Denis  (MTL)', '    1', 3, 1, 1905, '1000', 'Logement', 'Condominium', '9842-90-1352-5-001-0001', 61, 88],
    ['05210312', '4121', '4121', 'rue Saint-Denis  (MTL)', '    2', 3, 1, 1905, '1000', 'Logement', 'Condominium', '9842-90-1352-5-001-0002', 61, 91],
    ['01042805', '4125', '4127', 'rue Saint-Denis  (MTL)', '', 3, 2, 1910, '1000', 'Logement', 'Régulier', '9842-90-1558-9-000-0000', 176, 355],
    ['01051730', '210', '214', 'avenue du Mont-Royal Est  (MTL)', '', 3, 2, 1912, '5010', 'Immeuble commercial', 'Régulier', '9842-81-4923-7-000-0000', 205, 520],
  ];
  const lines = rows.map(([id, from, to, street, suite, floors, dwellings, year, use, label, cat, matricule, land, building]) =>
    [q(id), civic(from), civic(to), q(street), suite ? q(suite) : '', q('50'), floors, dwellings, year, q(use), '', '', q(label), q(cat), q(matricule), land, building, q('REM21')].join(','));
  writeFileSync(join(here, 'role-montreal/uniteevaluationfonciere.csv'), `${header}\n${lines.join('\n')}\n`);
}

sda();
mun();
roll();
fsa();
rental();
adresses();
console.log('ca samples written');
