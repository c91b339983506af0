import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PARTITION_KEY } from '../../../schemas/tables/layout.ts';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { quotedString, type DuckDBValue } from '@duckdb/node-api';
import { Binary, makeVector, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { Country } from '../../../schemas/common.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { haversineM, type OfficialAddress } from './official.ts';
import { indexCache } from './warehouse-index.ts';
import { boundQuery, jaroWinklerBound, jaroWinklerSimilarity, jwBytes } from './jaro-winkler.ts';

/**
 * Compact in-process index of a country's official addresses, for both searches: the nearest
 * address of a position (cells, positions) and the addresses of a street (street keys). One
 * segment per Parquet file of the table (a department, a region), each sorted by cell.
 *
 * Per address, hot (typed arrays): cell 4 B (its low word; the high words by runs), latitude and
 * longitude as integers of 1e-7 degree 8 B (the producers publish at most 7 decimals; a segment
 * with other values keeps doubles), number 2 B (the rare number above 65534 kept aside), suffix
 * 1 B, street and place as ids into the segment's dictionaries 2 or 4 B each, flags 1 B, and the row in its street key's posting list 4 B (twice for a Belgian address whose
 * street has two languages). Cold (read only to serve an answer): id, label (when it is not the
 * one derived from the other fields) and parcels (the list's items joined by U+001F), deflated in blocks of 64 rows. The served text
 * is read by id from the dictionaries (street name and key; postcode, commune code, name and key,
 * source). The answers are the SQL path's (official.ts): same candidates, same order.
 */
export interface AddressIndex {
  readonly size: number;
  /** Bytes held by the arrays, dictionaries and cold blocks. */
  readonly bytes: number;
  nearest(lat: number, lng: number, ranges: [bigint, bigint][], maxM: number): (OfficialAddress & { distance_m: number }) | null;
  /**
   * The streets of a key (one entry per locality variant and code, as the `streets` memory
   * table groups them), those whose locality `accept` keeps, ordered by locality key then code;
   * made as they are read (a caller needing the first few of a name shared by thousands of
   * localities builds only those). `city`: the query's locality (only its places are read).
   */
  streets(key: string, accept: (localityKey: string, localityCode: string | null) => boolean, city?: string | null): Iterable<IndexedStreet>;
  /**
   * The spelling variants of a street key: the keys (at most `limit`) whose DuckDB Jaro-Winkler
   * similarity to `key` is at least `min`, best first then by key, among the streets of the
   * places that pass the filters (the SQL of official.ts on the `streets` memory table).
   */
  nearKeys(key: string, filters: NearFilters, min: number, limit: number): { street_key: string; sim: number }[];
  /**
   * For the trailing-locality test (official.ts): which of `cities` are locality keys of the
   * table, which (city, street key) pairs are a street of that locality (`city|key`), and whether
   * `whole` is a street key anywhere.
   */
  trailing(cities: string[], keys: string[], whole: string): { cities: Set<string>; pairs: Set<string>; whole: boolean };
}

/** Filters of the spelling-variant search: postcode (upper case, no spaces), locality key or its part, commune code. */
export interface NearFilters { postcode: string | null; city: string | null; citycode: string | null }

export interface IndexedStreet {
  street_key: string;
  locality_key: string;
  locality_code: string | null;
  postcodes: string[] | null;
  /** The addresses of the street in that locality, the locality key set to the variant that matched. */
  rows(): OfficialAddress[];
}

/** Default memory budget per country: above it the index is not built and lookups stay on DuckDB. */
export const ADDRESS_INDEX_BUDGET_BYTES = 1.5 * 2 ** 30;
/** Estimated bytes per address (hot arrays, postings, cold blocks), for the budget check before a build. */
export const ESTIMATED_BYTES_PER_ADDRESS = 36;
const BLOCK = 64;
const NULL_NUMBER = 1, NULL_PARCELS = 2, DERIVED_LABEL = 4;
/** Between the parcels of an address in the cold text (addresses.parcels is a list; no parcel id holds a control character). */
const PARCEL_SEPARATOR = '\u001f';
const FIXED = 1e7;

type Ids = Uint16Array | Uint32Array;
const idsFor = (distinct: number, n: number): Ids => (distinct <= 65_536 ? new Uint16Array(n) : new Uint32Array(n));

interface Place { postcode: string | null; locality_code: string | null; locality_name: string; locality_key: string; source: string; variants: string[] }

/** One Parquet file's addresses, sorted by cell. */
export interface Segment {
  n: number; minCell: bigint; maxCell: bigint;
  /**
   * Cells in two levels: the low 32 bits per row, and the runs of rows sharing the high 32 bits
   * (an H3 cell's high word names its base cell and first digits: a few dozen runs per
   * department). Row i's cell is cellHi[r] * 2^32 + cellLo[i] for the run r holding i.
   */
  cellLo: Uint32Array; cellHi: Uint32Array; cellRun: Uint32Array;
  /** Fixed-point positions, or doubles when a value has more than 7 decimals. */
  lat: Int32Array | Float64Array; lng: Int32Array | Float64Array; fixed: boolean;
  /** Numbers below 65535 (nearly all); BIG_NUMBER sends to bigRows / bigNumbers (rows ascending). */
  numbers: Uint16Array; bigRows: Uint32Array; bigNumbers: Int32Array; reps: Uint8Array; flags: Uint8Array;
  street: Ids; place: Ids;
  streetNames: string[]; streetKeys: string[]; places: Place[]; repNames: (string | null)[];
  /** Key variants, sorted; groups of a key are [groupStart[k], groupStart[k+1]); a group is a place's rows in `postings` [groupEnd[g-1], groupEnd[g]). */
  keys: string[]; groupStart: Uint32Array; groupPlace: Uint32Array; groupEnd: Uint32Array; postings: Uint32Array;
  blocks: Buffer; blockStart: Uint32Array;
}

/** A number at or above it (or negative) is kept aside (bigRows, bigNumbers). */
const BIG_NUMBER = 0xffff;

function numberAt(s: Segment, row: number): number {
  const v = s.numbers[row]!;
  if (v !== BIG_NUMBER) return v;
  let a = 0, b = s.bigRows.length;
  while (a < b) { const m = (a + b) >>> 1; if (s.bigRows[m]! < row) a = m + 1; else b = m; }
  return s.bigNumbers[a]!;
}

/** The run holding row i. */
function runOf(cellRun: Uint32Array, i: number): number {
  let a = 0, b = cellRun.length - 1;
  while (b - a > 1) { const m = (a + b) >>> 1; if (cellRun[m]! <= i) a = m; else b = m; }
  return a;
}

/** First row whose cell is >= x (x in [0, 2^64]). */
function cellBound(s: Segment, x: bigint): number {
  const hi = Number(x >> 32n), lo = Number(x & 0xffffffffn);
  let a = 0, b = s.cellHi.length;
  while (a < b) { const m = (a + b) >>> 1; if (s.cellHi[m]! < hi) a = m + 1; else b = m; }
  if (a === s.cellHi.length) return s.n;
  if (s.cellHi[a]! > hi) return s.cellRun[a]!;
  let l = s.cellRun[a]!, r = s.cellRun[a + 1]!;
  while (l < r) { const m = (l + r) >>> 1; if (s.cellLo[m]! < lo) l = m + 1; else r = m; }
  return l;
}

/** The label the jobs derive (`concat_ws(' ', number || ' ' || rep, street, postcode, locality_name)`), null-skipping as concat_ws does. */
function derivedLabel(number: number | null, rep: string | null, street: string, postcode: string | null, localityName: string): string {
  const parts: string[] = [];
  if (number !== null) parts.push(rep === null ? String(number) : `${number} ${rep}`);
  parts.push(street);
  if (postcode !== null) parts.push(postcode);
  parts.push(localityName);
  return parts.join(' ');
}

const COLUMNS = `cell, latitude, longitude, number, rep, street, street_key, postcode, locality_code, locality_name, locality_key, source, id, label, array_to_string(parcels, chr(31)) AS parcels`;

/** One address as read from the table (COLUMNS). */
interface Row {
  cell: bigint; latitude: number; longitude: number; number: number | null; rep: string | null; street: string; street_key: string;
  postcode: string | null; locality_code: string | null; locality_name: string; locality_key: string; source: string; id: string; label: string; parcels: string | null;
}

/** Thrown by the reading in file order when a cell is below the one before: the file is read again sorted by DuckDB. */
class OutOfOrder extends Error {}

/** Rows of one cell in DuckDB's `ORDER BY id` (byte order; ids are never null). */
const byId = (a: Row, b: Row) => cmp(a.id, b.id);

/**
 * A file's segment. The jobs write the addresses sorted by cell (ingest/core/table-writer.ts), so
 * the file is read in its own order and the rare rows sharing a cell are put in id order here:
 * DuckDB's `ORDER BY cell, id` over a whole file held hundreds of MB (550 MB for 1.5 M rows), which
 * its allocator kept after the query, in the serving process. A file out of cell order (not
 * written by the jobs) is read again with the ORDER BY.
 */
async function buildSegment(warehouse: Warehouse, file: string): Promise<Segment | null> {
  const [{ n } = { n: 0 }] = await warehouse.query<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM read_parquet(${quotedString(file)}) WHERE cell IS NOT NULL`);
  if (n === 0) return null;
  const from = `SELECT ${COLUMNS} FROM read_parquet(${quotedString(file)}) WHERE cell IS NOT NULL`;
  try {
    return await readSegment(warehouse, from, n, false);
  } catch (e) {
    if (!(e instanceof OutOfOrder)) throw e;
    return await readSegment(warehouse, `${from} ORDER BY cell, id`, n, true);
  }
}

/**
 * Reads `n` rows in cell order (`sorted`: DuckDB sorted them; else a cell below the one before
 * throws OutOfOrder) into a segment. Per row, besides the segment's own arrays: the street and
 * place ids as 32-bit words before they are narrowed, and the posting lists' counting (4 bytes).
 */
async function readSegment(warehouse: Warehouse, sql: string, n: number, sorted: boolean): Promise<Segment> {
  const cellLo = new Uint32Array(n), cellHi: number[] = [], cellRun: number[] = [];
  let lat: Int32Array | Float64Array = new Int32Array(n), lng: Int32Array | Float64Array = new Int32Array(n);
  let fixed = true;
  const numbers = new Uint16Array(n), reps = new Uint8Array(n), flags = new Uint8Array(n);
  const bigRows: number[] = [], bigNumbers: number[] = [];
  const streetOf = new Uint32Array(n), placeOf = new Uint32Array(n);
  const streetIds = new Map<string, number>(), placeIds = new Map<string, number>(), repIds = new Map<string | null, number>([[null, 0]]);
  const streetNames: string[] = [], streetKeys: string[] = [], places: Place[] = [], repNames: (string | null)[] = [null];
  const blockStart = new Uint32Array(Math.ceil(n / BLOCK) + 1);
  // Compressed blocks copied into one growing buffer: each deflateRawSync result is a view of a
  // 16 KB allocation, which kept 16 KB per 64 rows alive until the end when the results were kept.
  let blocks = Buffer.allocUnsafeSlow(1 << 16), coldBytes = 0, nBlocks = 0;
  let cold: string[] = [], row = 0, minCell = 0n, maxCell = 0n;
  const flush = () => {
    const b = deflateRawSync(Buffer.from(cold.join('\0'), 'utf8'));
    if (coldBytes + b.length > blocks.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * blocks.length, coldBytes + b.length));
      blocks.copy(grown, 0, 0, coldBytes);
      blocks = grown;
    }
    b.copy(blocks, coldBytes);
    coldBytes += b.length; blockStart[++nBlocks] = coldBytes; cold = [];
  };
  const add = (r: Row) => {
    const h = Number(r.cell >> 32n);
    cellLo[row] = Number(r.cell & 0xffffffffn);
    if (cellHi.length === 0 || cellHi[cellHi.length - 1] !== h) { cellHi.push(h); cellRun.push(row); }
    if (row === 0) minCell = r.cell;
    maxCell = r.cell;
    const la = r.latitude, lo = r.longitude;
    if (fixed) {
      const a = Math.round(la * FIXED), b = Math.round(lo * FIXED);
      if (a / FIXED === la && b / FIXED === lo) { lat[row] = a; lng[row] = b; }
      else {
        // The rows before were exact at 1e-7 degree: the doubles are theirs again.
        fixed = false;
        lat = Float64Array.from(lat, (x) => x / FIXED); lng = Float64Array.from(lng, (x) => x / FIXED);
      }
    }
    if (!fixed) { lat[row] = la; lng[row] = lo; }
    const { number, rep, street, street_key: skey, postcode, locality_code: code, locality_name: lname, locality_key: lkey, source, id, label, parcels } = r;
    let f = 0;
    if (number === null) f |= NULL_NUMBER;
    else if (number >= 0 && number < BIG_NUMBER) numbers[row] = number;
    else { numbers[row] = BIG_NUMBER; bigRows.push(row); bigNumbers.push(number); }
    let rr = repIds.get(rep);
    if (rr === undefined) { rr = repNames.length; if (rr > 255) throw new Error('more than 255 distinct suffixes'); repIds.set(rep, rr); repNames.push(rep); }
    reps[row] = rr;
    const sk = `${street}\0${skey}`;
    let s = streetIds.get(sk);
    if (s === undefined) { s = streetNames.length; streetIds.set(sk, s); streetNames.push(street); streetKeys.push(skey); }
    streetOf[row] = s;
    const pk = `${postcode ?? '\u0001'}\0${code ?? '\u0001'}\0${lname}\0${lkey}\0${source}`;
    let p = placeIds.get(pk);
    if (p === undefined) { p = places.length; placeIds.set(pk, p); places.push({ postcode, locality_code: code, locality_name: lname, locality_key: lkey, source, variants: lkey.split('|') }); }
    placeOf[row] = p;
    // The list's items, joined (null stays null: array_to_string of NULL): [] is ''.
    if (parcels === null) f |= NULL_PARCELS;
    const derived = label === derivedLabel(number, rep, street, postcode, lname);
    if (derived) f |= DERIVED_LABEL;
    flags[row] = f;
    cold.push(id, derived ? '' : label, parcels ?? '');
    row++;
    if (row % BLOCK === 0) flush();
  };
  // The rows of the current cell, added once a greater cell (or the end) is read, in id order.
  let same: Row[] = [];
  const addSame = () => {
    if (same.length > 1) same.sort(byId);
    for (const r of same) add(r);
    same = [];
  };
  let read = 0;
  await warehouse.scan(sql, (c: DuckDBValue[][]) => {
    const len = c[0]!.length;
    if (read + len > n) throw new Error('addresses file changed while the address index was read');
    for (let i = 0; i < len; i++, read++) {
      const r: Row = {
        cell: c[0]![i] as bigint, latitude: c[1]![i] as number, longitude: c[2]![i] as number, number: c[3]![i] as number | null, rep: c[4]![i] as string | null,
        street: c[5]![i] as string, street_key: c[6]![i] as string, postcode: c[7]![i] as string | null, locality_code: c[8]![i] as string | null,
        locality_name: c[9]![i] as string, locality_key: c[10]![i] as string, source: c[11]![i] as string, id: c[12]![i] as string, label: c[13]![i] as string, parcels: c[14]![i] as string | null,
      };
      if (same.length > 0 && r.cell !== same[0]!.cell) {
        if (r.cell < same[0]!.cell) { if (sorted) throw new Error('addresses not sorted by cell'); throw new OutOfOrder(); }
        addSame();
      }
      same.push(r);
    }
  });
  addSame();
  if (row !== n) throw new Error('addresses file changed while the address index was read');
  if (cold.length > 0) flush();
  cellRun.push(n);
  const street = idsFor(streetNames.length, n), place = idsFor(places.length, n);
  street.set(streetOf); place.set(placeOf);
  return {
    n, minCell, maxCell, cellLo, cellHi: Uint32Array.from(cellHi), cellRun: Uint32Array.from(cellRun), lat, lng, fixed,
    numbers, bigRows: Uint32Array.from(bigRows), bigNumbers: Int32Array.from(bigNumbers), reps, flags, street, place,
    streetNames, streetKeys, places, repNames, ...postingLists(streetKeys, streetOf, placeOf, places.length),
    blocks: Buffer.from(blocks.subarray(0, coldBytes)), blockStart,
  };
}

/**
 * Posting lists: the rows of each street key variant, grouped by place (groups of a key ordered
 * by place), rows ascending within a group. Two counting passes (rows by place, then each row's
 * keys by key) instead of sorting (key, place, row) triples: 8 bytes per row besides the result.
 */
function postingLists(streetKeys: string[], streetOf: Uint32Array, placeOf: Uint32Array, nPlaces: number) {
  const n = streetOf.length;
  const variantsOf = streetKeys.map((k) => k.split('|'));
  const keySet = new Set<string>();
  for (const v of variantsOf) for (const k of v) keySet.add(k);
  const keys = [...keySet].sort();
  const keyIndex = new Map(keys.map((k, i) => [k, i]));
  const streetKeyIds = variantsOf.map((v) => Uint32Array.from(v, (k) => keyIndex.get(k)!));
  // Rows by place, ascending within a place.
  const byPlace = new Uint32Array(n), at = new Uint32Array(nPlaces + 1);
  for (let i = 0; i < n; i++) at[placeOf[i]! + 1]!++;
  for (let p = 1; p <= nPlaces; p++) at[p]! += at[p - 1]!;
  for (let i = 0; i < n; i++) byPlace[at[placeOf[i]!]!++] = i;
  // Then by key, keeping that order: (key, place, row).
  const keyAt = new Uint32Array(keys.length + 1);
  for (let i = 0; i < n; i++) for (const k of streetKeyIds[streetOf[i]!]!) keyAt[k + 1]!++;
  for (let k = 1; k <= keys.length; k++) keyAt[k]! += keyAt[k - 1]!;
  const postings = new Uint32Array(keyAt[keys.length]!), fill = keyAt.slice(0, keys.length);
  for (const i of byPlace) for (const k of streetKeyIds[streetOf[i]!]!) postings[fill[k]!++] = i;
  // Groups: runs of one place within a key; groupStart[k] = groups of the keys before k.
  const groupStart = new Uint32Array(keys.length + 1), gp: number[] = [], ge: number[] = [];
  for (let k = 0; k < keys.length; k++) {
    for (let j = keyAt[k]!; j < keyAt[k + 1]!; j++) {
      const p = placeOf[postings[j]!]!;
      if (j === keyAt[k] || p !== gp[gp.length - 1]) { if (gp.length > 0) ge.push(j); gp.push(p); }
    }
    groupStart[k + 1] = gp.length;
  }
  if (gp.length > 0) ge.push(postings.length);
  return { keys, groupStart, groupPlace: Uint32Array.from(gp), groupEnd: Uint32Array.from(ge), postings };
}

function segmentBytes(s: Segment): number {
  const arrays = [s.cellLo, s.cellHi, s.cellRun, s.lat, s.lng, s.numbers, s.bigRows, s.bigNumbers, s.reps, s.flags, s.street, s.place, s.groupStart, s.groupPlace, s.groupEnd, s.postings, s.blockStart];
  const text = (xs: string[]) => xs.reduce((a, x) => a + 2 * x.length + 16, 0);
  return arrays.reduce((a, x) => a + x.byteLength, 0) + s.blocks.length + text(s.streetNames) + text(s.streetKeys) + text(s.keys)
    + s.places.reduce((a, p) => a + 120 + 2 * (p.locality_name.length + p.locality_key.length), 0);
}

/** Cold fields of rows, by block: the last blocks read stay decoded (a street's rows are neighbours). */
function coldReader(s: Segment) {
  const cache = new Map<number, string[]>();
  return (row: number): [string, string, string] => {
    const b = Math.floor(row / BLOCK);
    let parts = cache.get(b);
    if (!parts) {
      parts = inflateRawSync(s.blocks.subarray(s.blockStart[b]!, s.blockStart[b + 1]!)).toString('utf8').split('\0');
      if (cache.size >= 8) cache.delete(cache.keys().next().value!);
      cache.set(b, parts);
    }
    const o = (row % BLOCK) * 3;
    return [parts[o]!, parts[o + 1]!, parts[o + 2]!];
  };
}

function decode(s: Segment, cold: ReturnType<typeof coldReader>, row: number): OfficialAddress {
  const f = s.flags[row]!;
  const p = s.places[s.place[row]!]!;
  const number = f & NULL_NUMBER ? null : numberAt(s, row);
  const rep = s.repNames[s.reps[row]!]!;
  const street = s.streetNames[s.street[row]!]!;
  const [id, label, parcels] = cold(row);
  return {
    id,
    longitude: s.fixed ? s.lng[row]! / FIXED : s.lng[row]!,
    latitude: s.fixed ? s.lat[row]! / FIXED : s.lat[row]!,
    number, rep, street, postcode: p.postcode, locality_code: p.locality_code as string, locality_name: p.locality_name,
    label: f & DERIVED_LABEL ? derivedLabel(number, rep, street, p.postcode, p.locality_name) : label,
    parcels: f & NULL_PARCELS ? null : parcels === '' ? [] : parcels.split(PARCEL_SEPARATOR), locality_key: p.locality_key, source: p.source,
  };
}

/** Tuples of one street search at most (they are sorted as rank * RANK + tuple). */
const RANK = 2 ** 24;

/** First index in [lo, hi) of a sorted string array whose value is >= x. */
function lowerBoundStr(xs: readonly string[], x: string, lo = 0, hi = xs.length): number {
  while (lo < hi) { const m = (lo + hi) >>> 1; if (xs[m]! < x) lo = m + 1; else hi = m; }
  return lo;
}

/** A key's position in a segment's sorted keys, or -1. */
function keyIn(s: Segment, key: string): number {
  const a = lowerBoundStr(s.keys, key);
  return a < s.keys.length && s.keys[a] === key ? a : -1;
}

/** The group of key `k` and place `place` in a segment (groups of a key are ordered by place), or -1. */
function groupOf(s: Segment, k: number, place: number): number {
  let lo = s.groupStart[k]!, hi = s.groupStart[k + 1]!;
  while (lo < hi) { const m = (lo + hi) >>> 1; if (s.groupPlace[m]! < place) lo = m + 1; else hi = m; }
  return lo < s.groupStart[k + 1]! && s.groupPlace[lo] === place ? lo : -1;
}

/**
 * Places of all segments by what a query names (locality key variant, postcode, commune code),
 * and each place's street keys: the street search of a query naming its locality reads that
 * locality's few places instead of every place sharing the street's name (thousands for
 * "rue de l eglise" at national scale), and the spelling-variant search compares the keys of the
 * places named. Derived from the segments (not saved): a few bytes per street.
 */
interface Directory {
  /** Locality key variants, sorted, with their place (segment, place id): several per variant. */
  variant: string[]; variantSeg: Uint32Array; variantPlace: Uint32Array;
  byPostcode: Map<string, number[]>; byCode: Map<string, number[]>;
  /** Per segment: place p's keys are placeKeys[placeKeyStart[p] .. placeKeyStart[p + 1]) (indexes into the segment's keys). */
  placeKeyStart: Uint32Array[]; placeKeys: Uint32Array[];
  /**
   * The (locality variant, code) pairs of the country in the streets' order (variant, then code,
   * nulls last, byte order), and per segment the rank of each place's variants:
   * ranks[rankStart[p] + j] for variant j of place p. The street search sorts integers.
   */
  rankVariant: string[]; rankCode: (string | null)[]; rankStart: Uint32Array[]; ranks: Uint32Array[];
}

/** Postcodes as the spelling-variant SQL compares them: upper case, spaces removed. */
export const postcodeKey = (p: string) => p.toUpperCase().replaceAll(' ', '');

function directoryOf(segments: Segment[]): Directory {
  const entries: { v: string; seg: number; place: number }[] = [];
  const byPostcode = new Map<string, number[]>(), byCode = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, k: string, seg: number, place: number) => {
    let xs = m.get(k);
    if (!xs) { xs = []; m.set(k, xs); }
    xs.push(seg, place);
  };
  const placeKeyStart: Uint32Array[] = [], placeKeys: Uint32Array[] = [];
  segments.forEach((s, seg) => {
    s.places.forEach((p, place) => {
      for (const v of new Set(p.variants)) entries.push({ v, seg, place });
      if (p.postcode !== null) push(byPostcode, postcodeKey(p.postcode), seg, place);
      if (p.locality_code !== null) push(byCode, p.locality_code, seg, place);
    });
    // Groups are (key, place) ordered by key: counted by place, then filled in key order.
    const groups = s.groupPlace.length;
    const start = new Uint32Array(s.places.length + 1);
    for (let g = 0; g < groups; g++) start[s.groupPlace[g]! + 1]!++;
    for (let p = 1; p <= s.places.length; p++) start[p]! += start[p - 1]!;
    const fill = start.slice(0, s.places.length), keys = new Uint32Array(groups);
    for (let k = 0; k < s.keys.length; k++) for (let g = s.groupStart[k]!; g < s.groupStart[k + 1]!; g++) keys[fill[s.groupPlace[g]!]!++] = k;
    placeKeyStart.push(start); placeKeys.push(keys);
  });
  entries.sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : a.seg - b.seg || a.place - b.place));
  // Ranks of (variant, code) pairs.
  const pairs = new Map<string, { v: string; code: string | null }>();
  const pairId = (v: string, code: string | null) => `${v}\0${code ?? ''}\0${code === null ? 1 : 0}`;
  for (const s of segments) for (const p of s.places) for (const v of p.variants) pairs.set(pairId(v, p.locality_code), { v, code: p.locality_code });
  const ordered = [...pairs.values()].sort((x, y) => cmp(x.v, y.v) || (x.code === null ? (y.code === null ? 0 : 1) : y.code === null ? -1 : cmp(x.code, y.code)));
  const rankOf = new Map(ordered.map((x, i) => [pairId(x.v, x.code), i]));
  const rankStart: Uint32Array[] = [], ranks: Uint32Array[] = [];
  for (const s of segments) {
    const start = new Uint32Array(s.places.length + 1);
    s.places.forEach((p, i) => { start[i + 1] = start[i]! + p.variants.length; });
    const r = new Uint32Array(start[s.places.length]!);
    s.places.forEach((p, i) => p.variants.forEach((v, j) => { r[start[i]! + j] = rankOf.get(pairId(v, p.locality_code))!; }));
    rankStart.push(start); ranks.push(r);
  }
  return {
    variant: entries.map((e) => e.v), variantSeg: Uint32Array.from(entries, (e) => e.seg), variantPlace: Uint32Array.from(entries, (e) => e.place),
    byPostcode, byCode, placeKeyStart, placeKeys,
    rankVariant: ordered.map((x) => x.v), rankCode: ordered.map((x) => x.code), rankStart, ranks,
  };
}

/** Places (segment, place pairs, flattened) with a locality variant equal to `city` (or, `prefix`, starting with `city ` too), ordered by segment then place, each once. */
function placesOfCity(d: Directory, city: string, prefix: boolean): number[] {
  const hits: number[] = [];
  for (let i = lowerBoundStr(d.variant, city); i < d.variant.length && d.variant[i]!.startsWith(city); i++) {
    const v = d.variant[i]!;
    if (v === city || (prefix && v.charCodeAt(city.length) === 32)) hits.push(d.variantSeg[i]! * 2 ** 21 + d.variantPlace[i]!);
  }
  const sorted = [...new Set(hits)].sort((a, b) => a - b);
  return sorted.flatMap((h) => [Math.floor(h / 2 ** 21), h % 2 ** 21]);
}

/** Index of the segments' files as given (the table's files). */
function addressIndexOfSegments(segments: Segment[]): AddressIndex {
  if (segments.some((s) => s.places.length >= 2 ** 21)) throw new Error('more than 2^21 places in a segment');
  const readers = segments.map(coldReader);
  const size = segments.reduce((a, s) => a + s.n, 0);
  const dir = directoryOf(segments);
  const bytes = segments.reduce((a, s) => a + segmentBytes(s), 0)
    + dir.variant.length * (16 + 8) + dir.placeKeys.reduce((a, x) => a + x.byteLength, 0) + dir.placeKeyStart.reduce((a, x) => a + x.byteLength, 0);
  // Every street key of the country once, with its bytes as DuckDB compares them: read by the
  // spelling-variant search of a query that names no place (built at its first use).
  let allKeys: string[] | null = null;
  const keyBytes = new Map<string, string | Uint8Array>();
  const bytesOf = (k: string) => {
    let b = keyBytes.get(k);
    if (b === undefined) { b = jwBytes(k); if (typeof b !== 'string') keyBytes.set(k, b); }
    return b;
  };
  return {
    size, bytes,
    nearest(lat, lng, ranges, maxM) {
      let bestSeg = -1, best = -1, bestD = Infinity;
      let lo = ranges[0]![0], hi = ranges[0]![1];
      for (const r of ranges) { if (r[0] < lo) lo = r[0]; if (r[1] > hi) hi = r[1]; }
      for (let si = 0; si < segments.length; si++) {
        const s = segments[si]!;
        if (s.maxCell < lo || s.minCell > hi) continue;
        for (const [a, b] of ranges) {
          const end = cellBound(s, b + 1n);
          for (let i = cellBound(s, a); i < end; i++) {
            const d = haversineM(lat, lng, s.fixed ? s.lat[i]! / FIXED : s.lat[i]!, s.fixed ? s.lng[i]! / FIXED : s.lng[i]!);
            if (!(d <= maxM) || d > bestD) continue;
            // Equal distances go to the smallest id (read only then: ids are in the cold blocks).
            if (d < bestD || readers[si]!(i)[0] < readers[bestSeg]!(best)[0]) { bestSeg = si; best = i; bestD = d; }
          }
        }
      }
      if (best < 0) return null;
      return { ...decode(segments[bestSeg]!, readers[bestSeg]!, best), distance_m: bestD };
    },
    streets(key, accept, city = null) {
      // (segment, group, variant) of each place holding the key, sorted by the rank of its
      // (variant, code): consecutive runs are the entries, in the SQL path's order.
      const tSeg: number[] = [], tGroup: number[] = [], order: number[] = [];
      const collect = (si: number, g: number) => {
        const place = segments[si]!.groupPlace[g]!, start = dir.rankStart[si]!, ranks = dir.ranks[si]!;
        for (let j = start[place]!; j < start[place + 1]!; j++) { order.push(ranks[j]! * RANK + tSeg.length); tSeg.push(si); tGroup.push(g); }
      };
      if (city !== null) {
        // Only the places of the locality named can pass `accept`: found through the directory.
        const hits = placesOfCity(dir, city, true);
        let lastSeg = -1, k = -1;
        for (let i = 0; i < hits.length; i += 2) {
          const si = hits[i]!, s = segments[si]!;
          if (si !== lastSeg) { lastSeg = si; k = keyIn(s, key); }
          if (k < 0) continue;
          const g = groupOf(s, k, hits[i + 1]!);
          if (g >= 0) collect(si, g);
        }
      } else {
        for (let si = 0; si < segments.length; si++) {
          const s = segments[si]!;
          const k = keyIn(s, key);
          if (k < 0) continue;
          for (let g = s.groupStart[k]!; g < s.groupStart[k + 1]!; g++) collect(si, g);
        }
      }
      if (tSeg.length >= RANK) throw new Error('street key held by too many places');
      const sorted = Float64Array.from(order).sort();
      return (function* () {
        for (let i = 0; i < sorted.length;) {
          const rank = Math.floor(sorted[i]! / RANK);
          let j = i + 1;
          while (j < sorted.length && Math.floor(sorted[j]! / RANK) === rank) j++;
          const v = dir.rankVariant[rank]!, code = dir.rankCode[rank]!;
          if (accept(v, code)) {
            const parts: { si: number; from: number; to: number }[] = [];
            const postcodes = new Set<string>();
            for (let t = i; t < j; t++) {
              const x = sorted[t]! - rank * RANK, si = tSeg[x]!, g = tGroup[x]!, s = segments[si]!;
              parts.push({ si, from: g === 0 ? 0 : s.groupEnd[g - 1]!, to: s.groupEnd[g]! });
              const p = s.places[s.groupPlace[g]!]!;
              if (p.postcode !== null) postcodes.add(p.postcode);
            }
            yield {
              street_key: key, locality_key: v, locality_code: code, postcodes: postcodes.size > 0 ? [...postcodes] : null,
              rows: () => parts.flatMap(({ si, from, to }) => {
                const seg = segments[si]!, out: OfficialAddress[] = [];
                for (let r = from; r < to; r++) { const a = decode(seg, readers[si]!, seg.postings[r]!); a.locality_key = v; out.push(a); }
                return out;
              }),
            } satisfies IndexedStreet;
          }
          i = j;
        }
      })();
    },
    nearKeys(key, { postcode, city, citycode }, min, limit) {
      // The candidate keys: those of the places passing the filters, or every key of the country.
      let candidates: Iterable<string>;
      const placeOk = (p: Place) => (postcode === null || (p.postcode !== null && postcodeKey(p.postcode) === postcode))
        && (citycode === null || p.locality_code === citycode);
      const placed = city !== null ? placesOfCity(dir, city, true) : postcode !== null ? dir.byPostcode.get(postcode) ?? [] : citycode !== null ? dir.byCode.get(citycode) ?? [] : null;
      if (placed !== null) {
        const keys = new Set<string>();
        for (let i = 0; i < placed.length; i += 2) {
          const si = placed[i]!, place = placed[i + 1]!, s = segments[si]!;
          if (!placeOk(s.places[place]!)) continue;
          const start = dir.placeKeyStart[si]!, ks = dir.placeKeys[si]!;
          for (let j = start[place]!; j < start[place + 1]!; j++) keys.add(s.keys[ks[j]!]!);
        }
        candidates = keys;
      } else {
        allKeys ??= [...new Set(segments.flatMap((s) => s.keys))];
        candidates = allKeys;
      }
      const q = jwBytes(key), bound = boundQuery(q);
      const out: { street_key: string; sim: number }[] = [];
      for (const k of candidates) {
        const b = bytesOf(k);
        // Exact prefilter: a key whose upper bound is under the threshold cannot pass (the margin absorbs rounding).
        if (jaroWinklerBound(b, bound) < min - 1e-9) continue;
        const sim = jaroWinklerSimilarity(b, q);
        if (sim >= min) out.push({ street_key: k, sim });
      }
      out.sort((a, b) => b.sim - a.sim || cmp(a.street_key, b.street_key));
      return out.slice(0, limit);
    },
    trailing(cities, keys, whole) {
      const known = new Set<string>(), pairs = new Set<string>();
      cities.forEach((city, i) => {
        const hits = placesOfCity(dir, city, false);
        if (hits.length === 0) return;
        known.add(city);
        const key = keys[i]!;
        for (let h = 0; h < hits.length; h += 2) {
          const s = segments[hits[h]!]!, k = keyIn(s, key);
          if (k >= 0 && groupOf(s, k, hits[h + 1]!) >= 0) { pairs.add(`${city}|${key}`); break; }
        }
      });
      return { cities: known, pairs, whole: segments.some((s) => keyIn(s, whole) >= 0) };
    },
  };
}

/** Strings in the byte order of their UTF-8 (DuckDB's), without encoding them: UTF-8 keeps code point order. */
export function cmp(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

/**
 * A built segment saved as Arrow IPC files (one per array group: rows, postings, groups, keys,
 * streets, places, suffixes, cold blocks), keyed by its Parquet file's path, size and modification
 * time: a restart, or a refresh that rewrote other partitions, loads the segment (the arrays are
 * views of the file read, no per-row work) instead of rebuilding it from DuckDB. Written in a
 * temporary folder renamed into place; a folder that cannot be written or read is rebuilt.
 */
/** 3: the cold parcels are addresses.parcels' list items joined by U+001F (2: the `|`-joined text of the files). */
const FORMAT = 'address-index-3';

/** Where a table file's saved segments live: <dataDir>/.index/<country>/addresses/. */
function segmentCacheDir(file: string): string {
  // <dataDir>/tables/addresses/country=<cc>/<partition>.parquet (schemas/tables/layout.ts)
  const countryDir = dirname(file), dataDir = dirname(dirname(dirname(countryDir)));
  const country = basename(countryDir).replace(`${PARTITION_KEY}=`, '');
  return resolve(dataDir, '.index', country, 'addresses');
}

function segmentKey(file: string): string {
  const st = statSync(file);
  return createHash('sha256').update(`${FORMAT}\0${resolve(file)}\0${st.size}\0${st.mtimeMs}\0${st.ino}`).digest('hex').slice(0, 32);
}

const ipc = (cols: Record<string, Vector>) => tableToIPC(new Table(cols), 'file');
const utf8 = (xs: (string | null)[]) => vectorFromArray(xs, new Utf8());

export function saveSegment(s: Segment, dir: string): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const files: Record<string, Uint8Array> = {
    rows: ipc({ cell: makeVector(s.cellLo), lat: makeVector(s.lat), lng: makeVector(s.lng), number: makeVector(s.numbers), rep: makeVector(s.reps), flags: makeVector(s.flags), street: makeVector(s.street), place: makeVector(s.place) }),
    cellruns: ipc({ hi: makeVector(s.cellHi), start: makeVector(s.cellRun.subarray(0, s.cellHi.length)) }),
    bignumbers: ipc({ row: makeVector(s.bigRows), number: makeVector(s.bigNumbers) }),
    postings: ipc({ row: makeVector(s.postings) }),
    groups: ipc({ place: makeVector(s.groupPlace), end: makeVector(s.groupEnd) }),
    keys: ipc({ key: utf8(s.keys), start: makeVector(s.groupStart.subarray(0, s.keys.length)) }),
    streets: ipc({ name: utf8(s.streetNames), key: utf8(s.streetKeys) }),
    places: ipc({ postcode: utf8(s.places.map((p) => p.postcode)), code: utf8(s.places.map((p) => p.locality_code)), name: utf8(s.places.map((p) => p.locality_name)), key: utf8(s.places.map((p) => p.locality_key)), source: utf8(s.places.map((p) => p.source)) }),
    reps: ipc({ rep: utf8(s.repNames) }),
    blocks: ipc({ block: vectorFromArray(Array.from({ length: s.blockStart.length - 1 }, (_, b) => s.blocks.subarray(s.blockStart[b]!, s.blockStart[b + 1]!)), new Binary()) }),
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(tmp, `${name}.arrow`), bytes);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
}

export function loadSegment(dir: string): Segment {
  const read = (name: string) => tableFromIPC(readFileSync(join(dir, `${name}.arrow`)));
  // One record batch per file: a column's values are one typed array (a view of the file read).
  const values = <T extends { subarray(a: number, b: number): T }>(t: Table, col: string): T => {
    const v = t.getChild(col)!;
    if (v.data.length !== 1) throw new Error(`${dir}: ${col} is not one batch`);
    return (v.data[0]!.values as unknown as T).subarray(0, v.length);
  };
  const strings = (t: Table, col: string) => t.getChild(col)!.toArray() as (string | null)[];
  const rows = read('rows'), groups = read('groups'), keys = read('keys'), streets = read('streets'), places = read('places'), blocks = read('blocks');
  const n = rows.numRows;
  const cellLo = values<Uint32Array>(rows, 'cell');
  const runs = read('cellruns'), big = read('bignumbers');
  const cellHi = values<Uint32Array>(runs, 'hi');
  const cellRun = new Uint32Array(cellHi.length + 1);
  cellRun.set(values<Uint32Array>(runs, 'start'));
  cellRun[cellHi.length] = n;
  const cellOf = (i: number) => (BigInt(cellHi[runOf(cellRun, i)]!) << 32n) | BigInt(cellLo[i]!);
  const lat = values<Int32Array | Float64Array>(rows, 'lat');
  const groupEnd = values<Uint32Array>(groups, 'end');
  const keyList = strings(keys, 'key') as string[];
  const groupStart = new Uint32Array(keyList.length + 1);
  groupStart.set(values<Uint32Array>(keys, 'start'));
  groupStart[keyList.length] = groupEnd.length;
  const block = blocks.getChild('block')!.data[0]!;
  const offsets = (block.valueOffsets as Int32Array).subarray(0, blocks.numRows + 1);
  const [pc, code, name, key, source] = ['postcode', 'code', 'name', 'key', 'source'].map((c) => strings(places, c));
  return {
    n, minCell: cellOf(0), maxCell: cellOf(n - 1), cellLo, cellHi, cellRun, lat, lng: values(rows, 'lng'), fixed: lat instanceof Int32Array,
    numbers: values(rows, 'number'), bigRows: big.numRows === 0 ? new Uint32Array(0) : values(big, 'row'), bigNumbers: big.numRows === 0 ? new Int32Array(0) : values(big, 'number'), reps: values(rows, 'rep'), flags: values(rows, 'flags'), street: values(rows, 'street'), place: values(rows, 'place'),
    streetNames: strings(streets, 'name') as string[], streetKeys: strings(streets, 'key') as string[],
    places: pc!.map((postcode, i) => ({ postcode, locality_code: code![i]!, locality_name: name![i]!, locality_key: key![i]!, source: source![i]!, variants: key![i]!.split('|') })),
    repNames: strings(read('reps'), 'rep'), keys: keyList, groupStart, groupPlace: values(groups, 'place'), groupEnd, postings: values(read('postings'), 'row'),
    blocks: Buffer.from(block.values.buffer, block.values.byteOffset, offsets[offsets.length - 1]!), blockStart: new Uint32Array(offsets),
  };
}

/** A file's segment: loaded when saved for this very file, else built (and saved, when the folder can be written). */
async function segmentOf(warehouse: Warehouse, file: string, persist: boolean, stats: BuildStats): Promise<Segment | null> {
  const dir = persist ? join(segmentCacheDir(file), segmentKey(file)) : null;
  if (dir) {
    try { const t = performance.now(); const s = loadSegment(dir); stats.loaded++; stats.loadMs += performance.now() - t; return s; } catch { /* not saved yet, or unreadable: built below */ }
  }
  return oneAtATime(async () => {
    const t = performance.now();
    const s = await buildSegment(warehouse, file);
    stats.built++; stats.buildMs += performance.now() - t;
    if (s && dir) {
      try { const t2 = performance.now(); saveSegment(s, dir); stats.saveMs += performance.now() - t2; } catch { /* read-only data folder: rebuilt at each start */ }
    }
    return s;
  });
}

/**
 * Segments are built one at a time in the process, whatever the countries being built (the
 * server starts the three at once): the temporaries of one file at most, beside the indexes.
 */
let building: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(f: () => Promise<T>): Promise<T> {
  const next = building.then(f, f);
  building = next.catch(() => {});
  return next;
}

export interface BuildStats { built: number; loaded: number; buildMs: number; loadMs: number; saveMs: number }

/** Drops saved segments of files that are no longer the table's (rewritten or withdrawn partitions). */
function pruneSaved(files: string[]): void {
  const dirs = new Map<string, Set<string>>();
  for (const f of files) {
    const d = segmentCacheDir(f);
    if (!dirs.has(d)) dirs.set(d, new Set());
    try { dirs.get(d)!.add(segmentKey(f)); } catch { /* file gone */ }
  }
  for (const [d, keep] of dirs) {
    try { for (const e of readdirSync(d)) if (!keep.has(e)) rmSync(join(d, e), { recursive: true, force: true }); } catch { /* nothing saved */ }
  }
}

/**
 * The country's index, one segment per file of the table. `persist`: segments saved beside the
 * data (<dataDir>/.index) and loaded from there when their file is unchanged.
 */
export async function buildAddressIndex(warehouse: Warehouse, country: Country, budget = ADDRESS_INDEX_BUDGET_BYTES, persist = true, stats: BuildStats = { built: 0, loaded: 0, buildMs: 0, loadMs: 0, saveMs: 0 }): Promise<AddressIndex | null> {
  if (!warehouse.has(country, 'addresses')) return null;
  const [{ n } = { n: 0 }] = await warehouse.query<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${country}_addresses WHERE cell IS NOT NULL`);
  if (n * ESTIMATED_BYTES_PER_ADDRESS > budget) return null;
  const files = warehouse.filesWithCells(country, 'addresses', 0n, 2n ** 64n - 1n).sort();
  const segments: Segment[] = [];
  for (const f of files) {
    const s = await segmentOf(warehouse, f, persist, stats);
    if (s) segments.push(s);
    // Let requests through between segments (DuckDB answers them meanwhile).
    await new Promise((r) => setImmediate(r));
  }
  if (persist) pruneSaved(files);
  return addressIndexOfSegments(segments);
}

let budgetBytes = ADDRESS_INDEX_BUDGET_BYTES;
const lastStats = new Map<Country, BuildStats>();
const build = (warehouse: Warehouse, country: Country) => {
  const stats: BuildStats = { built: 0, loaded: 0, buildMs: 0, loadMs: 0, saveMs: 0 };
  lastStats.set(country, stats);
  return buildAddressIndex(warehouse, country, budgetBytes, true, stats);
};
let cache = indexCache<AddressIndex>('addresses', build);

/** How the last index of a country was made: segments built from DuckDB or loaded from their saved files, and the time each took. */
export function addressIndexStats(country: Country): BuildStats | undefined {
  return lastStats.get(country);
}

/** Sets the memory budget per country (0: no index, DuckDB answers: the benchmark's baseline); indexes are rebuilt on next use. */
export function setAddressIndexBudget(bytes: number): void {
  budgetBytes = bytes;
  cache = indexCache<AddressIndex>('addresses', build);
}

/** The address index of the warehouse's current files for a country, or null while it is built (the SQL path answers). */
export function addressIndexOf(warehouse: Warehouse, country: Country): AddressIndex | null {
  return cache.of(warehouse, country);
}

/** Resolves when the country's current address index is built (null: no table, over budget, or the read failed). */
export function addressIndexReady(warehouse: Warehouse, country: Country): Promise<AddressIndex | null> {
  return cache.ready(warehouse, country);
}
