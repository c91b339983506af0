/**
 * AFNOR-style normalisation of a street name as found in the BAN `nom_afnor` column: upper case,
 * no accents, apostrophes and hyphens turned into spaces, at most 32 characters. When the name is
 * too long the street type and common words are abbreviated, then articles are dropped.
 */
const TYPE_ABBREV: Record<string, string> = {
  AVENUE: 'AV',
  BOULEVARD: 'BD',
  PLACE: 'PL',
  FAUBOURG: 'FG',
  IMPASSE: 'IMP',
  PASSAGE: 'PAS',
  ROUTE: 'RTE',
  CHEMIN: 'CHE',
  QUAI: 'QUAI',
  SQUARE: 'SQ',
};
const WORD_ABBREV: Record<string, string> = {
  SAINT: 'ST',
  SAINTE: 'STE',
  FAUBOURG: 'FG',
  DOCTEUR: 'DR',
  GENERAL: 'GAL',
  MARECHAL: 'MAL',
  PROFESSEUR: 'PR',
};
const ARTICLES = new Set(['DE', 'DES', 'DU', 'LA', 'LE', 'LES', 'EN', 'D', 'L', 'ET']);

export function nomAfnor(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ');
  const text = () => words.join(' ');
  if (text().length <= 32) return text();
  if (TYPE_ABBREV[words[0]]) words[0] = TYPE_ABBREV[words[0]];
  for (let i = 1; i < words.length && text().length > 32; i++) if (WORD_ABBREV[words[i]]) words[i] = WORD_ABBREV[words[i]];
  for (let i = 1; i < words.length && text().length > 32; ) {
    if (ARTICLES.has(words[i])) words.splice(i, 1);
    else i++;
  }
  return text().slice(0, 32).trim();
}
