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
 * period starts) come in one order on both paths.
 */
export const ZONE_VALUE_TAIL_ORDER = 'period_start, source, published_on, unit, reliability, suppressed, value, sample_size, range_low, range_high';

type Descriptor = Omit<ZoneValueRow, 'level' | 'code' | 'value' | 'sample_size' | 'range_low' | 'range_high'> & {
  /** Rank of (indicator, breakdown, period_end) in the SQL order: rows of several zones merge by it, then by zone. */
  head: number; valueNull: boolean; sampleNull: boolean; lowNull: boolean; highNull: boolean;
};

const DESCRIPTOR_COLUMNS = `indicator, breakdown, period_start, period_end, unit, reliability, suppressed, source, published_on,
  value IS NULL AS vn, sample_size IS NULL AS sn, range_low IS NULL AS ln, range_high IS NULL AS hn`;

export async function buildZoneValuesIndex(warehouse: Warehouse, country: Country, table: string, budget = ZONE_VALUES_INDEX_BUDGET): Promise<ZoneValuesIndex | null> {
  if (!warehouse.has(country, table)) return null;
  const view = `${country}_${table}`;
  const [size] = await warehouse.query<{ n: number; extras: number; zones: number; code_chars: number; descriptors: number }>(
    `SELECT count(*)::DOUBLE AS n, (count(sample_size) + count(range_low) + count(range_high))::DOUBLE AS extras,
       (SELECT count(*)::DOUBLE FROM (SELECT DISTINCT level, code FROM ${view})) AS zones,
       (SELECT coalesce(sum(strlen(code)), 0)::DOUBLE FROM (SELECT DISTINCT level, code FROM ${view})) AS code_chars,
       (SELECT count(*)::DOUBLE FROM (SELECT DISTINCT ${DESCRIPTOR_COLUMNS} FROM ${view})) AS descriptors
     FROM ${view}`,
  ) as [{ n: number; extras: number; zones: number; code_chars: number; descriptors: number }];
  const wide = size.descriptors > 65_536;
  // A zone: its code (two bytes a character and a string's header), a Map entry and two offsets; a descriptor: one small object.
  const estimate = size.n * (8 + (wide ? 4 : 2)) + size.extras * 8 + size.zones * (size.code_chars / Math.max(1, size.zones) * 2 + 32 + 64 + 8) + size.descriptors * 400;
  if (estimate > budget) return null;

  // Zone and descriptor numbers, given by DuckDB in a total order so that the scan below and these reads agree.
  const zonesCte = `SELECT level, code, (row_number() OVER (ORDER BY level, code) - 1)::INTEGER AS zid FROM (SELECT DISTINCT level, code FROM ${view})`;
  const descriptorsCte = `SELECT *, (row_number() OVER (ORDER BY indicator, breakdown, period_start, period_end, unit, reliability, suppressed, source, published_on, vn, sn, ln, hn) - 1)::INTEGER AS did,
      (dense_rank() OVER (ORDER BY indicator, breakdown NULLS FIRST, period_end))::INTEGER AS head
    FROM (SELECT DISTINCT ${DESCRIPTOR_COLUMNS} FROM ${view})`;
  const levels: string[] = [], codes: string[] = [];
  const zoneIds = new Map<string, number>();
  await warehouse.scan(`SELECT level, code, zid FROM (${zonesCte}) ORDER BY zid`, (c) => {
    for (let i = 0; i < c[0]!.length; i++) {
      const zid = c[2]![i] as number;
      levels[zid] = c[0]![i] as string; codes[zid] = c[1]![i] as string;
      zoneIds.set(`${levels[zid]}\u0000${codes[zid]}`, zid);
    }
  });
  const descriptors: Descriptor[] = [];
  for (const d of await warehouse.query<Record<string, unknown>>(
    `SELECT indicator, breakdown, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end, unit, reliability, suppressed, source,
       strftime(published_on, '%Y-%m-%d') AS published_on, vn, sn, ln, hn, did, head FROM (${descriptorsCte}) ORDER BY did`,
  )) {
    descriptors[d.did as number] = {
      indicator: d.indicator as string, breakdown: d.breakdown as string | null, period_start: d.period_start as string | null, period_end: d.period_end as string | null,
      unit: d.unit as string, reliability: d.reliability as ZoneValueRow['reliability'], suppressed: d.suppressed as boolean, source: d.source as string,
      published_on: d.published_on as string | null, head: d.head as number, valueNull: d.vn as boolean, sampleNull: d.sn as boolean, lowNull: d.ln as boolean, highNull: d.hn as boolean,
    };
  }

  const n = Math.round(size.n), zoneCount = levels.length;
  const descOf = wide ? new Uint32Array(n) : new Uint16Array(n);
  const values = new Float64Array(n);
  const extras = new Float64Array(Math.round(size.extras));
  const rowStart = new Uint32Array(zoneCount + 1), extraStart = new Uint32Array(zoneCount + 1);
  let row = 0, extra = 0, zone = -1;
  // Every row with its zone and descriptor numbers, zone by zone, each zone's rows in the SQL path's order.
  await warehouse.scan(
    `WITH z AS (${zonesCte}), d AS (${descriptorsCte})
     SELECT z.zid, d.did, t.value, t.sample_size, t.range_low, t.range_high FROM ${view} t
     JOIN z ON z.level = t.level AND z.code = t.code
     JOIN d ON d.indicator = t.indicator AND d.breakdown IS NOT DISTINCT FROM t.breakdown AND d.period_start IS NOT DISTINCT FROM t.period_start
       AND d.period_end IS NOT DISTINCT FROM t.period_end AND d.unit = t.unit AND d.reliability IS NOT DISTINCT FROM t.reliability AND d.suppressed = t.suppressed
       AND d.source = t.source AND d.published_on IS NOT DISTINCT FROM t.published_on
       AND d.vn = (t.value IS NULL) AND d.sn = (t.sample_size IS NULL) AND d.ln = (t.range_low IS NULL) AND d.hn = (t.range_high IS NULL)
     ORDER BY z.zid, t.indicator, t.breakdown NULLS FIRST, t.period_end, t.${ZONE_VALUE_TAIL_ORDER.split(', ').join(', t.')}`,
    (c) => {
      const [zids, dids, vs, samples, lows, highs] = c as [number[], number[], (number | null)[], (number | null)[], (number | null)[], (number | null)[]];
      if (row + zids.length > n) throw new Error('zone values changed while the index was read');
      for (let i = 0; i < zids.length; i++, row++) {
        while (zone < zids[i]!) { zone++; rowStart[zone] = row; extraStart[zone] = extra; }
        descOf[row] = dids[i]!;
        values[row] = vs[i] ?? 0;
        if (samples[i] !== null) extras[extra++] = samples[i]!;
        if (lows[i] !== null) extras[extra++] = lows[i]!;
        if (highs[i] !== null) extras[extra++] = highs[i]!;
      }
    },
  );
  if (row !== n || extra !== extras.length) throw new Error('zone values changed while the index was read');
  while (zone < zoneCount) { zone++; rowStart[zone] = row; extraStart[zone] = extra; }

  const bytes = descOf.byteLength + values.byteLength + extras.byteLength + rowStart.byteLength + extraStart.byteLength
    + zoneCount * (64 + 32) + codes.reduce((s, c) => s + 2 * c.length + 16, 0) + descriptors.length * 400;

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
