import type { Country } from '../../../schemas/common.ts';
import type { ZoneValueRow } from '../../../schemas/tables/zone-values.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { indexCache } from '../search/warehouse-index.ts';

/**
 * An in-process index of a zone-values table (schemas/tables/zone-values.ts), giving what the
 * DuckDB path of zone-values.ts gives, row for row and in the same order.
 *
 * Why: every report and zone route reads a few zones' values; through DuckDB each read is a
 * query over the table's files (about 10 ms at national size, docs/benchmarks.md), here an
 * array slice per zone.
 *
 * Layout (about 10 bytes a value): rows grouped by zone, each zone's rows in the order the SQL
 * path sorts them; per row a descriptor number (2 bytes, 4 past 65,536 descriptors) and the
 * value (8 bytes). A descriptor is everything a row shares with many others: indicator,
 * breakdown, periods, unit, reliability, withheld flag, source, publication date, and which of
 * value, sample size and range bounds are null. The sample sizes and range bounds that are not
 * null follow in one array of doubles, in row order (a zone's start kept), read while its rows are.
 */
export interface ZoneValuesIndex {
  /** Rows (values) held. */
  readonly size: number;
  readonly zones: number;
  /** Bytes held: typed arrays exactly, strings and descriptors estimated. */
  readonly bytes: number;
  /** The rows of the zones (every period), ordered as the SQL path orders them; only the indicators given when some are. */
  valuesOfZones(zones: readonly { level: string; code: string }[], indicators?: readonly string[]): ZoneValueRow[];
}

/** Default memory budget of one zone-values table: above it the index is not built and DuckDB answers. */
export const ZONE_VALUES_INDEX_BUDGET = 512 * 2 ** 20;

/** The budget indexes are built with (a bench or a test sets 0 to keep the DuckDB path). */
export const zoneValuesIndexOptions = { budget: ZONE_VALUES_INDEX_BUDGET };

/**
 * The order of a zone's rows, the SQL path's after (indicator, breakdown, period_end, level,
 * code): every column, so that rows of one zone tying on the first keys (two sources, two
 * period starts) come in one order on both paths. The text columns first, then the numbers: the
 * index sorts by a rank of the former (descriptor) and then by the numbers themselves.
 */
const TAIL_TEXT = ['period_start', 'source', 'published_on', 'unit', 'reliability', 'suppressed'];
const TAIL_NUMBERS = ['value', 'sample_size', 'range_low', 'range_high'];
export const ZONE_VALUE_TAIL_ORDER = [...TAIL_TEXT, ...TAIL_NUMBERS].join(', ');

type Descriptor = Omit<ZoneValueRow, 'level' | 'code' | 'value' | 'sample_size' | 'range_low' | 'range_high'> & {
  /** Rank of (indicator, breakdown, period_end) in the SQL order: rows of several zones merge by it, then by zone. */
  head: number; valueNull: boolean; sampleNull: boolean; lowNull: boolean; highNull: boolean;
};

/** What a row shares with many others, hashed by DuckDB to number it (a join on one key instead of thirteen). */
const DESCRIPTOR = ['indicator', 'breakdown', 'period_start', 'period_end', 'unit', 'reliability', 'suppressed', 'source', 'published_on'];
const NULL_FLAGS = ['value IS NULL', 'sample_size IS NULL', 'range_low IS NULL', 'range_high IS NULL'];
const descriptorHash = (t: string) => `hash(${[...DESCRIPTOR, ...NULL_FLAGS].map((c) => `${t}${c}`).join(', ')})`;

/**
 * Bytes an index holds: per value its descriptor number (2 bytes, 4 past 65,536 descriptors) and
 * its value; 8 a sample size or range bound; per zone two offsets, its code (a string: header
 * and two bytes a character) and a Map entry; per descriptor one object of short strings.
 */
function footprint(values: number, extras: number, zones: number, codeChars: number, descriptors: number): number {
  return values * (descriptors > 65_536 ? 12 : 10) + extras * 8 + zones * (8 + 16 + 96) + codeChars * 2 + descriptors * 400;
}

export async function buildZoneValuesIndex(warehouse: Warehouse, country: Country, table: string, budget = ZONE_VALUES_INDEX_BUDGET): Promise<ZoneValuesIndex | null> {
  if (!warehouse.has(country, table)) return null;
  const view = `${country}_${table}`;
  const [size] = await warehouse.query<{ n: number; extras: number; zones: number; code_chars: number }>(
    `SELECT count(*)::DOUBLE AS n, (count(sample_size) + count(range_low) + count(range_high))::DOUBLE AS extras,
       (SELECT count(*)::DOUBLE FROM (SELECT DISTINCT level, code FROM ${view})) AS zones,
       (SELECT coalesce(sum(strlen(code)), 0)::DOUBLE FROM (SELECT DISTINCT level, code FROM ${view})) AS code_chars
     FROM ${view}`,
  ) as [{ n: number; extras: number; zones: number; code_chars: number }];
  if (footprint(size.n, size.extras, size.zones, size.code_chars, 0) > budget) return null;

  // Zone and descriptor numbers, given by DuckDB in total orders so that the scan below and these reads agree.
  const zonesCte = `SELECT level, code, (row_number() OVER (ORDER BY level, code) - 1)::INTEGER AS zid FROM (SELECT DISTINCT level, code FROM ${view})`;
  // ord: the SQL path's order of a zone's rows before the numbers (indicator, breakdown, period end, then the tail's text columns).
  const descriptorsCte = `SELECT *, (row_number() OVER (ORDER BY h) - 1)::INTEGER AS did,
      (dense_rank() OVER (ORDER BY indicator, breakdown NULLS FIRST, period_end, ${TAIL_TEXT.join(', ')}))::INTEGER AS ord,
      (dense_rank() OVER (ORDER BY indicator, breakdown NULLS FIRST, period_end))::INTEGER AS head
    FROM (SELECT DISTINCT ${descriptorHash('')} AS h, ${DESCRIPTOR.join(', ')}, ${NULL_FLAGS.map((f, i) => `${f} AS f${i}`).join(', ')} FROM ${view})`;
  const levels: string[] = [], codes: string[] = [], counts: number[] = [];
  const zoneIds = new Map<string, number>();
  await warehouse.scan(`SELECT level, code, count(*)::INTEGER AS n FROM ${view} GROUP BY level, code ORDER BY level, code`, (c) => {
    for (let i = 0; i < c[0]!.length; i++) {
      zoneIds.set(`${c[0]![i] as string}\u0000${c[1]![i] as string}`, levels.length);
      levels.push(c[0]![i] as string); codes.push(c[1]![i] as string); counts.push(c[2]![i] as number);
    }
  });
  const descriptors: Descriptor[] = [];
  const ords: number[] = [];
  let previous: bigint | null = null;
  for (const d of await warehouse.query<Record<string, unknown>>(
    `SELECT h, indicator, breakdown, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end, unit, reliability, suppressed, source,
       strftime(published_on, '%Y-%m-%d') AS published_on, f0, f1, f2, f3, did, ord, head FROM (${descriptorsCte}) ORDER BY did`,
  )) {
    // Two descriptors of one hash (about one chance in 10^12 for thousands of them) would be joined to each other's rows.
    if (d.h === previous) throw new Error(`zone values index of ${view}: two descriptors share the hash ${String(d.h)}`);
    previous = d.h as bigint;
    ords[d.did as number] = d.ord as number;
    descriptors[d.did as number] = {
      indicator: d.indicator as string, breakdown: d.breakdown as string | null, period_start: d.period_start as string | null, period_end: d.period_end as string | null,
      unit: d.unit as string, reliability: d.reliability as ZoneValueRow['reliability'], suppressed: d.suppressed as boolean, source: d.source as string,
      published_on: d.published_on as string | null, head: d.head as number, valueNull: d.f0 as boolean, sampleNull: d.f1 as boolean, lowNull: d.f2 as boolean, highNull: d.f3 as boolean,
    };
  }
  const wide = descriptors.length > 65_536;
  if (footprint(size.n, size.extras, size.zones, size.code_chars, descriptors.length) > budget) return null;

  // Rows are placed zone by zone as they come (a counting sort: DuckDB sorting 7.5 M rows took
  // twice the time and kept hundreds of megabytes after), then each zone's few rows are sorted.
  const zoneCount = levels.length;
  const rowStart = new Uint32Array(zoneCount + 1);
  for (let z = 0; z < zoneCount; z++) rowStart[z + 1] = rowStart[z]! + counts[z]!;
  const n = rowStart[zoneCount]!;
  if (n !== size.n) throw new Error('zone values changed while the index was read');
  const cursor = rowStart.slice(0, zoneCount);
  const descOf = wide ? new Uint32Array(n) : new Uint16Array(n);
  const values = new Float64Array(n);
  // Sample sizes and range bounds in the order read, and where each row's start: rows move below.
  const extraCount = Math.round(size.extras);
  const readExtras = new Float64Array(extraCount);
  const extraAt = extraCount > 0 ? new Uint32Array(n) : null;
  let read = 0, rowsRead = 0;
  await warehouse.scan(
    `WITH z AS (${zonesCte}), d AS (SELECT h, did FROM (${descriptorsCte}))
     SELECT z.zid, d.did, t.value, t.sample_size, t.range_low, t.range_high FROM ${view} t
     JOIN z ON z.level = t.level AND z.code = t.code JOIN d ON d.h = ${descriptorHash('t.')}`,
    (c) => {
      const [zids, dids, vs, samples, lows, highs] = c as [number[], number[], (number | null)[], (number | null)[], (number | null)[], (number | null)[]];
      for (let i = 0; i < zids.length; i++, rowsRead++) {
        const zid = zids[i]!;
        const r = cursor[zid]!++;
        if (r >= rowStart[zid + 1]!) throw new Error('zone values changed while the index was read');
        descOf[r] = dids[i]!;
        values[r] = vs[i] ?? 0;
        // Past the end a typed array drops the write; the count checked after the scan catches it.
        if (extraAt) {
          extraAt[r] = read;
          if (samples[i] !== null) readExtras[read++] = samples[i]!;
          if (lows[i] !== null) readExtras[read++] = lows[i]!;
          if (highs[i] !== null) readExtras[read++] = highs[i]!;
        }
      }
    },
  );
  if (rowsRead !== n || read !== extraCount) throw new Error('zone values changed while the index was read');

  // A zone's rows in the SQL path's order: the descriptor's rank, then value, sample size and range bounds, nulls last.
  const extraOf = (r: number, k: 0 | 1 | 2): number | null => {
    const d = descriptors[descOf[r]!]!;
    const nulls = [d.sampleNull, d.lowNull, d.highNull];
    if (nulls[k] || !extraAt) return null;
    let p = extraAt[r]!;
    for (let j = 0; j < k; j++) if (!nulls[j]) p++;
    return readExtras[p]!;
  };
  const nullsLast = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0);
  const compare = (a: number, b: number) => ords[descOf[a]!]! - ords[descOf[b]!]!
    || nullsLast(descriptors[descOf[a]!]!.valueNull ? null : values[a]!, descriptors[descOf[b]!]!.valueNull ? null : values[b]!)
    || nullsLast(extraOf(a, 0), extraOf(b, 0)) || nullsLast(extraOf(a, 1), extraOf(b, 1)) || nullsLast(extraOf(a, 2), extraOf(b, 2));
  for (let z = 0; z < zoneCount; z++) {
    const s = rowStart[z]!, e = rowStart[z + 1]!;
    let sorted = true;
    for (let r = s + 1; r < e && sorted; r++) sorted = compare(r - 1, r) <= 0;
    if (sorted) continue;
    const order = Array.from({ length: e - s }, (_, i) => s + i).sort(compare);
    const d = descOf.slice(s, e), v = values.slice(s, e), x = extraAt?.slice(s, e);
    order.forEach((from, i) => { descOf[s + i] = d[from - s]!; values[s + i] = v[from - s]!; if (extraAt) extraAt[s + i] = x![from - s]!; });
  }
  // The extras in the rows' final order, each zone's first kept.
  const extras = new Float64Array(extraCount);
  const extraStart = new Uint32Array(zoneCount + 1);
  if (extraAt) {
    let x = 0;
    for (let z = 0; z < zoneCount; z++) {
      extraStart[z] = x;
      for (let r = rowStart[z]!; r < rowStart[z + 1]!; r++) {
        const d = descriptors[descOf[r]!]!;
        let p = extraAt[r]!;
        if (!d.sampleNull) extras[x++] = readExtras[p++]!;
        if (!d.lowNull) extras[x++] = readExtras[p++]!;
        if (!d.highNull) extras[x++] = readExtras[p++]!;
      }
    }
    extraStart[zoneCount] = x;
  }

  const bytes = footprint(n, extras.length, zoneCount, codes.reduce((s, c) => s + c.length, 0), descriptors.length);

  /** The rows of one zone whose descriptor passes `keep`, with the position each sorts by. */
  const rowsOf = (zid: number, keep: (d: Descriptor) => boolean, out: { head: number; zid: number; at: number; row: ZoneValueRow }[]) => {
    let x = extraStart[zid]!;
    for (let r = rowStart[zid]!, end = rowStart[zid + 1]!; r < end; r++) {
      const d = descriptors[descOf[r]!]!;
      // The extras of a row come in the order sample, low, high, each only when not null.
      const sample = d.sampleNull ? null : extras[x++]!;
      const low = d.lowNull ? null : extras[x++]!;
      const high = d.highNull ? null : extras[x++]!;
      if (!keep(d)) continue;
      out.push({
        head: d.head, zid, at: r,
        row: {
          level: levels[zid]! as ZoneValueRow['level'], code: codes[zid]!, indicator: d.indicator, breakdown: d.breakdown, period_start: d.period_start, period_end: d.period_end,
          value: d.valueNull ? null : values[r]!, unit: d.unit, sample_size: sample, reliability: d.reliability, range_low: low, range_high: high,
          suppressed: d.suppressed, source: d.source, published_on: d.published_on,
        },
      });
    }
  };

  return {
    size: n,
    zones: zoneCount,
    bytes,
    valuesOfZones(zones, indicators) {
      const wanted = indicators && indicators.length > 0 ? new Set(indicators) : null;
      const keep = wanted ? (d: Descriptor) => wanted.has(d.indicator) : () => true;
      const found: { head: number; zid: number; at: number; row: ZoneValueRow }[] = [];
      for (const z of zones) {
        const zid = zoneIds.get(`${z.level}\u0000${z.code}`);
        if (zid !== undefined) rowsOf(zid, keep, found);
      }
      // (indicator, breakdown, period_end), then the zone (level, code), then the zone's own order: the SQL's ORDER BY.
      found.sort((a, b) => a.head - b.head || a.zid - b.zid || a.at - b.at);
      return found.map((f) => f.row);
    },
  };
}

const caches = new Map<string, ReturnType<typeof indexCache<ZoneValuesIndex>>>();
const cacheOf = (table: string) => {
  let c = caches.get(table);
  if (!c) { c = indexCache(table, (w, country) => buildZoneValuesIndex(w, country, table, zoneValuesIndexOptions.budget)); caches.set(table, c); }
  return c;
};

/** The index of a zone-values table once built (null meanwhile, and over budget: DuckDB answers). */
export const zoneValuesIndexOf = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).of(warehouse, country);
export const zoneValuesIndexReady = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).ready(warehouse, country);
