/**
 * Jaro-Winkler similarity computed as DuckDB's `jaro_winkler_similarity` does (its port of
 * rapidfuzz's jaro_winkler: UTF-8 bytes compared, not characters; match window
 * max(len) / 2 - 1; the first unmatched byte of the window taken; half the transpositions
 * rounded down; prefix of at most 4 bytes weighted 0.1 when the Jaro score is above 0.7), so
 * that the address index chooses the spelling variants DuckDB chose, to the last bit of the
 * score (the scores are compared and ordered: test/api/location/search/jaro-winkler.test.ts).
 */

const encoder = new TextEncoder();

/** The bytes DuckDB compares: the string itself when ASCII (no copy), else its UTF-8 bytes. */
export function jwBytes(s: string): string | Uint8Array {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return encoder.encode(s);
  return s;
}

type Bytes = string | Uint8Array;
const at = (s: Bytes, i: number): number => (typeof s === 'string' ? s.charCodeAt(i) : s[i]!);

let flagsA = new Uint8Array(64), flagsB = new Uint8Array(64);

export function jaroSimilarity(a: Bytes, b: Bytes): number {
  const la = a.length, lb = b.length;
  if (la === 0 || lb === 0) return la === lb ? 1 : 0;
  const bound = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  if (flagsA.length < la) flagsA = new Uint8Array(la * 2);
  if (flagsB.length < lb) flagsB = new Uint8Array(lb * 2);
  flagsA.fill(0, 0, la); flagsB.fill(0, 0, lb);
  let m = 0;
  for (let i = 0; i < la; i++) {
    const c = at(a, i);
    const end = Math.min(lb, i + bound + 1);
    for (let j = Math.max(0, i - bound); j < end; j++) {
      if (flagsB[j] === 0 && at(b, j) === c) { flagsA[i] = 1; flagsB[j] = 1; m++; break; }
    }
  }
  if (m === 0) return 0;
  let t = 0;
  for (let i = 0, j = 0; i < la; i++) {
    if (flagsA[i] === 0) continue;
    while (flagsB[j] === 0) j++;
    if (at(a, i) !== at(b, j)) t++;
    j++;
  }
  t = Math.floor(t / 2);
  let sim = 0;
  sim += m / la;
  sim += m / lb;
  sim += (m - t) / m;
  return sim / 3;
}

export function jaroWinklerSimilarity(a: Bytes, b: Bytes): number {
  let sim = jaroSimilarity(a, b);
  if (sim > 0.7) {
    const max = Math.min(a.length, b.length, 4);
    let prefix = 0;
    while (prefix < max && at(a, prefix) === at(b, prefix)) prefix++;
    sim += prefix * 0.1 * (1 - sim);
  }
  return sim;
}

/** A query prepared for `jaroWinklerBound`: its bytes and how many times each byte occurs. */
export interface BoundQuery { bytes: Bytes; counts: Uint16Array }

export function boundQuery(bytes: Bytes): BoundQuery {
  const counts = new Uint16Array(256);
  for (let i = 0; i < bytes.length; i++) counts[at(bytes, i) & 0xff]++;
  return { bytes, counts };
}

const used = new Uint16Array(256);

/**
 * An upper bound of `jaroWinklerSimilarity(a, q.bytes)` in O(length): a match pairs two equal
 * bytes, so the matches are at most the bytes the two share counted with multiplicity, and
 * transpositions only lower the score; the Winkler bonus is then taken with the actual common
 * prefix. A key whose bound is under the threshold cannot reach it, so the quadratic match is
 * skipped for it (the spelling-variant search compares a query with every street key of a
 * country when no place narrows it).
 */
export function jaroWinklerBound(a: Bytes, q: BoundQuery): number {
  const la = a.length, lb = q.bytes.length;
  if (la === 0 || lb === 0) return la === lb ? 1 : 0;
  let m = 0;
  for (let i = 0; i < la; i++) { const c = at(a, i) & 0xff; if (used[c]! < q.counts[c]!) m++; used[c]++; }
  for (let i = 0; i < la; i++) used[at(a, i) & 0xff] = 0;
  if (m === 0) return 0;
  const jaro = (m / la + m / lb + 1) / 3;
  if (jaro <= 0.7) return jaro;
  const max = Math.min(la, lb, 4);
  let prefix = 0;
  while (prefix < max && at(a, prefix) === at(q.bytes, prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
