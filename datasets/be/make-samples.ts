/**
 * Writes the Belgian samples in the producers' published layouts: Statbel statistical sectors
 * (GeoJSON, Lambert 2008), the REFNIS list (CSV, Latin-1) and BeST Address per region (CSV).
 * Outlines are hand-drawn boxes around the real places; streets and positions are real.
 * Run: npx tsx datasets/be/make-samples.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import proj4 from 'proj4';

const here = dirname(fileURLToPath(import.meta.url));
proj4.defs('EPSG:3812', '+proj=lcc +lat_0=50.797815 +lon_0=4.35921583333333 +lat_1=49.8333333333333 +lat_2=51.1666666666667 +x_0=649328 +y_0=665262 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');
proj4.defs('EPSG:31370', '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs');

type Names = { fr: string; nl: string; de: string };
const REGIONS: Record<string, Names> = {
  '04000': { fr: 'Région de Bruxelles-Capitale', nl: 'Brussels Hoofdstedelijk Gewest', de: 'Region Brüssel-Hauptstadt' },
  '02000': { fr: 'Région flamande', nl: 'Vlaams Gewest', de: 'Flämische Region' },
  '03000': { fr: 'Région wallonne', nl: 'Waals Gewest', de: 'Wallonische Region' },
};
const PROVINCES: Record<string, Names> = {
  '20001': { fr: 'Province du Brabant flamand', nl: 'Provincie Vlaams-Brabant', de: 'Provinz Flämisch-Brabant' },
  '20002': { fr: 'Province du Brabant wallon', nl: 'Provincie Waals-Brabant', de: 'Provinz Wallonisch-Brabant' },
};
const ARRONDISSEMENTS: Record<string, Names> = {
  '21000': { fr: 'Arrondissement de Bruxelles-Capitale', nl: 'Arrondissement Brussel-Hoofdstad', de: 'Bezirk Brüssel-Hauptstadt' },
  '23000': { fr: 'Arrondissement de Hal-Vilvorde', nl: 'Arrondissement Halle-Vilvoorde', de: 'Bezirk Halle-Vilvoorde' },
  '25000': { fr: 'Arrondissement de Nivelles', nl: 'Arrondissement Nijvel', de: 'Bezirk Nivelles' },
};
interface Commune { code: string; names: Names; regime: string; region: string; province: string | null }
const COMMUNES: Commune[] = [
  { code: '21004', names: { fr: 'Bruxelles', nl: 'Brussel', de: 'Brüssel' }, regime: 'FN', region: '04000', province: null },
  { code: '21009', names: { fr: 'Ixelles', nl: 'Elsene', de: 'Ixelles' }, regime: 'FN', region: '04000', province: null },
  { code: '23027', names: { fr: 'Hal', nl: 'Halle', de: 'Halle' }, regime: 'N', region: '02000', province: '20001' },
  { code: '23047', names: { fr: 'Machelen', nl: 'Machelen', de: 'Machelen' }, regime: 'N', region: '02000', province: '20001' },
  { code: '25105', names: { fr: 'Tubize', nl: 'Tubeke', de: 'Tubize' }, regime: 'F', region: '03000', province: '20002' },
];

/** Sectors: [code, section code, section names, sector names, [minLng, minLat, maxLng, maxLat]]. */
const SECTORS: [string, string, Names, Names, [number, number, number, number]][] = [
  ['21004A01-', '21004A', { fr: 'Bruxelles', nl: 'Brussel', de: '' }, { fr: 'Grand-Place', nl: 'Grote Markt', de: '' }, [4.335, 50.835, 4.36, 50.865]],
  ['21004A02-', '21004A', { fr: 'Bruxelles', nl: 'Brussel', de: '' }, { fr: 'Martyrs', nl: 'Martelaren', de: '' }, [4.36, 50.835, 4.385, 50.865]],
  ['21004R01-', '21004R', { fr: 'Haren', nl: 'Haren', de: '' }, { fr: 'Haren-Centre', nl: 'Haren-Centrum', de: '' }, [4.40, 50.875, 4.44, 50.905]],
  ['21009A01-', '21009A', { fr: 'Ixelles', nl: 'Elsene', de: '' }, { fr: 'Flagey', nl: 'Flagey', de: '' }, [4.355, 50.81, 4.378, 50.835]],
  ['21009A02-', '21009A', { fr: 'Ixelles', nl: 'Elsene', de: '' }, { fr: 'Etangs', nl: 'Vijvers', de: '' }, [4.378, 50.81, 4.40, 50.835]],
  ['23027A00-', '23027A', { fr: 'Hal', nl: 'Halle', de: '' }, { fr: 'Hal-Centre', nl: 'Halle-Centrum', de: '' }, [4.18, 50.70, 4.28, 50.76]],
  ['23047A00-', '23047A', { fr: 'Machelen', nl: 'Machelen', de: '' }, { fr: 'Machelen-Centre', nl: 'Machelen-Centrum', de: '' }, [4.40, 50.905, 4.46, 50.93]],
  ['25105A00-', '25105A', { fr: 'Tubize', nl: 'Tubeke', de: '' }, { fr: 'Tubize-Centre', nl: 'Tubeke-Centrum', de: '' }, [4.18, 50.66, 4.28, 50.70]],
];

const round = (v: number) => Math.round(v * 100) / 100;
const lambert = (crs: string, lng: number, lat: number) => (proj4('EPSG:4326', crs, [lng, lat]) as [number, number]).map(round) as [number, number];
const orNull = (s: string) => (s === '' ? null : s);

function sectorsGeoJson(): string {
  const features = SECTORS.map(([code, section, sectionNames, names, [a, b, c, d]]) => {
    const commune = COMMUNES.find((m) => code.startsWith(m.code))!;
    const arr = `${commune.code.slice(0, 2)}000`;
    const ring = [[a, b], [c, b], [c, d], [a, d], [a, b]].map(([x, y]) => lambert('EPSG:3812', x!, y!));
    return {
      type: 'Feature',
      properties: {
        CD_SECTOR: code, TX_SECTOR_DESCR_NL: names.nl, TX_SECTOR_DESCR_FR: names.fr, TX_SECTOR_DESCR_DE: orNull(names.de),
        CD_SUB_MUNTY: section, TX_SUB_MUNTY_NL: sectionNames.nl, TX_SUB_MUNTY_FR: sectionNames.fr,
        CD_MUNTY_REFNIS: commune.code, TX_MUNTY_DESCR_NL: commune.names.nl, TX_MUNTY_DESCR_FR: commune.names.fr, TX_MUNTY_DESCR_DE: commune.names.de,
        CD_DSTR_REFNIS: arr, TX_ADM_DSTR_DESCR_NL: ARRONDISSEMENTS[arr]!.nl, TX_ADM_DSTR_DESCR_FR: ARRONDISSEMENTS[arr]!.fr,
        CD_PROV_REFNIS: commune.province, TX_PROV_DESCR_NL: commune.province ? PROVINCES[commune.province]!.nl : null, TX_PROV_DESCR_FR: commune.province ? PROVINCES[commune.province]!.fr : null,
        CD_RGN_REFNIS: commune.region, TX_RGN_DESCR_NL: REGIONS[commune.region]!.nl, TX_RGN_DESCR_FR: REGIONS[commune.region]!.fr,
        CD_COUNTRY: 'BE', CD_NUTS1: null, CD_NUTS2: null, CD_NUTS3: null,
      },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
  });
  const lines = features.map((f) => JSON.stringify(f));
  return `{\n"type": "FeatureCollection",\n"name": "sh_statbel_statistical_sectors_3812_20240101",\n"crs": { "type": "name", "properties": { "name": "urn:ogc:def:crs:EPSG::3812" } },\n"features": [\n${lines.join(',\n')}\n]\n}\n`;
}

function refnisCsv(): Buffer {
  const rows = ['Code INS;Entités administratives;Langue;Code NIS;Administratieve eenheden;Taal;;;;;;;;;', '01000;ROYAUME;;01000;HET RIJK;;;;;;;;;;'];
  const entity = (code: string, n: Names, lang = '', taal = '') => `${code};${n.fr};${lang};${code};${n.nl};${taal};;;;;;;;;`;
  const upper = (n: Names) => ({ fr: n.fr.toUpperCase(), nl: n.nl.toUpperCase(), de: n.de });
  rows.push(entity('04000', upper(REGIONS['04000']!)), entity('21000', ARRONDISSEMENTS['21000']!));
  for (const c of COMMUNES.filter((m) => m.region === '04000')) rows.push(entity(c.code, c.names, c.regime, [...c.regime].reverse().join('')));
  rows.push(entity('02000', upper(REGIONS['02000']!)), entity('20001', PROVINCES['20001']!), entity('23000', ARRONDISSEMENTS['23000']!));
  for (const c of COMMUNES.filter((m) => m.region === '02000')) rows.push(entity(c.code, c.names, c.regime, c.regime));
  rows.push(entity('03000', upper(REGIONS['03000']!)), entity('20002', PROVINCES['20002']!), entity('25000', ARRONDISSEMENTS['25000']!));
  for (const c of COMMUNES.filter((m) => m.region === '03000')) rows.push(entity(c.code, c.names, c.regime, c.regime));
  return iconv.encode(`${rows.join('\n')}\n`, 'latin1');
}

/** BeST: [id, number, box, commune, postcode, postname fr/nl/de, street id, street fr/nl/de, lat, lng]. */
type Best = [number, string, string, string, string, [string, string, string], number, [string, string, string], number, number];
const BEST: Record<'bru' | 'vlg' | 'wal', Best[]> = {
  bru: [
    [2006131, '1', '', '21004', '1000', ['Bruxelles', 'Brussel', ''], 11243, ['Grand-Place', 'Grote Markt', ''], 50.84655, 4.35225],
    [2006140, '10', '', '21004', '1000', ['Bruxelles', 'Brussel', ''], 11243, ['Grand-Place', 'Grote Markt', ''], 50.84700, 4.35290],
    [2010257, '61', '', '21004', '1000', ['Bruxelles', 'Brussel', ''], 11318, ['Rue du Marché aux Herbes', 'Grasmarkt', ''], 50.84770, 4.35400],
    [2012880, '123', '', '21004', '1000', ['Bruxelles', 'Brussel', ''], 11447, ['Rue Neuve', 'Nieuwstraat', ''], 50.85350, 4.35700],
    [2031774, '500', '', '21004', '1130', ['Haren', 'Haren', ''], 12510, ['Rue de Verdun', 'Verdunstraat', ''], 50.88720, 4.41800],
    [2107415, '18', '', '21009', '1050', ['Ixelles', 'Elsene', ''], 31552, ['Place Eugène Flagey', 'Eugène Flageyplein', ''], 50.82750, 4.37230],
    [2105032, '227', '', '21009', '1050', ['Ixelles', 'Elsene', ''], 31390, ["Chaussée d'Ixelles", 'Elsensesteenweg', ''], 50.83020, 4.36990],
    [2102288, '50', '2', '21009', '1050', ['Ixelles', 'Elsene', ''], 31107, ['Rue du Bailli', 'Baljuwstraat', ''], 50.82450, 4.35950],
  ],
  vlg: [
    [4196551, '1', '', '23027', '1500', ['', 'Halle', ''], 97041, ['', 'Grote Markt', ''], 50.73390, 4.23470],
    [4196580, '10', '', '23027', '1500', ['', 'Halle', ''], 97012, ['', 'Basiliekstraat', ''], 50.73460, 4.23580],
    [4213307, '1', '', '23047', '1830', ['', 'Machelen', ''], 98330, ['', 'Woluwelaan', ''], 50.91100, 4.44000],
  ],
  wal: [
    [1201533, '1', '', '25105', '1480', ['Tubize', '', ''], 7745021, ['Grand-Place', '', ''], 50.69050, 4.20450],
    [1201601, '10', '', '25105', '1480', ['Tubize', '', ''], 7745102, ['Rue de Mons', '', ''], 50.68800, 4.19950],
  ],
};
const BEST_HEADER = 'EPSG:31370_x,EPSG:31370_y,EPSG:4326_lat,EPSG:4326_lon,address_id,box_id,box_number,house_number,municipality_id,municipality_name_de,municipality_name_fr,municipality_name_nl,postcode,postname_fr,postname_nl,postname_de,street_id,streetname_de,streetname_fr,streetname_nl,region_code,status';
const csvCell = (s: string | number) => (/[",]/.test(String(s)) ? `"${String(s).replaceAll('"', '""')}"` : String(s));

function bestCsv(region: 'bru' | 'vlg' | 'wal'): string {
  const lines = BEST[region].map(([id, number, box, nis, postcode, [pfr, pnl, pde], streetId, [sfr, snl, sde], lat, lng]) => {
    const commune = COMMUNES.find((c) => c.code === nis)!;
    const [x, y] = lambert('EPSG:31370', lng, lat);
    const keep = (lang: 'fr' | 'nl' | 'de') => (commune.regime.toLowerCase().includes(lang[0]!) || (lang === 'de' && commune.region === '04000') ? commune.names[lang] : '');
    return [x, y, lat.toFixed(7), lng.toFixed(7), id, box ? id * 10 + 1 : '', box, number, nis, keep('de'), keep('fr'), keep('nl'), postcode, pfr, pnl, pde, streetId, sde, sfr, snl, `BE-${region.toUpperCase()}`, 'current']
      .map(csvCell).join(',');
  });
  return `${BEST_HEADER}\n${lines.join('\n')}\n`;
}

writeFileSync(join(here, 'statbel-sectors/sh_statbel_statistical_sectors_3812_20240101.geojson'), sectorsGeoJson());
writeFileSync(join(here, 'statbel-sectors/REFNIS_2024.csv'), refnisCsv());
for (const r of ['bru', 'vlg', 'wal'] as const) writeFileSync(join(here, `best/openaddress-be${r}.csv`), bestCsv(r));
console.log(`statbel sectors ${SECTORS.length}, REFNIS ${COMMUNES.length} communes, BeST ${Object.values(BEST).flat().length} addresses`);
