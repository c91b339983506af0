import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import proj4 from 'proj4';
import { rng } from './generate.ts';
import { BAN_HEADER } from './generate.ts';
import { ingestBanFile } from '../ingest/fr/ban.ts';
import { ingestAdressesQuebec } from '../ingest/ca/adresses-quebec.ts';
import { ingestBestFile } from '../ingest/be/best.ts';
import type { JobContext } from '../ingest/core/job.ts';
import { isInCountry } from '../api/location/coverage/index.ts';

/**
 * National-scale address files for benchmarks, in the producers' own layouts (BAN CSV per
 * department, Adresses Québec CSV, BeST openaddress CSV per region), ingested by the real jobs so
 * that the Parquet tables are the ones production serves. The shapes are what national search
 * must cope with: about 35,000 communes whose sizes follow a long tail (a handful of streets to
 * several thousand), street names shared by many communes, postcodes shared by several communes,
 * commune names repeated across departments, suffixes, lieux-dits; Quebec's municipalities with
 * ordinal streets and French and English generics; Belgian addresses in two or three languages.
 * Deterministic: the same sizes give the same files.
 */

const L93 = '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const QC_LAMBERT = '+proj=lcc +lat_0=44 +lon_0=-68.5 +lat_1=60 +lat_2=46 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const toL93 = proj4('EPSG:4326', L93);
const toQc = proj4('EPSG:4326', QC_LAMBERT);

const FR_TYPES = ['Rue', 'Chemin', 'Avenue', 'Route', 'Impasse', 'Allée', 'Place', 'Boulevard', 'Quai', 'Passage', 'Square', 'Cours', 'Sentier', 'Résidence'];
/** Most common first: street j of every commune takes name j, so small communes share names. */
const FR_NAMES = ["de l'Église", 'de la Mairie', 'de la Gare', 'du Moulin', 'de la République', 'Victor Hugo', 'des Écoles', 'du Château', 'Pasteur', 'Jean Jaurès',
  'du Stade', 'de la Fontaine', 'du Général de Gaulle', 'des Lilas', 'Jules Ferry', 'de la Libération', 'du Lavoir', 'des Acacias', 'Gambetta', 'de Verdun',
  'du 8 Mai 1945', 'du 11 Novembre', 'des Tilleuls', 'de la Paix', 'Voltaire', 'des Roses', 'du Puits', 'de la Forêt', 'Émile Zola', 'Jean Moulin',
  'des Vignes', 'du Bourg', 'de Bellevue', 'des Peupliers', 'Carnot', 'de la Croix', 'des Prés', 'du Calvaire', 'des Jardins', 'Saint-Martin',
  'Anatole France', 'de la Liberté', 'Paul Bert', 'des Chênes', 'du Port', 'du Marché', 'de la Poste', 'Louis Pasteur', 'des Sports', 'Jean Monnet',
  'du Presbytère', 'de Paris', 'des Champs', 'de la Vallée', 'du Parc', 'Aristide Briand', 'Georges Clemenceau', 'Maréchal Foch', 'des Mimosas', 'des Cerisiers',
  'des Rosiers', 'du Centre', 'de la Plage', 'de la Résistance', 'Marcel Pagnol', 'Albert Camus', 'des Bleuets', 'des Coquelicots', 'des Hirondelles', 'des Alouettes',
  'de la Source', 'du Ruisseau', 'des Sources', 'de la Chapelle', 'du Cimetière', 'des Noyers', 'des Saules', 'des Érables', 'des Platanes', 'du Verger',
  'Henri Barbusse', 'Pierre Curie', 'Marie Curie', 'Jean Jacques Rousseau', 'Denis Diderot', 'Frédéric Mistral', 'Alphonse Daudet', 'George Sand', 'Colette', 'Charles Péguy',
  'de la Butte', 'des Bruyères', 'des Genêts', 'du Pré Vert', 'de la Grange', 'du Four', 'des Écoliers', 'de la Tuilerie', 'de la Forge', 'des Artisans',
  'de Bretagne', 'de Normandie', 'de Provence', 'de Lorraine', "d'Alsace", 'de Bourgogne', 'du Languedoc', 'de Savoie', "d'Auvergne", 'de Picardie',
  'Saint-Jacques', 'Saint-Pierre', 'Saint-Nicolas', 'Sainte-Anne', 'Notre-Dame', 'Saint-Michel', 'Saint-Roch', 'Saint-Joseph', 'Saint-Éloi', 'Saint-Vincent',
  'de Strasbourg', 'de Lyon', 'de Nantes', 'de Bordeaux', 'de Lille', 'de Rouen', 'de Reims', 'de Toulouse', 'de Marseille', 'de Nice'];
const FR_QUALIFIERS = ['', ' Prolongée', ' Haute', ' Basse', ' Neuve', ' Vieille', ' Nord', ' Sud'];
const LIEUX_DITS = ['Le Bourg', 'La Croix Blanche', 'Les Granges', 'Le Moulin Neuf', 'La Métairie', 'Les Landes', 'Le Haut Bois', 'La Grange Neuve', 'Les Bordes', 'Le Pré Long',
  'La Maison Rouge', 'Les Vignes Hautes', 'Le Champ du Puits', 'La Borde', 'Les Essarts', 'Le Petit Bois', 'La Fosse', 'Les Rivières', 'Le Mas', 'La Bergerie'];
const COMMUNE_HEADS = ['Saint-Martin', 'Saint-Jean', 'Villeneuve', 'Montigny', 'Beaumont', 'Fontaine', 'Bourg', 'Châteauneuf', 'La Chapelle', 'Le Mesnil',
  'Saint-Germain', 'Sainte-Marie', 'Fontenay', 'Neuville', 'Mont', 'Bois', 'Val', 'Roche', 'Saint-Pierre', 'Champ', 'Ville', 'Château', 'Pont', 'Mesnil',
  'Saint-Laurent', 'Saint-Denis', 'Saint-Maurice', 'Savigny', 'Vaux', 'Marcilly', 'Chaumont', 'Rochefort', 'Montfort', 'Brie', 'Bray', 'Aubigny', 'Dampierre', 'Courcelles'];
const COMMUNE_TAILS = ['', '-sur-Loire', '-sur-Seine', '-en-Bresse', '-les-Bains', '-le-Vieux', '-le-Château', '-sur-Mer', '-la-Forêt', '-en-Vexin', '-sur-Marne', '-le-Grand',
  '-le-Petit', '-d\'Azergues', '-sur-Saône', '-en-Auge', '-la-Rivière', '-sous-Bois', '-lès-Nancy', '-de-Bretagne', '-du-Lac', '-aux-Bois', '-sur-Oise', '-en-Barrois',
  '-la-Campagne', '-sur-Lot', '-de-Provence', '-en-Val', '-les-Vignes', '-sur-Cher', '-le-Roi', '-la-Ville', '-les-Mines', '-sur-Aisne', '-du-Mont', '-en-Forez'];
const METRO: [number, number, number, number] = [-4.5, 43.3, 7.5, 50.9];

export interface NationalSizes { fr: number; ca: number; be: number }
/** Quebec and Belgium beside France at the ratio of the real files (BAN 26 M, Adresses Québec ~4 M, BeST ~6 M addresses). */
export function nationalSizes(frAddresses: number): NationalSizes {
  return { fr: frAddresses, ca: Math.round(frAddresses * 4 / 26), be: Math.round(frAddresses * 6 / 26) };
}

/** Sizes of `parts` units summing to `total`, long-tailed (weight 1 / (rank + 20)), each at least `min`. */
export function longTail(total: number, parts: number, min: number): number[] {
  const w = Array.from({ length: parts }, (_, r) => 1 / (r + 20));
  const sum = w.reduce((a, b) => a + b, 0);
  const spare = Math.max(0, total - parts * min);
  const sizes = w.map((x) => min + Math.floor((x / sum) * spare));
  let left = total - sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % parts, left--) sizes[i]!++;
  return sizes;
}

type Line = (string | number)[];
/** A buffered CSV writer that honours back-pressure. */
function csvOut(path: string, header: string, sep: string) {
  const out = createWriteStream(path);
  let buf: string[] = [header];
  return {
    async row(cells: Line) {
      buf.push(cells.join(sep));
      if (buf.length >= 4096) {
        const chunk = `${buf.join('\n')}\n`; buf = [];
        if (!out.write(chunk)) await new Promise<void>((r) => { out.once('drain', () => r()); });
      }
    },
    async close() { out.write(buf.length ? `${buf.join('\n')}\n` : ''); await new Promise<void>((r) => { out.end(() => r()); }); },
  };
}

/** One street's numbers: 1..k with a suffix now and then (bis, ter, A), along a line from (lng, lat). */
function* numbersOf(rand: () => number, k: number): Generator<{ n: number; rep: string; step: number }> {
  let step = 0;
  for (let n = 1; step < k; n += rand() < 0.2 ? 2 : 1) {
    yield { n, rep: '', step: step++ };
    if (step < k && rand() < 0.04) yield { n, rep: rand() < 0.7 ? 'bis' : rand() < 0.5 ? 'ter' : 'A', step: step++ };
  }
}

interface Commune { code: string; name: string; postcode: string; lng: number; lat: number; addresses: number }

/** France: one BAN file (adresses-france.csv, every department) in `dir`; returns its path. */
export async function writeFranceLike(dir: string, addresses: number): Promise<string[]> {
  const rand = rng(2654435761);
  const communes = Math.max(10, Math.min(35_000, Math.floor(addresses / 30)));
  const sizes = longTail(addresses, communes, Math.min(4, Math.floor(addresses / communes)));
  const depts = Array.from({ length: 96 }, (_, i) => String(i + 1).padStart(2, '0')).filter((d) => d !== '20');
  const byDept = new Map<string, Commune[]>(depts.map((d) => [d, []]));
  // Communes dealt to departments by rank (each department has large and small ones).
  for (let r = 0; r < communes; r++) {
    const d = depts[r % depts.length]!, di = depts.indexOf(d);
    const list = byDept.get(d)!;
    const cx = di % 10, cy = Math.floor(di / 10);
    // A commune's centre on land: in its department's square when it has land, else anywhere in France.
    let lng = 0, lat = 0;
    for (let tries = 0; ; tries++) {
      const inSquare = tries < 30;
      lng = METRO[0] + (inSquare ? (cx + rand()) / 10 : rand()) * (METRO[2] - METRO[0]);
      lat = METRO[1] + (inSquare ? (cy + rand()) / 10 : rand()) * (METRO[3] - METRO[1]);
      if (isInCountry('fr', lng, lat)) break;
    }
    const code = `${d}${String(list.length + 1).padStart(3, '0')}`;
    // Heads x tails gives fewer names than communes: the same name in several departments, as in France.
    const name = `${COMMUNE_HEADS[(r * 7) % COMMUNE_HEADS.length]}${COMMUNE_TAILS[Math.floor(r / COMMUNE_HEADS.length) % COMMUNE_TAILS.length]}`;
    list.push({ code, name, postcode: '', lng, lat, addresses: sizes[r]! });
  }
  // Postcodes: a large commune has its own; small neighbours share one, five or six to a code.
  for (const [d, list] of byDept) {
    let pc = 0, inGroup = 0;
    for (const c of list) {
      if (c.addresses > 3000 || inGroup >= 1 + Math.floor(rand() * 6)) { pc++; inGroup = 0; }
      c.postcode = `${d}${String(pc).padStart(3, '0')}`;
      inGroup++;
    }
  }
  await mkdir(dir, { recursive: true });
  // One national file, as the BAN also publishes it (adresses-france.csv): fr.ban writes one
  // partition per department from the rows, and one job run saves 95 runs' fixed costs.
  const path = join(dir, 'adresses-france.csv');
  const out = csvOut(path, BAN_HEADER, ';');
  for (const [, list] of byDept) {
    for (const c of list) {
      let left = c.addresses, s = 0;
      const radius = 0.004 + 0.03 * Math.sqrt(c.addresses / 50_000);
      while (left > 0) {
        const k = Math.min(left, 3 + Math.floor(rand() * rand() * 120));
        left -= k;
        // A few streets of a small commune are lieux-dits (no street type, nom_ld filled).
        const lieuDit = c.addresses < 2000 && rand() < 0.08;
        // Names unique within a commune: the most common names first, the types in turn, then qualifiers.
        const base = FR_NAMES[s % FR_NAMES.length]!;
        const t = FR_TYPES[Math.floor(s / FR_NAMES.length) % FR_TYPES.length]!;
        const q = FR_QUALIFIERS[Math.floor(s / (FR_NAMES.length * FR_TYPES.length)) % FR_QUALIFIERS.length]!;
        const round = Math.floor(s / (FR_NAMES.length * FR_TYPES.length * FR_QUALIFIERS.length));
        const voie = lieuDit ? `${LIEUX_DITS[s % LIEUX_DITS.length]}${s >= LIEUX_DITS.length ? ` ${Math.floor(s / LIEUX_DITS.length) + 1}` : ''}`
          : `${t} ${base}${q}${round ? ` ${round + 1}` : ''}`;
        const fantoir = lieuDit ? `B${s.toString(36).padStart(3, '0')}` : s.toString(36).padStart(4, '0');
        const a = rand() * 2 * Math.PI, rr = radius * Math.sqrt(rand());
        const lng0 = c.lng + rr * Math.cos(a) * 1.4, lat0 = c.lat + rr * Math.sin(a);
        const dir = rand() * Math.PI, dx = Math.cos(dir) * 0.00018, dy = Math.sin(dir) * 0.00012;
        const section = `${String.fromCharCode(65 + (s % 26))}${String.fromCharCode(65 + (Math.floor(s / 26) % 26))}`;
        for (const { n, rep, step } of numbersOf(rand, k)) {
          const lng = +(lng0 + dx * step).toFixed(6), lat = +(lat0 + dy * step).toFixed(6);
          const [x, y] = toL93.forward([lng, lat]) as [number, number];
          await out.row([`${c.code}_${fantoir}_${String(n).padStart(5, '0')}${rep ? `_${rep.toLowerCase()}` : ''}`, `${c.code}_${fantoir}`, n, rep, voie, c.postcode, c.code, c.name,
            '', '', x.toFixed(2), y.toFixed(2), lng.toFixed(6), lat.toFixed(6), 'entrée', '', lieuDit ? voie : '', c.name.toUpperCase(), voie.toUpperCase(),
            'commune', 'commune', '1', rand() < 0.85 ? `${c.code}000${section}${String(1 + (step % 9999)).padStart(4, '0')}` : '']);
        }
        s++;
      }
    }
  }
  await out.close();
  return [path];
}

const QC_FR_GENERICS = ['rue', 'rue', 'avenue', 'boulevard', 'chemin', 'rang', 'montée', 'place', 'croissant'];
const QC_EN_GENERICS = ['Street', 'Avenue', 'Road', 'Drive', 'Crescent'];
const QC_NAMES = ['Principale', 'Saint-Jean', 'Notre-Dame', 'des Érables', 'du Lac', 'Champlain', 'Laurier', 'Papineau', 'de la Rivière', 'Saint-Laurent',
  'des Pins', 'Cartier', 'Frontenac', 'du Moulin', 'de l\'Église', 'Wilfrid-Laurier', 'des Bouleaux', 'du Domaine', 'Sainte-Anne', 'Maisonneuve'];
const QC_EN_NAMES = ['Main', 'Church', 'Maple', 'Elm', 'Lakeshore', 'Victoria', 'King', 'Queen', 'Mountain', 'River'];
const QC_TOWNS = ['Saint-Jérôme', 'Val-d\'Or', 'Rimouski', 'Granby', 'Roxton Pond', 'Sainte-Agathe', 'Saint-Hyacinthe', 'Magog', 'Lachute', 'Rivière-du-Loup',
  'Sutton', 'Hudson', 'Knowlton', 'Stanstead', 'Shawville', 'Saint-Félicien', 'Matane', 'Amos', 'Gaspé', 'Sept-Îles'];

/** Quebec: one Adresses Québec CSV (EPSG:32198) of about 1,100 municipalities. */
export async function writeQuebecLike(dir: string, addresses: number): Promise<string[]> {
  const rand = rng(97);
  const municipalities = Math.max(5, Math.min(1_100, Math.floor(addresses / 30)));
  const sizes = longTail(addresses, municipalities, Math.min(4, Math.floor(addresses / municipalities)));
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'AQ_adresses.csv');
  const out = csvOut(path, 'IdAdr,NoCivq,SufxNoCivq,Generique,Liaison,Specifique,Direction,CodeMun,NomMun,CodePostal,X,Y', ',');
  const letters = 'ABCEGHJKLMNPRSTVXY';
  let id = 1_000_000;
  for (let m = 0; m < municipalities; m++) {
    const code = String(10_000 + m * 79 % 89_000).padStart(5, '0');
    const name = `${QC_TOWNS[m % QC_TOWNS.length]}${m >= QC_TOWNS.length ? ` ${Math.floor(m / QC_TOWNS.length) + 1}` : ''}`;
    // English-speaking municipalities (one in six) name their streets the English way.
    const english = m % 6 === 5;
    let lng = 0, lat = 0;
    do { lng = -79 + rand() * 14; lat = 45.1 + rand() * 3.5; } while (!isInCountry('ca', lng, lat));
    const fsa = `${letters[m % letters.length]}${m % 10}${letters[(m * 7) % letters.length]}`;
    let left = sizes[m]!, s = 0;
    const radius = 0.01 + 0.05 * Math.sqrt(sizes[m]! / 50_000);
    while (left > 0) {
      const k = Math.min(left, 3 + Math.floor(rand() * rand() * 150));
      left -= k;
      let gen = '', liaison = '', spec = '';
      // Numbered grids: 1re, 2e, 3e Avenue / Rue; else French generic first, English generic last.
      if (s % 3 === 0) spec = `${s / 3 + 1}${s === 0 ? 're' : 'e'} ${(s / 3) % 2 ? 'Rue' : 'Avenue'}`;
      else if (english) spec = `${QC_EN_NAMES[s % QC_EN_NAMES.length]}${s >= 50 ? ` ${Math.floor(s / 50) + 1}` : ''} ${QC_EN_GENERICS[(s + 4) % QC_EN_GENERICS.length]}`;
      else { gen = QC_FR_GENERICS[s % QC_FR_GENERICS.length]!; spec = `${QC_NAMES[s % QC_NAMES.length]}${s >= 180 ? ` ${Math.floor(s / 180) + 1}` : ''}`; }
      const a = rand() * 2 * Math.PI, rr = radius * Math.sqrt(rand());
      const lng0 = lng + rr * Math.cos(a) * 1.4, lat0 = lat + rr * Math.sin(a);
      const dir = rand() * Math.PI, dx = Math.cos(dir) * 0.0002, dy = Math.sin(dir) * 0.00013;
      const cp = `${fsa}${(s % 9) + 1}${letters[s % letters.length]}${(s * 3) % 10}`;
      for (const { n, rep, step } of numbersOf(rand, k)) {
        const [x, y] = toQc.forward([lng0 + dx * step, lat0 + dy * step]) as [number, number];
        await out.row([id++, n * 2 + 100, rep === 'bis' ? 'A' : rep === 'ter' ? 'B' : '', gen, liaison, spec, '', code, name, cp, x.toFixed(2), y.toFixed(2)]);
      }
      s++;
    }
  }
  await out.close();
  return [path];
}

const BE_HEADER = 'EPSG:31370_x,EPSG:31370_y,EPSG:4326_lat,EPSG:4326_lon,address_id,box_id,box_number,house_number,municipality_id,municipality_name_de,municipality_name_fr,municipality_name_nl,postcode,postname_fr,postname_nl,postname_de,street_id,streetname_de,streetname_fr,streetname_nl,region_code,status';
const BE_NAMES: [string, string][] = [['de l\'Église', 'Kerk'], ['de la Station', 'Stations'], ['du Moulin', 'Molen'], ['Royale', 'Koning'], ['de la Gare', 'Statie'], ['du Marché', 'Markt'],
  ['des Écoles', 'School'], ['du Château', 'Kasteel'], ['de la Chapelle', 'Kapel'], ['des Champs', 'Veld'], ['du Bois', 'Bos'], ['de la Fontaine', 'Bron'], ['du Pont', 'Brug'],
  ['des Prés', 'Weide'], ['de la Croix', 'Kruis'], ['du Parc', 'Park'], ['des Tilleuls', 'Linden'], ['de la Ferme', 'Hoeve'], ['du Stade', 'Stadion'], ['de l\'Abbaye', 'Abdij']];
const BE_TOWNS: [string, string, string][] = [['Bruxelles', 'Brussel', 'Brüssel'], ['Ixelles', 'Elsene', 'Ixelles'], ['Anvers', 'Antwerpen', 'Antwerpen'], ['Gand', 'Gent', 'Gent'],
  ['Louvain', 'Leuven', 'Löwen'], ['Malines', 'Mechelen', 'Mecheln'], ['Liège', 'Luik', 'Lüttich'], ['Namur', 'Namen', 'Namür'], ['Mons', 'Bergen', 'Bergen'],
  ['Tournai', 'Doornik', 'Dornick'], ['Courtrai', 'Kortrijk', 'Kortrijk'], ['Bruges', 'Brugge', 'Brügge'], ['Hasselt', 'Hasselt', 'Hasselt'], ['Wavre', 'Waver', 'Wavre']];

/** Belgium: BeST openaddress-bebru/bevlg/bewal.csv, 581 municipalities; names in two or three languages. */
export async function writeBelgiumLike(dir: string, addresses: number): Promise<string[]> {
  const rand = rng(31);
  const municipalities = Math.max(6, Math.min(581, Math.floor(addresses / 30)));
  const sizes = longTail(addresses, municipalities, Math.min(4, Math.floor(addresses / municipalities)));
  await mkdir(dir, { recursive: true });
  const files = { 'BE-BRU': 'openaddress-bebru.csv', 'BE-VLG': 'openaddress-bevlg.csv', 'BE-WAL': 'openaddress-bewal.csv' } as const;
  const outs = Object.fromEntries(Object.entries(files).map(([r, f]) => [r, csvOut(join(dir, f), BE_HEADER, ',')])) as Record<keyof typeof files, ReturnType<typeof csvOut>>;
  let id = 1, street = 1;
  for (let m = 0; m < municipalities; m++) {
    // 19 Brussels municipalities (French and Dutch), then Flanders and Wallonia; 9 German-speaking ones in Wallonia (three languages).
    const region = m % 30 === 0 && m / 30 < 19 ? 'BE-BRU' : m % 2 ? 'BE-VLG' : 'BE-WAL';
    const german = region === 'BE-WAL' && m % 40 === 6;
    const [fr, nl, de] = BE_TOWNS[m % BE_TOWNS.length]!;
    const suffix = m >= BE_TOWNS.length ? ` ${Math.floor(m / BE_TOWNS.length) + 1}` : '';
    const nis = String(region === 'BE-BRU' ? 21001 + m : region === 'BE-VLG' ? 11001 + m * 7 : 51001 + m * 7).slice(0, 5);
    const postcode = String(region === 'BE-BRU' ? 1000 + (m % 200) : region === 'BE-VLG' ? 2000 + (m * 3) % 2000 : 5000 + (m * 3) % 2000);
    let lng = 0, lat = 0;
    do {
      lng = region === 'BE-BRU' ? 4.30 + rand() * 0.12 : 2.6 + rand() * 3.6;
      lat = region === 'BE-BRU' ? 50.80 + rand() * 0.08 : region === 'BE-VLG' ? 50.8 + rand() * 0.6 : 49.6 + rand() * 1.0;
    } while (!isInCountry('be', lng, lat));
    // Municipality names in French and Dutch everywhere (BeST publishes both), German too in the German-speaking ones.
    const names = { fr: `${fr}${suffix}`, nl: `${nl}${suffix}`, de: german ? `${de}${suffix}` : '' };
    let left = sizes[m]!, s = 0;
    const radius = 0.01 + 0.03 * Math.sqrt(sizes[m]! / 50_000);
    while (left > 0) {
      const k = Math.min(left, 3 + Math.floor(rand() * rand() * 100));
      left -= k;
      const [f, n] = BE_NAMES[s % BE_NAMES.length]!;
      const round = s >= BE_NAMES.length ? ` ${Math.floor(s / BE_NAMES.length) + 1}` : '';
      // Streets: French and Dutch in Brussels, Dutch in Flanders, French (and German) in Wallonia.
      const st = { fr: region !== 'BE-VLG' ? `Rue ${f}${round}` : '', nl: region !== 'BE-WAL' ? `${n}straat${round}` : '', de: german ? `${n}straße${round}` : '' };
      const a = rand() * 2 * Math.PI, rr = radius * Math.sqrt(rand());
      const lng0 = lng + rr * Math.cos(a) * 1.5, lat0 = lat + rr * Math.sin(a);
      const dir = rand() * Math.PI, dx = Math.cos(dir) * 0.00018, dy = Math.sin(dir) * 0.00012;
      for (const { n: no, rep, step } of numbersOf(rand, k)) {
        const hn = `${no}${rep === 'bis' ? 'A' : rep === 'ter' ? 'B' : rep}`;
        await outs[region].row(['', '', (lat0 + dy * step).toFixed(7), (lng0 + dx * step).toFixed(7), id++, '', '', hn, nis, names.de, names.fr, names.nl, postcode,
          names.fr, names.nl, names.de, street, st.de, st.fr, st.nl, region, 'current']);
      }
      s++; street++;
    }
  }
  for (const o of Object.values(outs)) await o.close();
  return Object.values(files).map((f) => join(dir, f));
}

/** Writes the three countries' files under `work` and ingests them into `dataDir` with the production jobs. */
export async function ingestNational(ctx: JobContext, work: string, sizes: NationalSizes, log: (s: string) => void = () => {}): Promise<{ seconds: number }> {
  const t = performance.now();
  if (sizes.fr > 0) for (const path of await writeFranceLike(join(work, 'fr'), sizes.fr)) { await ingestBanFile(ctx, { path }); log(`fr ${path}`); }
  if (sizes.ca > 0) for (const path of await writeQuebecLike(join(work, 'ca'), sizes.ca)) { await ingestAdressesQuebec(ctx, { path }); log(`ca ${path}`); }
  if (sizes.be > 0) for (const path of await writeBelgiumLike(join(work, 'be'), sizes.be)) { await ingestBestFile(ctx, { path }); log(`be ${path}`); }
  return { seconds: (performance.now() - t) / 1000 };
}
