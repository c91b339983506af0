/**
 * Sample address points for the BAN sample (and seeds of the sample boundaries).
 *
 * Streets are real streets of the demo area, drawn as approximate centre lines typed from general
 * knowledge, in the direction of increasing house numbers (Paris rule: odd numbers on the left).
 * House numbers are spread evenly along the line and set back from the centre line; positions are
 * therefore plausible, not surveyed. FANTOIR/RIVOLI street codes marked `known` are the real Paris
 * codes, the others are invented in the same pattern.
 */
import { fromL93, fromUtm40s, toL93, toUtm40s, type LonLat } from './crs.ts';
import { classifyParisL93 } from './paris-seeds.ts';

export interface SampleAddress {
  codeInsee: string;
  nomCommune: string;
  codePostal: string;
  libelleAcheminement: string;
  fantoir: string;
  numero: number;
  rep: string;
  nomVoie: string;
  nomLd: string;
  lon: number;
  lat: number;
  /** projected coordinates written in the x/y columns (Lambert-93, or UTM 40S for La Réunion) */
  x: number;
  y: number;
  typePosition: string;
  sourcePosition: string;
  sourceNomVoie: string;
  certification: 0 | 1;
  cadParcelles: string;
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface StreetSpec {
  name: string;
  fantoir: string;
  poly: LonLat[];
  /** [first, last, step] for each side; omitted side = no numbers */
  odd?: [number, number, number];
  even?: [number, number, number];
  /** distance from the centre line, metres */
  setback: number;
  /** house numbers that also get a 'b' (bis) / 't' (ter) address */
  bis?: number[];
  ter?: number[];
}

type Project = (p: LonLat) => [number, number];

/** Point at fraction t of a planar polyline, and the unit tangent there. */
function along(line: [number, number][], t: number): { x: number; y: number; tx: number; ty: number } {
  const lens = line.slice(1).map((p, i) => Math.hypot(p[0] - line[i][0], p[1] - line[i][1]));
  const total = lens.reduce((a, b) => a + b, 0);
  let d = Math.min(Math.max(t, 0), 1) * total;
  for (let i = 0; i < lens.length; i++) {
    if (d <= lens[i] || i === lens.length - 1) {
      const [x1, y1] = line[i];
      const [x2, y2] = line[i + 1];
      const tx = (x2 - x1) / lens[i];
      const ty = (y2 - y1) / lens[i];
      return { x: x1 + tx * d, y: y1 + ty * d, tx, ty };
    }
    d -= lens[i];
  }
  throw new Error('empty line');
}

interface RawPoint {
  street: StreetSpec;
  numero: number;
  rep: string;
  x: number;
  y: number;
}

/** `stepFactor` thins the numbers (the step stays even so that parity is kept). */
function streetPoints(s: StreetSpec, project: Project, stepFactor = 1): RawPoint[] {
  const line = s.poly.map(project);
  const out: RawPoint[] = [];
  for (const side of ['odd', 'even'] as const) {
    const range = s[side];
    if (!range) continue;
    const [first, last] = range;
    const step = Math.max(2, Math.round((range[2] * stepFactor) / 2) * 2);
    const sign = side === 'odd' ? 1 : -1; // odd numbers on the left
    const numbers = new Set<number>();
    for (let n = first; n <= last; n += step) numbers.add(n);
    for (const n of [...(s.bis ?? []), ...(s.ter ?? [])]) if (n % 2 === first % 2 && n >= first && n <= last) numbers.add(n);
    for (const n of [...numbers].sort((a, b) => a - b)) {
      const t = last === first ? 0.5 : (n - first) / (last - first);
      const variants: [string, number][] = [['', 0]];
      if (s.bis?.includes(n)) variants.push(['b', 6]);
      if (s.ter?.includes(n)) variants.push(['t', 12]);
      for (const [rep, shift] of variants) {
        const p = along(line, t);
        const x = p.x + p.tx * shift - p.ty * s.setback * sign;
        const y = p.y + p.ty * shift + p.tx * s.setback * sign;
        out.push({ street: s, numero: n, rep, x, y });
      }
    }
  }
  return out;
}

const round = (v: number, d: number): number => Number(v.toFixed(d));

function cadastre(rand: () => number, insee: string, share: number): string {
  if (rand() > share) return '';
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const sec = letters[Math.floor(rand() * 26)] + letters[Math.floor(rand() * 26)];
  return `${insee}000${sec}${String(1 + Math.floor(rand() * 180)).padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Paris (3e, 4e, 11e, 12e, 13e)

const PARIS_STREETS: StreetSpec[] = [
  // known RIVOLI codes: 0783, 3514, 5467, 8358, 8208, 9907, 1888, 9506, 3820, 8490, 4583, 8723, 7260, 4162, 2584, 1794, 5866
  { name: 'Boulevard Beaumarchais', fantoir: '0783', poly: [[2.369, 48.854], [2.3687, 48.855], [2.3685, 48.8557], [2.3682, 48.857], [2.3677, 48.859], [2.3674, 48.8602]], odd: [1, 109, 6], even: [2, 110, 8], setback: 16, bis: [7, 31], ter: [31] },
  { name: 'Rue du Faubourg Saint-Antoine', fantoir: '3514', poly: [[2.3705, 48.8528], [2.3725, 48.8522], [2.3752, 48.8514], [2.378, 48.8507], [2.385, 48.85], [2.392, 48.8489], [2.3954, 48.8484]], odd: [1, 331, 22], even: [2, 324, 22], setback: 11, bis: [45, 134], ter: [45] },
  { name: 'Avenue Ledru-Rollin', fantoir: '5467', poly: [[2.3685, 48.8458], [2.3712, 48.848], [2.3735, 48.85], [2.3752, 48.8514], [2.3773, 48.8535], [2.3795, 48.8557]], odd: [1, 189, 18], even: [2, 182, 18], setback: 12, bis: [91] },
  { name: 'Rue de la Roquette', fantoir: '8358', poly: [[2.3712, 48.8537], [2.375, 48.8549], [2.38, 48.8565], [2.386, 48.8582], [2.3898, 48.8594]], odd: [1, 181, 18], even: [2, 176, 18], setback: 8, ter: [19] },
  { name: 'Rue Oberkampf', fantoir: '6852', poly: [[2.3678, 48.8633], [2.373, 48.8642], [2.379, 48.8652], [2.3828, 48.866]], odd: [1, 161, 20], even: [2, 158, 20], setback: 8, bis: [21] },
  { name: 'Boulevard Richard Lenoir', fantoir: '8208', poly: [[2.37, 48.8545], [2.3703, 48.858], [2.3702, 48.862], [2.3698, 48.8655]], odd: [1, 133, 22], even: [2, 130, 22], setback: 20 },
  { name: 'Boulevard Voltaire', fantoir: '9907', poly: [[2.3665, 48.866], [2.3712, 48.8627], [2.3775, 48.8588], [2.3835, 48.855], [2.3905, 48.8512], [2.395, 48.8498]], odd: [1, 271, 30], even: [2, 268, 30], setback: 14 },
  { name: 'Rue de Charonne', fantoir: '1888', poly: [[2.3728, 48.8526], [2.377, 48.8532], [2.382, 48.8538], [2.387, 48.855], [2.392, 48.8558]], odd: [1, 161, 20], even: [2, 160, 20], setback: 8, bis: [41] },
  { name: 'Rue de Bretagne', fantoir: '1227', poly: [[2.3652, 48.86285], [2.3628, 48.8631], [2.36, 48.86375]], odd: [1, 71, 10], even: [2, 68, 10], setback: 7, bis: [39] },
  { name: 'Rue Vieille du Temple', fantoir: '9798', poly: [[2.35585, 48.8564], [2.3578, 48.8577], [2.3593, 48.859], [2.3613, 48.8609], [2.363, 48.8624], [2.3638, 48.86285]], odd: [1, 137, 12], even: [2, 126, 12], setback: 6, ter: [47] },
  { name: 'Rue de Turenne', fantoir: '9506', poly: [[2.3633, 48.8548], [2.3639, 48.8563], [2.3643, 48.858], [2.365, 48.86], [2.3652, 48.8627]], odd: [1, 125, 14], even: [2, 122, 14], setback: 6 },
  { name: 'Rue des Francs Bourgeois', fantoir: '3820', poly: [[2.3646, 48.8562], [2.3627, 48.857], [2.3602, 48.858], [2.3578, 48.8592]], odd: [1, 59, 6], even: [2, 60, 6], setback: 8, bis: [13] },
  { name: 'Rue de Rivoli', fantoir: '8155', poly: [[2.3608, 48.8553], [2.356, 48.8564], [2.3522, 48.8573], [2.3495, 48.858]], odd: [1, 79, 10], even: [2, 80, 10], setback: 10 },
  { name: 'Rue Saint-Antoine', fantoir: '8490', poly: [[2.3685, 48.8533], [2.3645, 48.8544], [2.3608, 48.8553]], odd: [1, 141, 20], even: [2, 230, 24], setback: 9, bis: [101] },
  { name: 'Boulevard Henri IV', fantoir: '4583', poly: [[2.3588, 48.8508], [2.363, 48.8515], [2.3675, 48.8525]], odd: [1, 47, 8], even: [2, 44, 8], setback: 12 },
  { name: 'Rue Saint-Paul', fantoir: '8723', poly: [[2.3614, 48.8528], [2.3617, 48.8541], [2.3619, 48.855]], odd: [1, 47, 8], even: [2, 48, 8], setback: 5 },
  { name: 'Place du Père Teilhard de Chardin', fantoir: '7260', poly: [[2.363, 48.8516], [2.364, 48.8519]], odd: [1, 1, 2], even: [2, 2, 2], setback: 10 },
  { name: "Boulevard de l'Hôpital", fantoir: '4620', poly: [[2.3672, 48.844], [2.3652, 48.8425], [2.3635, 48.8402], [2.3612, 48.8384], [2.359, 48.8362], [2.3575, 48.834]], odd: [1, 183, 16], even: [2, 178, 16], setback: 15, bis: [47] },
  { name: "Avenue d'Italie", fantoir: '4812', poly: [[2.3553, 48.8295], [2.3563, 48.826], [2.3576, 48.822], [2.3595, 48.8178]], odd: [1, 215, 20], even: [2, 212, 20], setback: 12, ter: [21] },
  { name: 'Rue de Tolbiac', fantoir: '9304', poly: [[2.3768, 48.8318], [2.37, 48.829], [2.362, 48.8265], [2.3565, 48.8261], [2.35, 48.8264], [2.3447, 48.827]], odd: [1, 221, 20], even: [2, 224, 20], setback: 8 },
  { name: 'Avenue de Choisy', fantoir: '1998', poly: [[2.358, 48.8296], [2.36, 48.826], [2.363, 48.822], [2.3655, 48.8188]], odd: [1, 229, 24], even: [2, 226, 24], setback: 10 },
  { name: 'Rue Gérard', fantoir: '4162', poly: [[2.3512, 48.8289], [2.3533, 48.8299]], odd: [1, 47, 6], even: [2, 44, 6], setback: 5, bis: [17] },
  { name: 'Rue de la Butte aux Cailles', fantoir: '1446', poly: [[2.3525, 48.8281], [2.3499, 48.827]], odd: [1, 29, 6], even: [2, 28, 6], setback: 5 },
  { name: 'Boulevard Vincent Auriol', fantoir: '9783', poly: [[2.37, 48.8372], [2.365, 48.8352], [2.36, 48.8335], [2.359, 48.8328]], odd: [1, 193, 20], even: [2, 190, 20], setback: 16 },
  { name: 'Avenue Daumesnil', fantoir: '2584', poly: [[2.3718, 48.8493], [2.378, 48.8465], [2.385, 48.8433], [2.3895, 48.841], [2.3962, 48.8393], [2.401, 48.8373], [2.4058, 48.8351]], odd: [1, 251, 22], even: [2, 248, 22], setback: 14, bis: [9] },
  { name: 'Rue de Charenton', fantoir: '1794', poly: [[2.3712, 48.8517], [2.376, 48.8498], [2.383, 48.8465], [2.3903, 48.8442], [2.3955, 48.8405], [2.399, 48.837], [2.4027, 48.8328]], odd: [1, 331, 26], even: [2, 330, 26], setback: 8, ter: [53] },
  { name: 'Rue de Lyon', fantoir: '5866', poly: [[2.37, 48.8518], [2.372, 48.849], [2.3737, 48.846]], odd: [1, 65, 10], even: [2, 60, 10], setback: 10 },
];

/** Place d'Italie: numbers around the square (radius 110 m). */
function placeItalie(): RawPoint[] {
  const spec: StreetSpec = { name: "Place d'Italie", fantoir: '4811', poly: [], setback: 0 };
  const [cx, cy] = toL93([2.3556, 48.8313]);
  const out: RawPoint[] = [];
  for (let n = 1; n <= 30; n += 4) {
    const a = Math.PI / 2 - (n / 32) * 2 * Math.PI; // clockwise from the north
    out.push({ street: spec, numero: n, rep: '', x: cx + 110 * Math.cos(a), y: cy + 110 * Math.sin(a) });
  }
  return out;
}

function postcodeOfParis(arm: string): string {
  return `750${arm.slice(3)}`;
}

function nomParis(arm: string): string {
  const n = Number(arm.slice(3));
  return `Paris ${n}${n === 1 ? 'er' : 'e'} Arrondissement`;
}

const DEMO = new Set(['75103', '75104', '75111', '75112', '75113']);

export function parisAddresses(): SampleAddress[] {
  const rand = prng(75);
  const raw = [...PARIS_STREETS.flatMap((s) => streetPoints(s, toL93, 1.6)), ...placeItalie()];
  const out: SampleAddress[] = [];
  for (const r of raw) {
    const arm = classifyParisL93(r.x, r.y);
    if (!DEMO.has(arm)) throw new Error(`${r.street.name} ${r.numero} falls in ${arm}`);
    const [lon, lat] = fromL93([r.x, r.y]);
    const lon6 = round(lon, 6);
    const lat6 = round(lat, 6);
    const [x, y] = toL93([lon6, lat6]);
    out.push({
      codeInsee: arm,
      nomCommune: nomParis(arm),
      codePostal: postcodeOfParis(arm),
      libelleAcheminement: 'PARIS',
      fantoir: r.street.fantoir,
      numero: r.numero,
      rep: r.rep,
      nomVoie: r.street.name,
      nomLd: '',
      lon: lon6,
      lat: lat6,
      x: round(x, 2),
      y: round(y, 2),
      typePosition: 'parcelle',
      sourcePosition: 'commune',
      sourceNomVoie: 'commune',
      certification: 0,
      cadParcelles: cadastre(rand, arm, 0.5),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Gironde: Abzac and two neighbours (positions invented inside the sample outline of Abzac)

interface CommuneInfo {
  insee: string;
  nom: string;
  cp: string;
  acheminement: string;
  certification: 0 | 1;
  typePosition: string;
  source: string;
}

export const GIRONDE_COMMUNES: Record<string, CommuneInfo> = {
  '33001': { insee: '33001', nom: 'Abzac', cp: '33230', acheminement: 'ABZAC', certification: 1, typePosition: 'entrée', source: 'commune' },
  '33138': { insee: '33138', nom: 'Coutras', cp: '33230', acheminement: 'COUTRAS', certification: 0, typePosition: 'parcelle', source: 'cadastre' },
  '33393': { insee: '33393', nom: 'Saint-Denis-de-Pile', cp: '33910', acheminement: 'ST DENIS DE PILE', certification: 0, typePosition: 'parcelle', source: 'cadastre' },
};

const ABZAC_STREETS: StreetSpec[] = [
  { name: 'Rue du Docteur Texier', fantoir: '0045', poly: [[-0.1285, 45.0118], [-0.124, 45.0125]], odd: [1, 23, 6], even: [2, 20, 6], setback: 8, bis: [5] },
  { name: 'Rue Jules Ferry', fantoir: '0060', poly: [[-0.1262, 45.011], [-0.1255, 45.0085]], odd: [1, 15, 4], even: [2, 12, 4], setback: 8, ter: [3] },
  { name: 'Rue du Petreau', fantoir: '0090', poly: [[-0.129, 45.013], [-0.133, 45.015]], odd: [1, 13, 6], even: [2, 10, 6], setback: 8 },
  { name: 'Rue Avitiacus', fantoir: '0020', poly: [[-0.124, 45.013], [-0.1215, 45.015]], odd: [1, 9, 4], even: [2, 8, 4], setback: 7 },
  { name: 'Rue de Fournel', fantoir: '0050', poly: [[-0.1295, 45.0105], [-0.1318, 45.0092]], odd: [1, 5, 4], even: [2, 4, 2], setback: 7 },
  { name: 'Rue du Petit Moulin', fantoir: '0095', poly: [[-0.1232, 45.0112], [-0.1205, 45.0102]], odd: [1, 5, 2], even: [2, 4, 2], setback: 7 },
  { name: 'Route de Coutras', fantoir: '0100', poly: [[-0.1255, 45.014], [-0.125, 45.02], [-0.1255, 45.0255]], odd: [1, 61, 16], even: [2, 62, 16], setback: 10 },
];

/** Lieux-dits: numbers scattered around a centre (metres). */
const ABZAC_LIEUX_DITS: { name: string; fantoir: string; centre: LonLat; count: number }[] = [
  { name: 'Les Chapelles', fantoir: 'B010', centre: [-0.147, 45.0045], count: 4 },
  { name: 'Beaulieu', fantoir: 'B005', centre: [-0.11, 45.018], count: 3 },
  { name: 'Grand Piron', fantoir: 'B020', centre: [-0.1, 45.008], count: 3 },
  { name: 'Barrail de Nadau', fantoir: 'B003', centre: [-0.138, 45.02], count: 3 },
  { name: 'Chiendent', fantoir: 'B008', centre: [-0.155, 45.012], count: 2 },
  { name: 'Au Blezot', fantoir: 'B001', centre: [-0.118, 44.9995], count: 2 },
  { name: 'Port du Mas', fantoir: 'B015', centre: [-0.132, 45.007], count: 2 },
];

const NEIGHBOUR_STREETS: { insee: string; spec: StreetSpec }[] = [
  { insee: '33138', spec: { name: "Route d'Abzac", fantoir: '0012', poly: [[-0.1256, 45.0281], [-0.1262, 45.033]], odd: [1, 11, 4], even: [2, 8, 4], setback: 10 } },
  { insee: '33393', spec: { name: "Route d'Abzac", fantoir: '0008', poly: [[-0.1542, 45.0002], [-0.16, 44.9968]], odd: [1, 9, 4], even: [2, 8, 4], setback: 10 } },
];

function communeRow(c: CommuneInfo, r: RawPoint, rand: () => number, nomLd = ''): SampleAddress {
  const [lon, lat] = fromL93([r.x, r.y]);
  const lon6 = round(lon, 6);
  const lat6 = round(lat, 6);
  const [x, y] = toL93([lon6, lat6]);
  return {
    codeInsee: c.insee,
    nomCommune: c.nom,
    codePostal: c.cp,
    libelleAcheminement: c.acheminement,
    fantoir: r.street.fantoir,
    numero: r.numero,
    rep: r.rep === 'b' ? 'bis' : r.rep === 't' ? 'ter' : r.rep,
    nomVoie: r.street.name,
    nomLd,
    lon: lon6,
    lat: lat6,
    x: round(x, 2),
    y: round(y, 2),
    typePosition: c.typePosition,
    sourcePosition: c.source,
    sourceNomVoie: c.source === 'commune' ? 'commune' : 'cadastre',
    certification: c.certification,
    cadParcelles: cadastre(rand, c.insee, 0.8),
  };
}

export function girondeAddresses(): SampleAddress[] {
  const rand = prng(33);
  const out: SampleAddress[] = [];
  const abzac = GIRONDE_COMMUNES['33001'];
  for (const s of ABZAC_STREETS) for (const r of streetPoints(s, toL93)) out.push(communeRow(abzac, r, rand));
  for (const ld of ABZAC_LIEUX_DITS) {
    const [cx, cy] = toL93(ld.centre);
    const spec: StreetSpec = { name: ld.name, fantoir: ld.fantoir, poly: [], setback: 0 };
    for (let i = 0; i < ld.count; i++) {
      const a = rand() * 2 * Math.PI;
      const d = 30 + rand() * 150;
      out.push(communeRow(abzac, { street: spec, numero: i + 1, rep: '', x: cx + d * Math.cos(a), y: cy + d * Math.sin(a) }, rand));
    }
  }
  for (const n of NEIGHBOUR_STREETS) {
    for (const r of streetPoints(n.spec, toL93)) out.push(communeRow(GIRONDE_COMMUNES[n.insee], r, rand));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// La Réunion: Saint-Denis (x/y in RGR92 / UTM zone 40S)

const SAINT_DENIS: CommuneInfo = { insee: '97411', nom: 'Saint-Denis', cp: '97400', acheminement: 'ST DENIS', certification: 1, typePosition: 'entrée', source: 'commune' };

const SAINT_DENIS_STREETS: StreetSpec[] = [
  { name: 'Rue de Paris', fantoir: '0520', poly: [[55.4486, -20.8778], [55.45, -20.883]], odd: [1, 55, 27], even: [2, 50, 48], setback: 8 },
  { name: 'Rue Jean Chatel', fantoir: '0380', poly: [[55.453, -20.879], [55.4545, -20.885]], odd: [5, 105, 100], setback: 7, bis: [55] },
  { name: 'Rue du Maréchal Leclerc', fantoir: '0440', poly: [[55.45, -20.8795], [55.462, -20.879]], odd: [11, 171, 80], even: [20, 20, 80], setback: 7 },
  { name: 'Boulevard Lancastel', fantoir: '0300', poly: [[55.452, -20.8768], [55.462, -20.8775]], even: [2, 40, 38], setback: 12 },
];

export function reunionAddresses(): SampleAddress[] {
  const rand = prng(974);
  const out: SampleAddress[] = [];
  for (const s of SAINT_DENIS_STREETS) {
    for (const r of streetPoints(s, toUtm40s)) {
      const [lon, lat] = fromUtm40s([r.x, r.y]);
      const lon6 = round(lon, 6);
      const lat6 = round(lat, 6);
      const [x, y] = toUtm40s([lon6, lat6]);
      const row = communeRow(SAINT_DENIS, { ...r, x: 0, y: 0 }, rand);
      out.push({ ...row, lon: lon6, lat: lat6, x: round(x, 2), y: round(y, 2) });
    }
  }
  return out;
}
