import { quotedString } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import type { MemoryTable, Warehouse } from '../../core/warehouse.ts';
import { addressIndexOf, type AddressIndex, type NearFilters } from './address-index.ts';
import { candidateScorer, streetKey, type ParsedAddress } from '../address/index.ts';

/**
 * One row per street of a locality, with the envelope of its cells, held in DuckDB's memory:
 * address search reads there until the address index is built. Keys holding several language
 * variants (Belgium: "grand place|grote markt") give one row per variant. Lazy: made at the first
 * search that needs it, so a server whose saved index loads before any request never holds it
 * (135-180 MB at 10 M addresses, docs/benchmarks.md).
 */
export const STREETS_MEMORY_TABLE: MemoryTable = { from: 'addresses', lazy: true, select: `SELECT street_key, locality_key, locality_code, list(DISTINCT postcode) FILTER (WHERE postcode IS NOT NULL) AS postcodes, min(cell) AS lo, max(cell) AS hi FROM (
      SELECT street_key, locality_key, locality_code, postcode, cell FROM {src} WHERE NOT contains(street_key, '|') AND NOT contains(locality_key, '|')
      UNION ALL
      SELECT s.k AS street_key, l.k AS locality_key, locality_code, postcode, cell FROM {src} a, unnest(string_split(a.street_key, '|')) AS s(k), unnest(string_split(a.locality_key, '|')) AS l(k)
      WHERE contains(a.street_key, '|') OR contains(a.locality_key, '|')) GROUP BY ALL` };

export interface OfficialAddress {
  id: string;
  longitude: number;
  latitude: number;
  number: number | null;
  rep: string | null;
  street: string;
  postcode: string | null;
  locality_code: string;
  locality_name: string;
  label: string;
  /** Cadastral parcels as published (addresses.parcels), null when the producer gives none. */
  parcels: string[] | null;
  locality_key: string;
  /** Catalogue id of the address file. */
  source: string;
}

const COLUMNS = 'id, longitude, latitude, number, rep, street, postcode, locality_code, locality_name, label, parcels, locality_key, source';

/** Municipal arrondissement codes of a city's arrondissement number (Paris 751xx, Lyon 6938x, Marseille 132xx). */
function arrondissementCode(city: string | null, n: number): string | null {
  if (city === 'paris' && n >= 1 && n <= 20) return `751${String(n).padStart(2, '0')}`;
  if (city === 'lyon' && n >= 1 && n <= 9) return `6938${n}`;
  if (city === 'marseille' && n >= 1 && n <= 16) return `132${String(n).padStart(2, '0')}`;
  return null;
}

/** Postcodes compared without spaces or case: Canadian ones are published as H3T1K3 or H3T 1K3. */
export function samePostcode(a: string, b: string): boolean {
  return a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();
}

/** Does a candidate agree with the postcode / city / arrondissement of the query? */
function placeAgrees(q: ParsedAddress, a: Pick<OfficialAddress, 'postcode' | 'locality_key' | 'locality_code'>): boolean {
  if (q.postcode && a.postcode && !samePostcode(q.postcode, a.postcode)) return false;
  if (q.city && !(a.locality_key === q.city || a.locality_key.startsWith(`${q.city} `))) return false;
  if (q.arrondissement !== null) {
    const code = arrondissementCode(q.city ?? (a.locality_key.split(' ')[0] ?? null), q.arrondissement);
    if (code && a.locality_code !== code) return false;
  }
  return true;
}

export interface StreetMatch {
  /** Candidates of the best street, in the best agreeing locality first. */
  candidates: OfficialAddress[];
  /** Similarity of the street name (1 = same key). */
  streetScore: number;
  /** Match score of each candidate (street, locality, number agreement; 0-1), in their order. */
  scores: number[];
}

/** Filters of an address query (the location route's `citycode`): the commune or municipality code. */
export interface AddressFilters { citycode?: string; postcode?: string }

/**
 * Official addresses of the street named in the query: same street key first, else the most
 * similar keys (DuckDB's Jaro-Winkler), restricted to the postcode or city when given. `index`:
 * the country's address index (null: DuckDB alone, as while it is built).
 */
export async function findStreet(warehouse: Warehouse, country: Country, q: ParsedAddress, filters: AddressFilters = {},
  index: AddressIndex | null = addressIndexOf(warehouse, country)): Promise<StreetMatch | null> {
  const agrees = (e: StreetEntry) => streetAgrees(q, e) && (filters.citycode === undefined || e.locality_code === filters.citycode);
  if (!warehouse.has(country, 'streets') || !q.street) return null;
  const key = streetKey(q.street);
  if (!key) return null;
  const streets = `${country}_streets`;
  // The address index answers once built (address-index.ts); DuckDB until then, with the same
  // entries in the same order (locality key, then code) and the same rows.
  const noPostcode = { ...q, postcode: null };
  const localityAgrees = (localityKey: string, code: string | null) => (filters.citycode === undefined || code === filters.citycode)
    && placeAgrees(noPostcode, { postcode: null, locality_key: localityKey, locality_code: code ?? '' });
  const entriesOf = async (k: string): Promise<StreetEntry[]> => {
    if (!index) await warehouse.ensure?.(country, 'streets');
    if (!index) return (await warehouse.query<StreetEntry>(`SELECT * FROM ${streets} WHERE street_key = $1 ORDER BY locality_key, locality_code`, [k])).filter(agrees);
    // The index makes its entries as they are read: only the first MAX_STREETS agreeing ones.
    const out: StreetEntry[] = [];
    // (An empty city restricts nothing in placeAgrees: no place directory then either.)
    for (const e of index.streets(k, localityAgrees, q.city || null)) if (agrees(e) && out.push(e) >= MAX_STREETS) break;
    return out;
  };
  let entries = await entriesOf(key);
  let streetScore = 1;
  if (entries.length === 0) {
    // Spelling variants: the closest street keys, within the place named when there is one
    // (the index computes DuckDB's Jaro-Winkler on the same keys: jaro-winkler.ts).
    const postcode = q.postcode === null ? null : q.postcode.replace(/\s+/g, '').toUpperCase();
    const near = index
      ? index.nearKeys(key, { postcode, city: q.city, citycode: filters.citycode ?? null }, NEAR_MIN, NEAR_LIMIT)
      : await nearKeysSql(warehouse, country, key, { postcode, city: q.city, citycode: filters.citycode ?? null });
    if (near.length === 0) return null;
    entries = await entriesOf(near[0]!.street_key);
    streetScore = near[0]!.sim;
  }
  if (entries.length === 0) return null;
  const agreeing: OfficialAddress[] = [];
  for (const e of entries.slice(0, MAX_STREETS)) {
    // A row whose keys hold several languages is compared in the language that matched.
    const rows = e.rows ? e.rows() : await streetRowsSql(warehouse, country, e);
    agreeing.push(...rows.filter((r) => filters.postcode === undefined || (r.postcode !== null && samePostcode(r.postcode, filters.postcode))));
  }
  // Each candidate scored once (a comparator would score it at every comparison: trigram
  // similarities, about 6 ms a query for one street's forty numbers). Equal scores and labels go
  // to the smallest id, so that both paths give the same order.
  const score = candidateScorer(q);
  const scored = agreeing.map((a) => ({ a, score: score({ number: a.number, rep: a.rep, street: a.street, postcode: a.postcode, city: a.locality_key }) }));
  scored.sort((x, y) => y.score - x.score || x.a.label.localeCompare(y.a.label) || (x.a.id < y.a.id ? -1 : x.a.id > y.a.id ? 1 : 0));
  return scored.length > 0 ? { candidates: scored.map((s) => s.a), streetScore, scores: scored.map((s) => s.score) } : null;
}

/** The spelling variants of a street key read from DuckDB's `streets` memory table (AddressIndex.nearKeys answers the same). */
export async function nearKeysSql(warehouse: Warehouse, country: Country, key: string, filters: NearFilters): Promise<{ street_key: string; sim: number }[]> {
  await warehouse.ensure?.(country, 'streets');
  return warehouse.query<{ street_key: string; sim: number }>(
    `SELECT street_key, max(jaro_winkler_similarity(street_key, $1)) AS sim FROM ${country}_streets
     WHERE ($2::VARCHAR IS NULL OR list_contains(list_transform(postcodes, p -> replace(upper(p), ' ', '')), $2))
       AND ($3::VARCHAR IS NULL OR locality_key = $3 OR starts_with(locality_key, $3 || ' '))
       AND ($4::VARCHAR IS NULL OR locality_code = $4)
     GROUP BY street_key HAVING sim >= ${NEAR_MIN} ORDER BY sim DESC, street_key LIMIT ${NEAR_LIMIT}`,
    [key, filters.postcode, filters.city, filters.citycode],
  );
}

/** A street's rows read where its cells lie: a few row groups of one or two files. */
async function streetRowsSql(warehouse: Warehouse, country: Country, e: StreetEntry): Promise<OfficialAddress[]> {
  const files = warehouse.filesWithCells(country, 'addresses', e.lo!, e.hi!);
  if (files.length === 0) return [];
  const from = `read_parquet([${files.map(quotedString).join(', ')}], union_by_name = true)`;
  const rows = await warehouse.query<OfficialAddress>(
    `SELECT ${COLUMNS} FROM ${from} WHERE cell BETWEEN ${BigInt(e.lo!)} AND ${BigInt(e.hi!)} AND ${hasKey('street_key', '$1')} AND locality_code IS NOT DISTINCT FROM $2 AND ${hasKey('locality_key', '$3')}`,
    [e.street_key, e.locality_code, e.locality_key],
  );
  return rows.map((r) => ({ ...r, locality_key: e.locality_key }));
}

/** A street of a locality in the `streets` memory table: its key, place, postcodes and cell envelope. */
interface StreetEntry {
  street_key: string; locality_key: string; locality_code: string | null; postcodes: string[] | null;
  /** Envelope of the street's cells (SQL path). */
  lo?: bigint; hi?: bigint;
  /** The street's rows (index path). */
  rows?: () => OfficialAddress[];
}

/** placeAgrees for a whole street: the postcode asked must be one of the street's. */
function streetAgrees(q: ParsedAddress, e: StreetEntry): boolean {
  if (q.postcode && e.postcodes && e.postcodes.length > 0 && !e.postcodes.some((p) => samePostcode(p, q.postcode!))) return false;
  return placeAgrees({ ...q, postcode: null }, { postcode: null, locality_key: e.locality_key, locality_code: e.locality_code ?? '' });
}

/** SQL: a key column equals the key, or holds it among its language variants (a|b|c). */
function hasKey(column: string, param: string): string {
  return `(${column} = ${param} OR (contains(${column}, '|') AND list_contains(string_split(${column}, '|'), ${param})))`;
}

/** Spelling variants: the least Jaro-Winkler similarity of a street key, and how many are read. */
export const NEAR_MIN = 0.9, NEAR_LIMIT = 3;

/** Localities read for one street name at most (a name shared by many communes, without a place given). */
const MAX_STREETS = 20;

/** Addresses of a locality named alone (city or postcode), for a locality-level answer. */
export async function findLocality(warehouse: Warehouse, country: Country, q: ParsedAddress, filters: AddressFilters = {}): Promise<OfficialAddress[]> {
  if (!warehouse.has(country, 'addresses') || (!q.city && !q.postcode)) return [];
  return warehouse.query<OfficialAddress>(
    `SELECT ${COLUMNS} FROM ${country}_addresses
     WHERE ($1::VARCHAR IS NULL OR postcode = $1) AND ($2::VARCHAR IS NULL OR locality_key = $2 OR starts_with(locality_key, $2 || ' ') OR ${hasKey('locality_key', '$2')})
       AND ($3::VARCHAR IS NULL OR locality_code = $3)
     LIMIT 20000`,
    [q.postcode, q.city, filters.citycode ?? null],
  );
}

/**
 * The nearest official address within `maxM` meters of a position, for an address at coordinates,
 * among the cells of `ranges`; equal distances go to the smallest id. Answered by the in-process
 * index once it is built (address-index.ts), by DuckDB until then, with the same answer.
 */
export async function nearestAddress(warehouse: Warehouse, country: Country, lat: number, lng: number, ranges: [bigint, bigint][], maxM: number): Promise<(OfficialAddress & { distance_m: number }) | null> {
  const index = addressIndexOf(warehouse, country);
  if (index) return index.nearest(lat, lng, ranges, maxM);
  return nearestAddressSql(warehouse, country, lat, lng, ranges, maxM);
}

/** nearestAddress read from the Parquet files. */
export async function nearestAddressSql(warehouse: Warehouse, country: Country, lat: number, lng: number, ranges: [bigint, bigint][], maxM: number): Promise<(OfficialAddress & { distance_m: number }) | null> {
  if (!warehouse.has(country, 'addresses')) return null;
  // The bounds are integers computed here, never client text: written as literals, they let
  // DuckDB prune Parquet row groups, which bound parameters of another integer type do not.
  // The envelope of the ranges is one prunable interval; the ranges then keep the exact cells.
  const lo = ranges.reduce((m, r) => (r[0] < m ? r[0] : m), ranges[0]![0]);
  const hi = ranges.reduce((m, r) => (r[1] > m ? r[1] : m), ranges[0]![1]);
  const where = `cell BETWEEN ${BigInt(lo)} AND ${BigInt(hi)} AND (${ranges.map(([a, b]) => `cell BETWEEN ${BigInt(a)} AND ${BigInt(b)}`).join(' OR ')})`;
  const files = warehouse.filesWithCells(country, 'addresses', lo, hi);
  if (files.length === 0) return null;
  const from = `read_parquet([${files.map(quotedString).join(', ')}], union_by_name = true)`;
  const rows = await warehouse.query<OfficialAddress>(`SELECT ${COLUMNS} FROM ${from} WHERE ${where}`);
  let best: (OfficialAddress & { distance_m: number }) | null = null;
  for (const r of rows) {
    const d = haversineM(lat, lng, r.latitude, r.longitude);
    if (d <= maxM && (!best || d < best.distance_m || (d === best.distance_m && r.id < best.id))) best = { ...r, distance_m: d };
  }
  return best;
}

export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Words at most that a locality's name takes at the end of a query. */
const MAX_LOCALITY_WORDS = 5;

/**
 * A query naming neither postcode nor city by the parser's rules may still end with the name of
 * a locality of the table ("909 3e Avenue Val-d'Or"). The last words are read as that locality
 * when the words before them are one of its streets, or when the whole text is no street
 * anywhere (so "rue de Paris" in Lyon stays a street). The parsed query comes back with its city
 * set, so that a street of another locality cannot answer it; `locality` says whether it was.
 */
export async function withTrailingLocality(warehouse: Warehouse, country: Country, q: ParsedAddress,
  index: AddressIndex | null = addressIndexOf(warehouse, country)): Promise<{ q: ParsedAddress; locality: boolean }> {
  if (q.city !== null || q.postcode !== null || !q.street || !warehouse.has(country, 'streets')) return { q, locality: false };
  const words = q.street.split(' ');
  const splits: { city: string; street: string }[] = [];
  for (let k = Math.min(MAX_LOCALITY_WORDS, words.length - 1); k >= 1; k--) splits.push({ city: words.slice(-k).join(' '), street: words.slice(0, -k).join(' ') });
  if (splits.length === 0) return { q, locality: false };
  // One scan of the streets table answers the three questions: which of the last words are a
  // locality, which splits are a street of that locality, and whether the whole text is a street.
  const cities = splits.map((s) => s.city);
  const keys = splits.map((s) => streetKey(s.street));
  const whole = streetKey(q.street);
  const list = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
  const inCities = `locality_key IN (${list(1, cities.length)})`;
  // The address index answers the same three questions once built.
  const found = index ? index.trailing(cities, keys, whole) : await (async () => {
    await warehouse.ensure?.(country, 'streets');
    const [r] = await warehouse.query<{ cities: string[] | null; pairs: string[] | null; whole: boolean | null }>(
      `SELECT list(DISTINCT locality_key) FILTER (WHERE ${inCities}) AS cities,
         list(DISTINCT locality_key || '|' || street_key) FILTER (WHERE ${inCities} AND street_key IN (${list(cities.length + 1, keys.length)})) AS pairs,
         bool_or(street_key = $${cities.length + keys.length + 1}) AS whole
       FROM ${country}_streets WHERE ${inCities} OR street_key = $${cities.length + keys.length + 1}`,
      [...cities, ...keys, whole],
    );
    return { cities: new Set(r?.cities ?? []), pairs: new Set(r?.pairs ?? []), whole: r?.whole === true };
  })();
  const known = found.cities;
  const pairs = found.pairs;
  const named = splits.filter((s, i) => known.has(s.city) && keys[i] !== '');
  if (named.length === 0) return { q, locality: false };
  for (const s of named) if (pairs.has(`${s.city}|${streetKey(s.street)}`)) return { q: { ...q, street: s.street, city: s.city }, locality: true };
  if (found.whole) return { q, locality: false };
  return { q: { ...q, street: named[0]!.street, city: named[0]!.city }, locality: true };
}
