/**
 * Comparable keys and candidate scoring for address matching against the BAN.
 *
 * Key layout (the SAME function runs at ingest and at query time):
 *
 *     "<streetKey>|<postcode>|<number>|<rep>|"
 *
 * from the most general to the most specific component, so that:
 *  - an ingested address gets the full key (rep '' when none):
 *      "rue bretagne|75003|12|bis|", "rue bretagne|75003|12||";
 *  - a query gets the key truncated right after the last known component,
 *    i.e. a PREFIX: number without rep → "rue bretagne|75003|12|" (matches 12,
 *    12 bis, 12 ter), no postcode → "rue bretagne|" (the street anywhere).
 *    A query with every component gives the full key: equality.
 * Street keys drop linking words and expand abbreviations, so "R. de Bretagne"
 * and "rue Bretagne" agree. The city is not in the key (the postcode carries
 * the locality, and the BAN has several cities per postcode and vice versa);
 * it is used by `scoreCandidate` to rank the prefix matches.
 */
import { normalizeRep, normalizeText, significantTokens, streetKey } from '../../../schemas/tables/address-key.ts';
import { STREET_TYPES, type ParsedAddress } from './parse.ts';

export interface AddressParts {
  number: number | null;
  rep: string | null;
  street: string;
  postcode: string | null;
  city: string | null;
}

/** A BAN CSV row (adresses-*.csv), the columns the key needs. */
export interface BanRow {
  numero: string | number | null;
  rep: string | null;
  nom_voie: string;
  code_postal: string | null;
  nom_commune: string | null;
}

const SEP = '|';

function clean(s: string): string {
  return s.replace(/\|/g, ' ');
}

/**
 * Full key of a known address (ingest side). A missing number (street-level
 * row) or rep is encoded as ''.
 */
export function addressKey(parts: AddressParts): string {
  const rep = normalizeRep(parts.rep) ?? '';
  return [
    clean(streetKey(parts.street)),
    clean((parts.postcode ?? '').toUpperCase()),
    parts.number == null ? '' : String(parts.number),
    rep,
    '',
  ].join(SEP);
}

/**
 * Query side: the key truncated after the last component the query knows, to
 * be used as a prefix (`fullKey.startsWith(prefix)`, or SQL `LIKE prefix || '%'`).
 */
export function addressKeyPrefix(parts: Pick<AddressParts, 'street' | 'postcode' | 'number' | 'rep'>): string {
  let key = clean(streetKey(parts.street)) + SEP;
  if (!parts.postcode) return key;
  key += clean(parts.postcode.toUpperCase()) + SEP;
  if (parts.number == null) return key;
  key += String(parts.number) + SEP;
  const rep = normalizeRep(parts.rep);
  if (rep) key += rep + SEP;
  return key;
}

/** Key of a BAN row, for ingest. */
export function banAddressKey(row: BanRow): string {
  return addressKey(banRowToParts(row));
}

export function banRowToParts(row: BanRow): AddressParts {
  const n = row.numero == null || row.numero === '' ? null : Number(row.numero);
  return {
    number: n != null && Number.isFinite(n) && n > 0 ? n : null, // BAN uses 99999 / 0 for street-level "numbers" in some exports
    rep: row.rep || null,
    street: row.nom_voie,
    postcode: row.code_postal || null,
    city: row.nom_commune ? normalizeText(row.nom_commune) : null,
  };
}

// ---------------------------------------------------------------- scoring

function trigrams(s: string): Map<string, number> {
  const padded = `  ${s} `;
  const m = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const g = padded.slice(i, i + 3);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Sørensen–Dice coefficient on character trigrams (0..1). */
export function trigramSimilarity(a: string, b: string): number {
  if (!a && !b) return 1;
  if (!a || !b) return 0;
  const ta = trigrams(a);
  const tb = trigrams(b);
  let inter = 0;
  let na = 0;
  let nb = 0;
  for (const v of ta.values()) na += v;
  for (const v of tb.values()) nb += v;
  for (const [g, v] of ta) inter += Math.min(v, tb.get(g) ?? 0);
  return (2 * inter) / (na + nb);
}

/**
 * Soft token overlap (0..1): Dice coefficient on significant tokens where a
 * token pair counts 1 when equal and its trigram similarity when >= 0.7 (typos:
 * "beaumarchai" ~ "beaumarchais"). Street-type tokens ("rue", "boulevard"...)
 * weigh half: two different streets of the same type must not look alike.
 */
export function tokenSimilarity(a: string, b: string): number {
  const ta = [...new Set(significantTokens(a))];
  const tb = [...new Set(significantTokens(b))];
  if (ta.length === 0 && tb.length === 0) return 1;
  if (ta.length === 0 || tb.length === 0) return 0;
  const w = (t: string) => (STREET_TYPES.has(t) ? 0.5 : 1);
  const best = (t: string, others: string[]) => {
    let m = 0;
    for (const o of others) {
      const s = t === o ? 1 : trigramSimilarity(t, o);
      if (s > m) m = s;
    }
    return m >= 0.7 ? m : 0;
  };
  let matched = 0;
  let total = 0;
  for (const t of ta) {
    matched += w(t) * best(t, tb);
    total += w(t);
  }
  for (const t of tb) {
    matched += w(t) * best(t, ta);
    total += w(t);
  }
  return matched / total;
}

/** Street similarity: mean of token overlap and trigram similarity of street keys. */
export function streetSimilarity(a: string, b: string): number {
  return 0.5 * tokenSimilarity(a, b) + 0.5 * trigramSimilarity(streetKey(a), streetKey(b));
}

export const SCORE_WEIGHTS = { street: 0.55, locality: 0.25, number: 0.2 } as const;

function localityScore(query: ParsedAddress | AddressParts, cand: AddressParts): number {
  const qPc = query.postcode?.toUpperCase() ?? null;
  const cPc = cand.postcode?.toUpperCase() ?? null;
  const qCity = query.city ? normalizeText(query.city) : null;
  const cCity = cand.city ? normalizeText(cand.city) : null;
  const arr = 'arrondissement' in query ? query.arrondissement : null;
  if (qPc && cPc) {
    if (qPc === cPc) return 1;
    if (qCity && cCity && qCity === cCity) return 0.7; // right city, wrong/old postcode
    if (/^\d{5}$/.test(qPc) && qPc.slice(0, 2) === cPc.slice(0, 2)) return 0.2; // same département
    return 0;
  }
  if (qCity && cCity) {
    if (qCity !== cCity) return trigramSimilarity(qCity, cCity) >= 0.8 ? 0.6 : 0;
    if (arr && cPc && /^\d{5}$/.test(cPc)) {
      const candArr = cPc === '75116' ? 16 : Number(cPc.slice(3));
      return candArr === arr ? 1 : 0.6;
    }
    return 0.9;
  }
  return 0.5; // query says nothing about the locality: neutral
}

function numberScore(query: ParsedAddress | AddressParts, cand: AddressParts): number {
  if (query.number == null) return cand.number == null ? 1 : 0.5;
  if (cand.number == null) return 0.4; // street-level candidate for a numbered query
  if (query.number !== cand.number) return Math.abs(query.number - cand.number) <= 2 ? 0.3 : 0;
  const qr = normalizeRep(query.rep);
  const cr = normalizeRep(cand.rep);
  if (qr === cr) return 1;
  return qr == null || cr == null ? 0.75 : 0.5;
}

/**
 * Ranks a candidate (BAN address) for a parsed query: 0..1, higher is better.
 * Weighted sum of street similarity (token overlap + trigrams), locality
 * agreement (postcode, city, arrondissement) and number/rep agreement.
 */
export function scoreCandidate(query: ParsedAddress | AddressParts, candidate: AddressParts): number {
  const s =
    SCORE_WEIGHTS.street * streetSimilarity(query.street, candidate.street) +
    SCORE_WEIGHTS.locality * localityScore(query, candidate) +
    SCORE_WEIGHTS.number * numberScore(query, candidate);
  return Math.max(0, Math.min(1, Math.round(s * 1e6) / 1e6));
}

/**
 * scoreCandidate for many candidates of one query, with the same result: a street's candidates
 * share their street and locality, so the street similarity (trigrams and token overlap, the
 * scoring's cost) and the locality score are computed once per distinct value.
 */
export function candidateScorer(query: ParsedAddress | AddressParts): (candidate: AddressParts) => number {
  const streets = new Map<string, number>(), localities = new Map<string, number>();
  return (candidate) => {
    let street = streets.get(candidate.street);
    if (street === undefined) { street = streetSimilarity(query.street, candidate.street); streets.set(candidate.street, street); }
    const lk = `${candidate.postcode ?? '\u0001'}\0${candidate.city ?? '\u0001'}`;
    let locality = localities.get(lk);
    if (locality === undefined) { locality = localityScore(query, candidate); localities.set(lk, locality); }
    const s = SCORE_WEIGHTS.street * street + SCORE_WEIGHTS.locality * locality + SCORE_WEIGHTS.number * numberScore(query, candidate);
    return Math.max(0, Math.min(1, Math.round(s * 1e6) / 1e6));
  };
}
