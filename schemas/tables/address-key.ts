/**
 * How the `street_key` and `locality_key` columns of `addresses` are computed: text
 * normalisation and abbreviation tables shared by the ingest (writing keys) and the API
 * (computing the key of a query), so both sides always agree. Pure functions, no I/O.
 */

/**
 * Lower case, accents removed (NFD then combining marks dropped), ligatures
 * unfolded (œ→oe, æ→ae, ß→ss), apostrophes / hyphens / any punctuation turned
 * into spaces, spaces collapsed and trimmed. Letters and digits of any script
 * are kept. `normalizeText("Rue d’Alésia - 14e")` → `"rue d alesia 14e"`.
 */
export function normalizeText(s: string): string {
  const table = latinTable ?? (latinTable = buildLatinTable());
  // Latin text (all but a few names) goes character by character through a table; anything
  // else through the general rules. Both give the same text (test/schemas/tables/address-key.test.ts).
  let out = '';
  let space = true; // at the start, or after a separator: a separator adds nothing
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= LATIN_END) return normalizeTextByRules(s);
    const piece = table[code]!;
    if (piece === ' ') {
      if (!space) (out += ' '), (space = true);
    } else if (piece !== '') (out += piece), (space = false);
  }
  return space && out.length > 0 ? out.slice(0, -1) : out;
}

/** The general rules of `normalizeText`, for any script. */
export function normalizeTextByRules(s: string): string {
  return s
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/ +/g, ' ');
}

/**
 * Up to the end of Latin Extended-B no character is a combining mark or part of a pair, and
 * none decomposes into a letter followed by a symbol, so the rules apply one character at a
 * time: each gives its letters, nothing (a lone mark) or a separator.
 */
const LATIN_END = 0x250;
let latinTable: string[] | null = null;

function buildLatinTable(): string[] {
  const table: string[] = [];
  for (let code = 0; code < LATIN_END; code++) {
    // Between two letters, so a separator shows as a space and nothing is trimmed away.
    const around = normalizeTextByRules(`a${String.fromCharCode(code)}a`);
    table.push(around === 'a a' ? ' ' : around.slice(1, -1));
  }
  return table;
}

/**
 * Street-type abbreviations that are unambiguous wherever they appear as a
 * whole token ("r du fbg st antoine" → "rue du faubourg saint antoine").
 */
export const ABBREVIATIONS_ANYWHERE: Readonly<Record<string, string>> = {
  bd: 'boulevard',
  bld: 'boulevard',
  blvd: 'boulevard',
  boul: 'boulevard',
  boulev: 'boulevard',
  av: 'avenue',
  ave: 'avenue',
  aven: 'avenue',
  fg: 'faubourg',
  fbg: 'faubourg',
  faub: 'faubourg',
  st: 'saint',
  ste: 'sainte',
  sts: 'saints',
  stes: 'saintes',
  imp: 'impasse',
  che: 'chemin',
  chem: 'chemin',
  rte: 'route',
  sq: 'square',
  crs: 'cours',
  qai: 'quai',
  pte: 'porte',
  res: 'residence',
  resid: 'residence',
  // Common titles in street names (both sides are expanded, so this only
  // makes "av du gal leclerc" meet "avenue du general leclerc").
  gal: 'general',
  gen: 'general',
  mal: 'marechal',
  pdt: 'president',
  pres: 'president',
  prof: 'professeur',
  dr: 'docteur',
  cdt: 'commandant',
};

/**
 * Abbreviations that are also ordinary words or letters ("Rue du Lot", "Allée
 * des Pins", a rep letter "r"...). They are expanded ONLY as the first token of
 * the street, i.e. in street-type position.
 */
export const ABBREVIATIONS_TYPE_POSITION: Readonly<Record<string, string>> = {
  r: 'rue',
  pl: 'place',
  all: 'allee',
  qu: 'quai',
  pass: 'passage',
  lot: 'lotissement',
  rpt: 'rond point',
  carr: 'carrefour',
  ch: 'chemin',
  mte: 'montee',
  prom: 'promenade',
  sent: 'sentier',
  tra: 'traverse',
  vla: 'villa',
  ham: 'hameau',
  zi: 'zone industrielle',
  za: 'zone artisanale',
};

/**
 * Expands French street abbreviations in an ALREADY NORMALISED text (see
 * `normalizeText`). Tokens of `ABBREVIATIONS_ANYWHERE` are expanded wherever
 * they are; those of `ABBREVIATIONS_TYPE_POSITION` only as the first token.
 * The BAN spells types and "saint" in full, so running this on both sides makes
 * them comparable.
 */
export function expandAbbreviations(normalized: string): string {
  if (!normalized) return normalized;
  const tokens = normalized.split(' ');
  for (let i = 0; i < tokens.length; i++) tokens[i] = expandToken(tokens[i]!, i === 0);
  return tokens.join(' ');
}

// Maps: a plain object's lookup of a missing key (most tokens) walks its prototype, several
// times slower, and keys are computed for every street of every file ingested.
const ANYWHERE = new Map(Object.entries(ABBREVIATIONS_ANYWHERE));
const TYPE_POSITION = new Map(Object.entries(ABBREVIATIONS_TYPE_POSITION));

function expandToken(token: string, first: boolean): string {
  return (first ? TYPE_POSITION.get(token) : undefined) ?? ANYWHERE.get(token) ?? token;
}

/** Linking words dropped from comparison keys ("rue de la paix" ~ "rue paix"). */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'de', 'du', 'des', 'd', 'la', 'le', 'les', 'l', 'a', 'au', 'aux', 'et', 'en', 'sur', 'sous', 'lez',
]);

/**
 * Ordinal numbers as streets are named in Quebec and Belgium ("1re Avenue", "3e Rue", "2ème",
 * "1er", "4th", Dutch "1ste", "2de"): digits and one of these endings, normalised.
 */
const ORDINAL = /^(\d{1,4})(e|er|re|ere|eme|ieme|em|nd|rd|st|th|ste|de)$/;

export function isOrdinal(token: string): boolean {
  return ORDINAL.test(token);
}

/** One spelling of an ordinal in keys: "1re", "1ere", "1er", "1st" -> "1e". */
function canonicalOrdinal(token: string): string {
  const m = ORDINAL.exec(token);
  return m ? `${m[1]}e` : token;
}

/** Normalised, expanded tokens without linking words; ordinals in one spelling. */
export function significantTokens(text: string): string[] {
  const normalized = normalizeText(text);
  if (!normalized) return [];
  const out: string[] = [];
  const tokens = normalized.split(' ');
  for (let i = 0; i < tokens.length; i++) {
    // An expansion ("rond point", "zone industrielle") may hold several words.
    const expanded = expandToken(tokens[i]!, i === 0);
    for (const t of expanded.includes(' ') ? expanded.split(' ') : [expanded]) if (!STOPWORDS.has(t)) out.push(/^\d/.test(t) ? canonicalOrdinal(t) : t);
  }
  return out;
}

/**
 * Comparable street key: normalised, expanded, without linking words.
 * "R. de la Roquette" and "rue roquette" both give "rue roquette".
 */
export function streetKey(street: string): string {
  return significantTokens(street).join(' ');
}

/** Canonical rep (indice de répétition): b→bis, t→ter, q→quater; other letters kept. */
export function normalizeRep(rep: string | null | undefined): string | null {
  if (rep == null) return null;
  const r = normalizeText(rep).replace(/ /g, '');
  if (!r) return null;
  return REP_CANONICAL[r] ?? r;
}

export const REP_CANONICAL: Readonly<Record<string, string>> = {
  b: 'bis',
  bis: 'bis',
  t: 'ter',
  ter: 'ter',
  q: 'quater',
  qua: 'quater',
  quater: 'quater',
  quinquies: 'quinquies',
};

/** Comparable locality name: normalised text ("Paris 13e Arrondissement" -> "paris 13e arrondissement"). */
export function localityKey(name: string): string {
  return normalizeText(name);
}

/**
 * Several keys of one name in one column (a Belgian street in French, Dutch and German):
 * distinct keys joined by |, which normalised text never contains. Search matches any of them.
 */
export const KEY_SEPARATOR = '|';

export function joinKeys(keys: string[]): string {
  return [...new Set(keys.filter((k) => k !== ''))].join(KEY_SEPARATOR);
}

export function splitKeys(key: string): string[] {
  return key.split(KEY_SEPARATOR);
}
