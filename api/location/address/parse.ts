/**
 * Free-text postal address query → structured parts, for matching against the
 * BAN (Base Adresse Nationale). Pure logic + small tables; no I/O.
 *
 * Choices (documented here because they are heuristics):
 *  - Postcode: FR 5 digits (default); BE 4 digits (1000-9999, the last such token
 *    followed only by words, never the first token); CA "A1A 1A1" with or
 *    without the space, returned upper case with a space.
 *  - City: (1) the words after the postcode ("75003 Paris"), else (2) the last
 *    comma-separated segment when it is not a street ("..., Lyon"), else (3) a
 *    trailing "paris|lyon|marseille + arrondissement" ("Paris 4e", "paris
 *    xiiie"), else (4) a trailing known city name (caller's `isCity`, else the
 *    built-in table of large communes) unless it follows a linking word ("rue
 *    de Paris" keeps Paris in the street).
 *  - Number: a leading number ("12", "12b", "12 bis", "n° 12", "12-14" → 12),
 *    else a number ending the street part ("RUE GERARD 32", Belgian order),
 *    unless it follows a month name ("rue du 8 mai 1945").
 *  - Rep: attached or separate; b→bis, t→ter, q→quater, other letters kept.
 *    A separate single letter is a rep only if more words follow it and it is
 *    not a street-type abbreviation ("3 r de ..." is "rue").
 */
import {
  ABBREVIATIONS_TYPE_POSITION,
  STOPWORDS,
  expandAbbreviations,
  normalizeRep,
  isOrdinal,
  normalizeText,
} from '../../../schemas/tables/address-key.ts';
import type { Country } from '../../../schemas/common.ts';
import { profileOf } from '../../../datasets/countries.ts';

export type AddressCountry = Country;

export interface ParsedAddress {
  number: number | null;
  /** 'bis' | 'ter' | 'quater' | 'quinquies' | a single letter | null */
  rep: string | null;
  /** Normalised, abbreviations expanded, linking words kept ("rue de bretagne"). */
  street: string;
  postcode: string | null;
  /** Normalised city without the arrondissement ("paris"). */
  city: string | null;
  /** Arrondissement hint for Paris / Lyon / Marseille, from the city text or the postcode. */
  arrondissement: number | null;
}

export interface ParseOptions {
  /** Which postcode forms to recognise. Default 'fr'. */
  country?: AddressCountry;
  /** Recogniser for city names (normalised text), e.g. backed by the BAN commune list. */
  isCity?: (normalizedName: string) => boolean;
}

/** Large communes recognised as a trailing city when no postcode/comma says so. */
export const KNOWN_CITIES: ReadonlySet<string> = new Set([
  'paris', 'marseille', 'lyon', 'toulouse', 'nice', 'nantes', 'montpellier', 'strasbourg', 'bordeaux',
  'lille', 'rennes', 'reims', 'toulon', 'saint etienne', 'le havre', 'grenoble', 'dijon', 'angers',
  'nimes', 'villeurbanne', 'clermont ferrand', 'le mans', 'aix en provence', 'brest', 'tours', 'amiens',
  'limoges', 'annecy', 'perpignan', 'boulogne billancourt', 'metz', 'besancon', 'orleans',
  'saint denis', 'argenteuil', 'rouen', 'montreuil', 'mulhouse', 'caen', 'nancy', 'saint paul',
  'roubaix', 'tourcoing', 'nanterre', 'vitry sur seine', 'avignon', 'creteil', 'poitiers', 'versailles',
  'courbevoie', 'pau', 'colombes', 'aulnay sous bois', 'asnieres sur seine', 'rueil malmaison',
  'la rochelle', 'ajaccio', 'bastia', 'cayenne', 'fort de france', 'pointe a pitre', 'mamoudzou',
  'le tampon', 'saint pierre',
  // Belgium
  'bruxelles', 'brussel', 'ixelles', 'elsene', 'schaerbeek', 'anderlecht', 'uccle', 'anvers', 'antwerpen',
  'gand', 'gent', 'liege', 'luik', 'charleroi', 'namur', 'mons', 'louvain', 'leuven', 'bruges', 'brugge',
  'arlon',
  // Quebec
  'montreal', 'quebec', 'laval', 'gatineau', 'longueuil', 'sherbrooke', 'levis', 'trois rivieres',
  'saguenay', 'terrebonne',
]);

const ARR_CITIES: Readonly<Record<string, number>> = { paris: 20, lyon: 9, marseille: 16 };

const MONTHS = new Set([
  'janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre',
  'novembre', 'decembre',
]);

const REP_WORDS = new Set(['bis', 'ter', 'quater', 'quinquies']);

/** Number with an optional attached rep: "12", "12b", "12bis", "12ter". */
const NUM_RE = /^(\d{1,5})(bis|ter|quater|quinquies|[a-z])?$/;

const ROMAN: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10 };

function romanToInt(s: string): number | null {
  if (!/^[ivx]+$/.test(s)) return null;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i]];
    const next = i + 1 < s.length ? ROMAN[s[i + 1]] : 0;
    total += v < next ? -v : v;
  }
  return total > 0 ? total : null;
}

/** "13", "13e", "13eme", "1er", "xiiie", "iv" → arrondissement number. */
export function parseArrondissement(token: string): number | null {
  const m = /^(\d{1,2}|[ivx]+)(e|er|eme|em|ieme|ier|ere)?$/.exec(token);
  if (!m) return null;
  const n = /^\d/.test(m[1]) ? Number(m[1]) : romanToInt(m[1]);
  return n && n > 0 ? n : null;
}

function arrondissementFromPostcode(pc: string | null): { city: string; arr: number } | null {
  if (!pc || !/^\d{5}$/.test(pc)) return null;
  const n = Number(pc.slice(2));
  if (pc.startsWith('75') && n >= 1 && n <= 20) return { city: 'paris', arr: n };
  if (pc === '75116') return { city: 'paris', arr: 16 };
  if (pc.startsWith('690') && n >= 1 && n <= 9) return { city: 'lyon', arr: n };
  if (pc.startsWith('130') && n >= 1 && n <= 16) return { city: 'marseille', arr: n };
  return null;
}

interface Tok {
  t: string;
  seg: number;
}

function findPostcode(toks: Tok[], country: AddressCountry): { start: number; len: number; value: string } | null {
  const rule = profileOf(country).address.postcode;
  if (rule === 'canadian_a1a_1a1') {
    for (let i = 0; i < toks.length; i++) {
      const a = toks[i].t;
      if (/^[a-z]\d[a-z]\d[a-z]\d$/.test(a)) return { start: i, len: 1, value: `${a.slice(0, 3)} ${a.slice(3)}`.toUpperCase() };
      const b = toks[i + 1]?.t;
      if (b && /^[a-z]\d[a-z]$/.test(a) && /^\d[a-z]\d$/.test(b)) return { start: i, len: 2, value: `${a} ${b}`.toUpperCase() };
    }
    return null;
  }
  if (rule === 'four_digits_before_locality') {
    // The last 4-digit token followed only by words (the city), e.g. "Rue de la Loi 16, 1000 Bruxelles".
    for (let i = toks.length - 1; i >= 0; i--) {
      if (!/^\d{4}$/.test(toks[i].t) || Number(toks[i].t) < 1000) continue;
      const rest = toks.slice(i + 1).map((x) => x.t);
      if (!rest.every((x) => /^\p{L}/u.test(x))) continue;
      // First token: "1000 Bruxelles" is a postcode, "1200 rue Principale" a number.
      if (i === 0 && (rest.length === 0 || looksLikeStreet(rest))) continue;
      return { start: i, len: 1, value: toks[i].t };
    }
    return null;
  }
  const i = toks.findIndex((x) => /^\d{5}$/.test(x.t));
  return i >= 0 ? { start: i, len: 1, value: toks[i].t } : null;
}

function expandCity(tokens: string[]): string {
  const map: Record<string, string> = { st: 'saint', ste: 'sainte', sts: 'saints', stes: 'saintes' };
  // Drop CEDEX and its office number: "paris cedex 13" → "paris".
  const c = tokens.indexOf('cedex');
  const kept = c >= 0 ? tokens.slice(0, c) : tokens;
  return kept.map((t) => map[t] ?? t).join(' ');
}

/** City tokens → city + arrondissement ("paris 13e" → paris, 13). */
function splitArrondissement(tokens: string[]): { city: string; arr: number | null } {
  if (tokens.length >= 2) {
    const name = tokens.slice(0, -1).join(' ');
    const max = ARR_CITIES[name];
    const arr = max ? parseArrondissement(tokens[tokens.length - 1]) : null;
    if (max && arr && arr <= max) return { city: name, arr };
  }
  return { city: expandCity(tokens), arr: null };
}

function looksLikeStreet(tokens: string[]): boolean {
  if (tokens.length === 0) return false;
  if (/^\d/.test(tokens[0])) return true;
  const first = expandAbbreviations(tokens.join(' ')).split(' ')[0];
  return STREET_TYPES.has(first);
}

/** Street types (expanded form) used to tell a street segment from a city segment. */
export const STREET_TYPES: ReadonlySet<string> = new Set([
  'rue', 'avenue', 'boulevard', 'place', 'impasse', 'allee', 'chemin', 'route', 'square', 'cours', 'quai',
  'passage', 'faubourg', 'residence', 'lotissement', 'porte', 'villa', 'cite', 'sentier', 'voie', 'rond',
  'carrefour', 'esplanade', 'promenade', 'parvis', 'montee', 'traverse', 'hameau', 'lieu', 'chaussee',
  'galerie', 'mail', 'pont', 'rampe', 'ruelle', 'venelle', 'zone', 'domaine', 'clos', 'cour', 'jardin',
]);

export function parseAddressQuery(q: string, opts: ParseOptions = {}): ParsedAddress {
  const country = opts.country ?? 'fr';
  const isCity = opts.isCity ?? ((s: string) => KNOWN_CITIES.has(s));

  const segments = q.split(/[,;\n]+/).map(normalizeText).filter(Boolean);
  let toks: Tok[] = segments.flatMap((s, seg) => s.split(' ').map((t) => ({ t, seg })));

  // --- postcode ---
  let postcode: string | null = null;
  let cityTokens: string[] | null = null;
  const pc = findPostcode(toks, country);
  if (pc) {
    postcode = pc.value;
    const after = toks.slice(pc.start + pc.len);
    toks = toks.slice(0, pc.start);
    // Words after the postcode are the city ("75003 Paris"), unless they look
    // like a street (postcode first: "75003, 12 rue de Bretagne"). A street before the postcode
    // settles it: what follows is the city, even one named like a street ("73000 Pont-les-Bains").
    const afterWords = after.map((x) => x.t);
    const streetBefore = toks.length > 0 && looksLikeStreet(toks.map((x) => x.t));
    if (afterWords.length && (streetBefore || !looksLikeStreet(afterWords))) cityTokens = afterWords;
    else toks = toks.concat(after);
  }

  // --- city from the last comma segment ---
  if (!cityTokens) {
    const lastSeg = toks.length ? toks[toks.length - 1].seg : -1;
    const segTokens = toks.filter((x) => x.seg === lastSeg).map((x) => x.t);
    if (lastSeg > 0 && segTokens.length && !looksLikeStreet(segTokens) && toks.some((x) => x.seg < lastSeg)) {
      cityTokens = segTokens;
      toks = toks.filter((x) => x.seg !== lastSeg);
    }
  }

  // --- trailing city: "paris 4e", then known names (longest first) ---
  if (!cityTokens && toks.length >= 2) {
    const words = toks.map((x) => x.t);
    const n = words.length;
    const last = words[n - 1];
    const prev = words[n - 2];
    if (ARR_CITIES[prev] && parseArrondissement(last) !== null && !(n >= 3 && STOPWORDS.has(words[n - 3]))) {
      cityTokens = [prev, last];
    } else {
      for (let k = Math.min(4, n - 1); k >= 1; k--) {
        const before = words[n - k - 1];
        if (STOPWORDS.has(before) || STREET_TYPES.has(expandAbbreviations(before))) continue;
        if (isCity(expandCity(words.slice(n - k)))) {
          cityTokens = words.slice(n - k);
          break;
        }
      }
    }
    if (cityTokens) toks = toks.slice(0, n - cityTokens.length);
  }

  let city: string | null = null;
  let arrondissement: number | null = null;
  if (cityTokens && cityTokens.length) {
    const s = splitArrondissement(cityTokens);
    city = s.city || null;
    arrondissement = s.arr;
  }
  const fromPc = arrondissementFromPostcode(postcode);
  if (fromPc && arrondissement === null && (city === null || city === fromPc.city)) arrondissement = fromPc.arr;

  // --- number + rep ---
  let words = toks.map((x) => x.t);
  let number: number | null = null;
  let rep: string | null = null;

  // "n 12", "no 12", "numero 12"
  if (words.length >= 2 && ['n', 'no', 'numero'].includes(words[0]) && NUM_RE.test(words[1])) words = words.slice(1);

  const takeRepAfter = (i: number, requireMore: boolean): number => {
    const w = words[i];
    if (w === undefined) return 0;
    if (REP_WORDS.has(w)) return 1;
    const more = i + 1 < words.length;
    if (/^[a-z]$/.test(w) && (!requireMore || more) && !(more && ABBREVIATIONS_TYPE_POSITION[w])) return 1;
    return 0;
  };

  const lead = NUM_RE.exec(words[0] ?? '');
  if (lead && words.length >= 2) {
    number = Number(lead[1]);
    rep = lead[2] ?? null;
    let consumed = 1;
    if (!rep && takeRepAfter(1, true)) {
      rep = words[1];
      consumed = 2;
    }
    // range "12-14 rue ..." → keep the first number; a range rises and its second number is no
    // ordinal: "909 3e Avenue" is 909 on 3e Avenue, "12 14e rue" 12 on 14e Rue.
    const second = /^(\d{1,5})([a-z]?)$/.exec(words[consumed] ?? '');
    if (second && Number(second[1]) > number && !isOrdinal(words[consumed]!) && consumed + 1 < words.length) consumed++;
    words = words.slice(consumed);
  } else {
    for (let i = words.length - 1; i >= 1; i--) {
      const m = NUM_RE.exec(words[i]);
      if (!m) continue;
      const tail = words.length - 1 - i; // words after the number
      const repAfter = !m[2] && tail === 1 ? takeRepAfter(i + 1, false) : 0;
      if (tail !== repAfter) break; // only a number ending the street part
      if (MONTHS.has(words[i - 1]) || STOPWORDS.has(words[i - 1])) break;
      number = Number(m[1]);
      rep = m[2] ?? (repAfter ? words[i + 1] : null);
      words = words.slice(0, i);
      break;
    }
  }

  return {
    number,
    rep: normalizeRep(rep),
    street: expandAbbreviations(words.join(' ')),
    postcode,
    city,
    arrondissement,
  };
}
