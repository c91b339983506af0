/**
 * Writes the DVF samples: the Etalab geolocated files `csv/<year>/departements/<dep>.csv` for
 * 2020-2024 (Paris 75, Gironde 33), and one raw DGFiP file `ValeursFoncieres-2025-S1.txt`
 * (pipe-separated, French decimals) for the first half of 2025. Sales are placed at the
 * addresses of the BAN sample, priced from a per-area level and a yearly index.
 * Run: npx tsx datasets/fr/dvf/make-sample.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
// Deterministic numbers in [0, 1) (mulberry32), so a run can be replayed.
import { prng as rng } from '../tools/addresses.ts';

const HERE = import.meta.dirname;

/** Header of the Etalab geolocated DVF CSV (40 columns, comma-separated). */
export const DVF_GEO_HEADER = 'id_mutation,date_mutation,numero_disposition,nature_mutation,valeur_fonciere,adresse_numero,adresse_suffixe,adresse_nom_voie,adresse_code_voie,code_postal,code_commune,nom_commune,code_departement,ancien_code_commune,ancien_nom_commune,id_parcelle,ancien_id_parcelle,numero_volume,lot1_numero,lot1_surface_carrez,lot2_numero,lot2_surface_carrez,lot3_numero,lot3_surface_carrez,lot4_numero,lot4_surface_carrez,lot5_numero,lot5_surface_carrez,nombre_lots,code_type_local,type_local,surface_reelle_bati,nombre_pieces_principales,code_nature_culture,nature_culture,code_nature_culture_speciale,nature_culture_speciale,surface_terrain,longitude,latitude';

/** Header of the DGFiP `valeursfoncieres` text file (43 columns, pipe-separated). */
export const DVF_RAW_HEADER = 'Identifiant de document|Reference document|1 Articles CGI|2 Articles CGI|3 Articles CGI|4 Articles CGI|5 Articles CGI|No disposition|Date mutation|Nature mutation|Valeur fonciere|No voie|B/T/Q|Type de voie|Code voie|Voie|Code postal|Commune|Code departement|Code commune|Prefixe de section|Section|No plan|No Volume|1er lot|Surface Carrez du 1er lot|2eme lot|Surface Carrez du 2eme lot|3eme lot|Surface Carrez du 3eme lot|4eme lot|Surface Carrez du 4eme lot|5eme lot|Surface Carrez du 5eme lot|Nombre de lots|Code type local|Type local|Identifiant local|Surface reelle bati|Nombre pieces principales|Nature culture|Nature culture speciale|Surface terrain';

interface Address { insee: string; fantoir: string; numero: string; rep: string; voie: string; cp: string; commune: string; lon: number; lat: number; parcel: string }

const rand = rng(20261122);
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
const between = (lo: number, hi: number) => lo + rand() * (hi - lo);

function banAddresses(file: string): Address[] {
  const [head, ...lines] = readFileSync(join(HERE, '..', 'ban', file), 'utf8').trim().split('\n');
  const cols = head!.split(';');
  const at = (cells: string[], name: string) => cells[cols.indexOf(name)]!;
  return lines.map((l) => l.split(';')).map((c, i) => {
    const insee = at(c, 'code_insee');
    const parcel = at(c, 'cad_parcelles').split('|')[0] || `${insee}000${pick(['AB', 'AC', 'AK', 'BA', 'ZO'])}${String(100 + i).padStart(4, '0')}`;
    return {
      insee, fantoir: at(c, 'id_fantoir').split('_')[1]!, numero: at(c, 'numero'), rep: at(c, 'rep'), voie: at(c, 'nom_voie'),
      cp: at(c, 'code_postal'), commune: at(c, 'nom_commune'), lon: Number(at(c, 'lon')), lat: Number(at(c, 'lat')), parcel,
    };
  });
}

/** Price per m² in 2020 by commune or arrondissement, and the yearly index (2020 = 1). */
const LEVEL: Record<string, number> = { '75103': 12600, '75104': 13100, '75111': 10700, '75112': 9800, '75113': 9100, '33001': 1750, '33138': 1650, '33393': 1900 };
const INDEX: Record<'75' | '33', Record<number, number>> = {
  '75': { 2020: 1, 2021: 1.01, 2022: 1.02, 2023: 0.965, 2024: 0.925, 2025: 0.915 },
  '33': { 2020: 1, 2021: 1.07, 2022: 1.15, 2023: 1.14, 2024: 1.1, 2025: 1.09 },
};

type Local = { code: string; type: string; surface: string; rooms: string; lots: [string, string][] };
type Land = { code: string; nature: string; special: string; specialLabel: string; surface: string };
interface Sale { id: string; date: string; nature: string; price: number; a: Address; dispositions: { parcel: string; a: Address; locals: Local[]; land: Land[]; noPosition: boolean }[] }

const APT = (surface: number, rooms: number, lot: string): Local => ({ code: '2', type: 'Appartement', surface: String(surface), rooms: String(rooms), lots: [[lot, (surface * 0.97).toFixed(2)]] });
const CAVE = (lot: string): Local => ({ code: '3', type: 'Dépendance', surface: '', rooms: '0', lots: [[lot, '']] });
const HOUSE = (surface: number, rooms: number): Local => ({ code: '1', type: 'Maison', surface: String(surface), rooms: String(rooms), lots: [] });
const SHOP = (surface: number, lot: string): Local => ({ code: '4', type: 'Local industriel. commercial ou assimilé', surface: String(surface), rooms: '0', lots: [[lot, '']] });

function date(year: number, lastMonth = 12): string {
  const m = 1 + Math.floor(rand() * lastMonth);
  const d = 1 + Math.floor(rand() * 28);
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The sales of one department and year. */
function sales(dep: '75' | '33', year: number, addresses: Address[], seq: { n: number }, lastMonth = 12): Sale[] {
  const out: Sale[] = [];
  const id = () => `${year}-${seq.n++}`;
  const byArea = new Map<string, Address[]>();
  for (const a of addresses) byArea.set(a.insee, [...(byArea.get(a.insee) ?? []), a]);
  for (const [insee, list] of byArea) {
    const ppm2 = LEVEL[insee]! * INDEX[dep][year]!;
    const count = dep === '75' ? Math.round(list.length / 8) + 2 : insee === '33001' ? 12 : 2;
    for (let i = 0; i < Math.round(count * (lastMonth / 12)); i++) {
      const a = pick(list);
      const noPosition = rand() < 0.04;
      if (dep === '75') {
        const surface = Math.round(between(18, 95));
        const rooms = Math.max(1, Math.round(surface / 22));
        const price = Math.round((surface * ppm2 * between(0.88, 1.12)) / 100) * 100;
        const lot = String(Math.floor(between(1, 240)));
        const locals = rand() < 0.4 ? [APT(surface, rooms, lot), CAVE(String(Number(lot) + 300))] : [APT(surface, rooms, lot)];
        out.push({ id: id(), date: date(year, lastMonth), nature: rand() < 0.03 ? "Vente en l'état futur d'achèvement" : 'Vente', price, a, dispositions: [{ parcel: a.parcel, a, locals, land: [], noPosition }] });
      } else {
        const surface = Math.round(between(70, 160));
        const rooms = Math.max(2, Math.round(surface / 25));
        const price = Math.round((surface * ppm2 * between(0.85, 1.15)) / 500) * 500;
        const land: Land[] = [{ code: 'S', nature: 'sols', special: '', specialLabel: '', surface: String(Math.round(between(300, 1500))) }];
        if (rand() < 0.5) land.push({ code: 'J', nature: 'jardins', special: '', specialLabel: '', surface: String(Math.round(between(100, 900))) });
        const locals = rand() < 0.5 ? [HOUSE(surface, rooms), { ...CAVE(''), lots: [] }] : [HOUSE(surface, rooms)];
        const disp = [{ parcel: a.parcel, a, locals, land, noPosition }];
        // A house often comes with a second parcel of land (a field behind it).
        if (rand() < 0.3) disp.push({ parcel: `${a.insee}000ZO${String(Math.floor(between(10, 400))).padStart(4, '0')}`, a, locals: [], land: [{ code: 'T', nature: 'terres', special: '', specialLabel: '', surface: String(Math.round(between(800, 5000))) }], noPosition });
        out.push({ id: id(), date: date(year, lastMonth), nature: 'Vente', price, a, dispositions: disp });
      }
    }
  }
  if (dep === '75') {
    // A building sold in one deed: three flats and a shop, not one flat of 180 m².
    const a = addresses.find((x) => x.insee === '75111')!;
    if (year === 2022) out.push({ id: id(), date: '2022-06-14', nature: 'Vente', price: 2_150_000, a, dispositions: [{ parcel: a.parcel, a, noPosition: false, land: [], locals: [APT(48, 2, '3'), APT(61, 3, '5'), APT(71, 3, '7'), SHOP(45, '1')] }] });
    // A parking space alone (Dépendance only): a sale, with no dwelling.
    if (year === 2023) out.push({ id: id(), date: '2023-03-02', nature: 'Vente', price: 32_000, a, dispositions: [{ parcel: a.parcel, a, noPosition: false, land: [], locals: [CAVE('412')] }] });
  } else {
    // Building land, and an exchange (not a market sale).
    const a = addresses.find((x) => x.insee === '33001')!;
    out.push({ id: id(), date: date(year, lastMonth), nature: 'Vente', price: Math.round(between(25, 45)) * 1000, a, dispositions: [{ parcel: `33001000ZM${String(40 + year - 2020).padStart(4, '0')}`, a, noPosition: false, locals: [], land: [{ code: 'AB', nature: 'terrains a bâtir', special: '', specialLabel: '', surface: String(Math.round(between(600, 1200))) }] }] });
    if (year === 2021) out.push({ id: id(), date: '2021-06-29', nature: 'Echange', price: 1100, a, dispositions: [{ parcel: '33001000ZO0300', a, noPosition: false, locals: [], land: [{ code: 'J', nature: 'jardins', special: '', specialLabel: '', surface: '81' }] }] });
  }
  return out.sort((p, q) => (p.id < q.id ? -1 : 1));
}

const upper = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/['-]/g, ' ');
const suffix = (rep: string) => ({ b: 'B', bis: 'B', t: 'T', ter: 'T' } as Record<string, string>)[rep] ?? '';
const dep = (insee: string) => insee.slice(0, 2);

/** Lines of a sale in the geolocated layout: one per local (and per land line of its parcel), as published. */
function geoLines(s: Sale): string[] {
  const out: string[] = [];
  s.dispositions.forEach((d) => {
    const a = d.a;
    // Published coordinates are the parcel's centre, not the address point.
    const lon = d.noPosition ? '' : (a.lon + between(-0.00008, 0.00008)).toFixed(6);
    const lat = d.noPosition ? '' : (a.lat + between(-0.00006, 0.00006)).toFixed(6);
    const rowsOf = d.locals.length > 0 ? d.locals : [null];
    const landOf = d.land.length > 0 ? d.land : [null];
    for (const l of rowsOf) {
      for (const t of landOf) {
        const lots = [0, 1, 2, 3, 4].flatMap((i) => [l?.lots[i]?.[0] ?? '', l?.lots[i]?.[1] ?? '']);
        out.push([
          s.id, s.date, '000001', s.nature, String(s.price), a.numero, suffix(a.rep), upper(a.voie), a.fantoir, a.cp, a.insee, a.commune, dep(a.insee), '', '',
          d.parcel, '', '', ...lots, String(l?.lots.length ?? 0), l?.code ?? '', l?.type ?? '', l?.surface ?? '', l?.rooms ?? '',
          t?.code ?? '', t?.nature ?? '', t?.special ?? '', t?.specialLabel ?? '', t?.surface ?? '', lon, lat,
        ].join(','));
      }
    }
  });
  return out;
}

const fr = (n: number) => n.toFixed(2).replace('.', ',');
/** Lines of a sale in the DGFiP text layout: no coordinates, parcel split in its parts, French decimals. */
function rawLines(s: Sale): string[] {
  const [y, m, d] = s.date.split('-');
  const out: string[] = [];
  for (const disp of s.dispositions) {
    const a = disp.a;
    const voie = upper(a.voie).split(' ');
    const type = ({ RUE: 'RUE', BOULEVARD: 'BD', AVENUE: 'AV', PLACE: 'PL', ROUTE: 'RTE', CHEMIN: 'CHE', ALLEE: 'ALL', IMPASSE: 'IMP', QUAI: 'QUAI' } as Record<string, string>)[voie[0]!];
    const p = disp.parcel;
    const rowsOf = disp.locals.length > 0 ? disp.locals : [null];
    const landOf = disp.land.length > 0 ? disp.land : [null];
    for (const l of rowsOf) {
      for (const t of landOf) {
        const lots = [0, 1, 2, 3, 4].flatMap((i) => [l?.lots[i]?.[0] ?? '', l?.lots[i]?.[1] ? l.lots[i]![1].replace('.', ',') : '']);
        out.push([
          '', '', '', '', '', '', '', '000001', `${d}/${m}/${y}`, s.nature, fr(s.price), a.numero, suffix(a.rep), type ?? '', a.fantoir,
          type ? voie.slice(1).join(' ') : voie.join(' '), a.cp, upper(a.commune).replace(/ (\d+)E ARRONDISSEMENT/, (_m, n: string) => ` ${n.padStart(2, '0')}`), dep(a.insee), String(Number(a.insee.slice(2))),
          p.slice(5, 8) === '000' ? '' : p.slice(5, 8), p.slice(8, 10).replace(/^0/, ''), String(Number(p.slice(10))), '', ...lots, String(l?.lots.length ?? 0),
          l?.code ?? '', l?.type ?? '', '', l?.surface ?? '', l?.rooms ?? '', t?.code ?? '', t?.special ?? '', t?.surface ?? '',
        ].join('|'));
      }
    }
  }
  return out;
}

const paris = banAddresses('adresses-75.csv');
const gironde = banAddresses('adresses-33.csv');
const files: string[] = [];
for (const year of [2020, 2021, 2022, 2023, 2024]) {
  // Etalab numbers mutations through the national file of the year.
  const seq = { n: 400000 + (year - 2020) * 1000 };
  for (const [d, list] of [['33', gironde], ['75', paris]] as const) {
    const file = join(HERE, 'csv', String(year), 'departements', `${d}.csv`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, [DVF_GEO_HEADER, ...sales(d, year, list, seq).flatMap(geoLines)].join('\n') + '\n', 'utf8');
    files.push(file);
  }
}
const seq = { n: 1 };
const raw = [...sales('33', 2025, gironde, seq, 6), ...sales('75', 2025, paris, seq, 6)].flatMap(rawLines);
writeFileSync(join(HERE, 'ValeursFoncieres-2025-S1.txt'), [DVF_RAW_HEADER, ...raw].join('\n') + '\n', 'utf8');
console.log(`${files.length} geolocated files, ${raw.length} raw lines`);
