import type { DuckDBValue } from '@duckdb/node-api';
import type { Warehouse } from '../../../core/warehouse.ts';
import { indexCache, lowerBound } from '../../search/warehouse-index.ts';
import { distanceM, RAD, radiusRanges } from '../../kinds/radius.ts';
import type { NearbySaleRow, RadiusStats } from './sales-nearby.ts';

/**
 * In-process index of the positioned sales (issue 7): the columns a radius query reads, as typed
 * arrays in cell order, so "sales around a point" is a few binary searches, an exact distance on
 * the candidate rows, a selection for the quantiles and a small heap for the nearest page,
 * without a DuckDB query. Answers are the ones of the SQL path in sales-nearby.ts (same
 * candidate cells, same distance formula and rim, quantile_cont's interpolation, same order).
 *
 * Memory per sale: 8 (cell) + 8 + 8 (latitude, longitude) + 8 (price per m²) + 8 (price)
 * + 8 (surface) + 4 (day) + 4 (rooms) + 1 (type, address null) + 4 (text offset) = 61 bytes,
 * plus the UTF-8 text "id NUL address NUL parcels" (about 40 to 70 bytes): 100 to 130 bytes.
 */
export interface SalesIndex {
  readonly size: number;
  /** Bytes held by the arrays. */
  readonly bytes: number;
  around(lat: number, lng: number, radiusM: number, type: string | null, window: { start: string; end: string } | null, page: { limit: number; offset: number }): { stats: RadiusStats[]; items: NearbySaleRow[] };
}

/** Default memory budget: above it the index is not built and queries stay on DuckDB. */
export const INDEX_BUDGET_BYTES = 3 * 2 ** 30;
const FIXED_BYTES_PER_SALE = 61;
const TYPES = ['apartment', 'house', 'other'] as const;
const NULL_ADDRESS = 4;
const NULL_INT = -2147483648;
const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/**
 * quantile_cont as DuckDB computes it on DOUBLE: position (n - 1) * q, then lo * (1 - d) + hi * d
 * between its two neighbours (that weighted form, not lo + (hi - lo) * d, to agree to the last bit). Reorders `v`.
 */
export function quantileCont(v: Float64Array, q: number): number {
  const rn = (v.length - 1) * q;
  const f = Math.floor(rn), c = Math.ceil(rn);
  const lo = select(v, f);
  if (f === c) return lo;
  // After select, the ceiling neighbour is the smallest value right of f.
  let hi = Infinity;
  for (let i = f + 1; i < v.length; i++) if (v[i]! < hi) hi = v[i]!;
  const d = rn - f;
  return lo * (1 - d) + hi * d;
}

/** k-th smallest (0-based) by Hoare quickselect with a median-of-three pivot; reorders `v`. */
function select(v: Float64Array, k: number): number {
  let l = 0, r = v.length - 1;
  while (r > l) {
    const m = (l + r) >> 1;
    const a = v[l]!, b = v[m]!, c = v[r]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    let i = l, j = r;
    while (i <= j) {
      while (v[i]! < pivot) i++;
      while (v[j]! > pivot) j--;
      if (i <= j) { const t = v[i]!; v[i] = v[j]!; v[j] = t; i++; j--; }
    }
    if (k <= j) r = j; else if (k >= i) l = i; else return v[k]!;
  }
  return v[k]!;
}

/** Reads the sales table once, in cell order; null when it would exceed `budget` bytes. */
export async function buildSalesIndex(warehouse: Warehouse, budget = INDEX_BUDGET_BYTES): Promise<SalesIndex | null> {
  if (!warehouse.has('fr', 'sales')) return null;
  const where = 'cell IS NOT NULL AND latitude IS NOT NULL AND longitude IS NOT NULL';
  const [sizes] = await warehouse.query<{ n: number; text: number | null }>(
    `SELECT count(*)::DOUBLE AS n, sum(strlen(id) + coalesce(strlen(address), 0) + strlen(array_to_string(parcels, '|')) + 2)::DOUBLE AS text FROM fr_sales WHERE ${where}`);
  const n = sizes!.n, textBytes = sizes!.text ?? 0;
  const bytes = n * FIXED_BYTES_PER_SALE + 4 + textBytes;
  if (bytes > budget || textBytes >= 2 ** 32) return null;
  const cells = new BigUint64Array(n), lats = new Float64Array(n), lngs = new Float64Array(n), ppm = new Float64Array(n);
  const prices = new Float64Array(n), surfaces = new Float64Array(n), days = new Int32Array(n), rooms = new Int32Array(n), flags = new Uint8Array(n);
  const textStart = new Uint32Array(n + 1);
  const text = Buffer.allocUnsafe(textBytes);
  let row = 0, at = 0;
  const num = (v: DuckDBValue) => (v === null ? NaN : (v as number));
  await warehouse.scan(
    `SELECT cell, latitude, longitude, price_per_m2, (date - DATE '1970-01-01')::INTEGER AS day,
       CASE property_type WHEN 'apartment' THEN 0 WHEN 'house' THEN 1 ELSE 2 END::UTINYINT AS t, price, surface, rooms, id, address, array_to_string(parcels, '|') AS parcels
     FROM fr_sales WHERE ${where} ORDER BY cell`,
    (c) => {
      const len = c[0]!.length;
      if (row + len > n) throw new Error('sales table changed while the radius index was read');
      for (let i = 0; i < len; i++, row++) {
        cells[row] = c[0]![i] as bigint; lats[row] = c[1]![i] as number; lngs[row] = c[2]![i] as number; ppm[row] = num(c[3]![i]!);
        days[row] = c[4]![i] as number; prices[row] = num(c[6]![i]!); surfaces[row] = num(c[7]![i]!);
        rooms[row] = c[8]![i] === null ? NULL_INT : (c[8]![i] as number);
        const address = c[10]![i] as string | null;
        flags[row] = (c[5]![i] as number) | (address === null ? NULL_ADDRESS : 0);
        textStart[row] = at;
        at += text.write(`${c[9]![i] as string}\0${address ?? ''}\0${c[11]![i] as string}`, at, 'utf8');
      }
    });
  if (row !== n || at !== textBytes) throw new Error('sales table changed while the radius index was read');
  textStart[n] = at;

  const idBytes = (i: number) => { const s = textStart[i]!; return text.subarray(s, text.indexOf(0, s)); };
  // Page order of the SQL path: distance, then the most recent, then id (bytes, as DuckDB compares VARCHAR).
  const order = (a: number, da: number, b: number, db: number) => da - db || days[b]! - days[a]! || Buffer.compare(idBytes(a), idBytes(b));
  const item = (i: number, d: number): NearbySaleRow => {
    const [id, address, parcels] = text.toString('utf8', textStart[i]!, textStart[i + 1]!).split('\0') as [string, string, string];
    const nullable = (v: number) => (Number.isNaN(v) ? null : v);
    return {
      id, date: new Date(days[i]! * DAY_MS).toISOString().slice(0, 10), address: flags[i]! & NULL_ADDRESS ? null : address,
      property_type: TYPES[flags[i]! & 3]!, surface: nullable(surfaces[i]!), rooms: rooms[i] === NULL_INT ? null : rooms[i]!,
      price: nullable(prices[i]!), price_per_m2: nullable(ppm[i]!), parcels: parcels === '' ? [] : parcels.split('|'), distance_m: d,
    };
  };

  return {
    size: n,
    bytes,
    around(lat, lng, radiusM, type, window, page) {
      const limit = Math.floor(radiusM);
      const want = type ? (type === 'house' ? 1 : 0) : -1;
      const from = window ? dayOf(window.start) : 1, to = window ? dayOf(window.end) : 0;
      const cosLat = Math.cos(lat * RAD);
      const counts = [0, 0, 0];
      const priced: number[][] = [[], [], []];
      // The k best of the page as a max-heap (worst on top): rows and their distances.
      const k = Math.floor(page.offset) + Math.floor(page.limit);
      const hr: number[] = [], hd: number[] = [];
      const worse = (x: number, y: number) => order(hr[x]!, hd[x]!, hr[y]!, hd[y]!) > 0;
      const swap = (x: number, y: number) => { [hr[x], hr[y]] = [hr[y]!, hr[x]!]; [hd[x], hd[y]] = [hd[y]!, hd[x]!]; };
      const down = (x: number) => {
        for (;;) {
          const l = 2 * x + 1, r = l + 1;
          let w = x;
          if (l < hr.length && worse(l, w)) w = l;
          if (r < hr.length && worse(r, w)) w = r;
          if (w === x) return;
          swap(x, w); x = w;
        }
      };
      for (const [lo, hi] of radiusRanges(lat, lng, radiusM)) {
        const end = lowerBound(cells, hi + 1n);
        for (let i = lowerBound(cells, lo); i < end; i++) {
          const t = flags[i]! & 3;
          if (want >= 0 && t !== want) continue;
          const d = distanceM(lat, lng, cosLat, lats[i]!, lngs[i]!);
          if (!(d <= limit)) continue;
          counts[t]!++;
          if (!Number.isNaN(ppm[i]!) && days[i]! >= from && days[i]! <= to) priced[t]!.push(ppm[i]!);
          if (k === 0) continue;
          if (hr.length < k) {
            hr.push(i); hd.push(d);
            for (let x = hr.length - 1; x > 0;) { const p = (x - 1) >> 1; if (!worse(x, p)) break; swap(x, p); x = p; }
          } else if (order(i, d, hr[0]!, hd[0]!) < 0) {
            hr[0] = i; hd[0] = d; down(0);
          }
        }
      }
      const stats: RadiusStats[] = [];
      for (let t = 0; t < 3; t++) {
        if (counts[t] === 0) continue;
        const v = Float64Array.from(priced[t]!);
        const q = (p: number) => (v.length === 0 ? null : quantileCont(v, p));
        stats.push({ property_type: TYPES[t]!, count: counts[t]!, priced: v.length, median: q(0.5), q1: q(0.25), q3: q(0.75) });
      }
      const best = hr.map((r, x) => ({ r, d: hd[x]! })).sort((a, b) => order(a.r, a.d, b.r, b.d));
      return { stats, items: best.slice(Math.floor(page.offset)).map((b) => item(b.r, b.d)) };
    },
  };
}

const cache = indexCache<SalesIndex>('sales', (warehouse) => buildSalesIndex(warehouse));

/**
 * The index of the warehouse's current sales files, building it in the background on first use
 * after a refresh that changed them (a new manifest): until it is ready the SQL path answers,
 * with the same answers. The previous index is dropped first, so two never coexist.
 */
export function salesIndexOf(warehouse: Warehouse): SalesIndex | null {
  return cache.of(warehouse, 'fr');
}

/** Resolves when the current index is built (null: no sales table, over budget, or the read failed). */
export function salesIndexReady(warehouse: Warehouse): Promise<SalesIndex | null> {
  return cache.ready(warehouse, 'fr');
}
