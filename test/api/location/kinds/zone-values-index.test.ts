import { mkdtemp, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../../api/core/warehouse.ts';
import { valuesOfZone, valuesOfZones, valuesOfZonesSql } from '../../../../api/location/kinds/zone-values.ts';
import { buildZoneValuesIndex, zoneValuesIndexOf, zoneValuesIndexReady } from '../../../../api/location/kinds/zone-values-index.ts';
import { prng } from '../../../../datasets/fr/tools/addresses.ts';
import { ZoneValuesWriter, type ZoneValueInput } from '../../../../ingest/core/kinds/zone-values.ts';
import type { ZoneValueRow } from '../../../../schemas/tables/zone-values.ts';
import { duckRows } from '../../../helpers/duckdb.ts';

// Generated zone values in three partitions of two sources (periods with and without ends, withheld
// values, partial ranges, rows of one zone tying on indicator, breakdown and period end, one
// partition without publication dates as written before they were required), read through the
// index and through DuckDB, both checked against the generated rows themselves.
const rand = prng(14);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const ZONES: { level: ZoneValueInput['level']; code: string }[] = [];
for (const dep of ['33', '75', '2A']) {
  ZONES.push({ level: 'administrative_area_level2', code: dep });
  for (let c = 0; c < 6; c++) {
    const commune = `${dep}${String(c * 7 + 1).padStart(3, '0')}`;
    ZONES.push({ level: 'locality', code: commune });
    for (let i = 0; i < 5; i++) ZONES.push({ level: 'sublocality_level2', code: `${commune}${String(i * 101).padStart(4, '0')}` });
  }
}
const INDICATORS = ['income.median', 'income.poverty_rate', 'rent.per_m2', 'regulation.rent_control', 'housing.dwellings'];
const BREAKDOWNS = [null, 'apartment', 'house', '2_bedrooms'];
const PERIODS: [string | null, string | null][] = [
  ['2019-01-01', '2019-12-31'], ['2020-01-01', '2020-12-31'], ['2021-01-01', '2021-12-31'], ['2021-07-01', '2021-12-31'],
  ['2019-07-01', null], [null, null], [null, '2020-12-31'],
];

interface Part { source: string; published: string | null; rows: ZoneValueInput[] }
/** The partitions' publication dates: the second written before they were required (null). */
const PUBLISHED = ['2022-10-04', null, '2023-03-01'];

function generate(partitions: number): Part[] {
  const out: Part[] = [];
  for (let p = 0; p < partitions; p++) {
    const seen = new Set<string>();
    const rows: ZoneValueInput[] = [];
    for (let k = 0; k < 1200; k++) {
      const z = pick(ZONES), indicator = pick(INDICATORS), breakdown = pick(BREAKDOWNS), [period_start, period_end] = pick(PERIODS);
      const key = `${z.level}|${z.code}|${indicator}|${breakdown}|${period_start}|${period_end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const suppressed = rand() < 0.1;
      const low = rand() < 0.4 ? Math.round(rand() * 1000) / 10 : null;
      rows.push({
        ...z, indicator, breakdown, period_start, period_end, suppressed,
        value: suppressed ? null : pick([Math.round(rand() * 100_000) / 100, Math.floor(rand() * 3), -0.5 * rand()]),
        unit: pick(['EUR/year', '%', 'EUR/m2']), sample_size: rand() < 0.5 ? Math.floor(rand() * 5000) : null,
        reliability: pick(['high', 'medium', 'low', null] as const), range_low: low, range_high: low !== null && rand() < 0.8 ? low + 10 : rand() < 0.1 ? 7 : null,
      });
    }
    out.push({ source: p === 1 ? 'test.b' : 'test.a', published: PUBLISHED[p]!, rows });
  }
  return out;
}

const PARTS = generate(3);
// Rows of the first partition again under its source, differing only in their numbers: ties on
// every text column, ordered by value, sample size, then range bounds (some equal, some null).
PARTS.push({ source: 'test.a', published: PARTS[0]!.published, rows: PARTS[0]!.rows.slice(0, 400).map((r, k) => ({
  ...r, suppressed: false,
  value: k % 4 === 0 && r.value !== null ? r.value : Math.round(rand() * 100),
  sample_size: k % 3 === 0 ? r.sample_size ?? null : pick([null, 10, 20]),
  range_low: k % 5 === 0 ? r.range_low ?? null : pick([null, 1, 2]), range_high: pick([null, 3, r.range_high ?? null]),
})) });
/** Every row as the table holds it (a withheld value is stored null with its source). */
const ALL: ZoneValueRow[] = PARTS.flatMap((p) => p.rows.map((r) => ({
  level: r.level, code: r.code, indicator: r.indicator, breakdown: r.breakdown, period_start: r.period_start, period_end: r.period_end,
  value: r.suppressed ? null : r.value, unit: r.unit, sample_size: r.sample_size ?? null, reliability: r.reliability ?? null,
  range_low: r.range_low ?? null, range_high: r.range_high ?? null, suppressed: r.suppressed ?? false, source: p.source, published_on: p.published,
})));

/** The documented order, written here without DuckDB: nulls last except the breakdown's, false before true. */
const cmp = (a: string | number | boolean | null, b: string | number | boolean | null, nullsFirst = false) => {
  if (a === b) return 0;
  if (a === null) return nullsFirst ? -1 : 1;
  if (b === null) return nullsFirst ? 1 : -1;
  return a < b ? -1 : 1;
};
const order = (a: ZoneValueRow, b: ZoneValueRow) => cmp(a.indicator, b.indicator) || cmp(a.breakdown, b.breakdown, true) || cmp(a.period_end, b.period_end)
  || cmp(a.level, b.level) || cmp(a.code, b.code) || cmp(a.period_start, b.period_start) || cmp(a.source, b.source) || cmp(a.published_on, b.published_on)
  || cmp(a.unit, b.unit) || cmp(a.reliability, b.reliability) || cmp(a.suppressed, b.suppressed) || cmp(a.value, b.value)
  || cmp(a.sample_size, b.sample_size) || cmp(a.range_low, b.range_low) || cmp(a.range_high, b.range_high);
const bruteForce = (zones: readonly { level: string; code: string }[], indicators?: string[]) => zones
  .flatMap((z) => ALL.filter((r) => r.level === z.level && r.code === z.code && (!indicators || indicators.length === 0 || indicators.includes(r.indicator))))
  .sort(order);

let warehouse: Warehouse;

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-zone-values-index-')), 'data');
  for (const [i, part] of PARTS.entries()) {
    const writer = await ZoneValuesWriter.open(dataDir, 'fr', 'test_values', `part${i}`, part.source, part.published ?? '2000-01-01');
    for (const r of part.rows) expect(writer.add(r)).toBeNull();
    for (const { prepared } of await writer.prepare()) {
      const { path } = await prepared.commit();
      // A partition of before publication dates were required: the same file with published_on null.
      if (part.published === null) {
        await duckRows(`COPY (SELECT * REPLACE (NULL::DATE AS published_on) FROM '${path}') TO '${path}.legacy' (FORMAT parquet)`);
        await rename(`${path}.legacy`, path);
      }
    }
  }
  // More descriptors than two bytes number (each row its own period start): the wide layout.
  const wide = await ZoneValuesWriter.open(dataDir, 'fr', 'test_wide', 'all', 'test.wide', '2024-01-01');
  for (let k = 0; k < 70_000; k++) {
    const start = new Date(Date.UTC(1900, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
    expect(wide.add({ level: 'locality', code: `w${k % 700}`, indicator: `wide.i${k % 100}`, breakdown: null, period_start: start, period_end: null, value: k, unit: 'EUR' })).toBeNull();
  }
  for (const { prepared } of await wide.prepare()) await prepared.commit();
  warehouse = await openWarehouse(dataDir, { tables: ['test_values', 'test_wide'], memoryTables: {} });
}, 120_000);
afterAll(() => warehouse?.close());

describe('zone values index', () => {
  it('holds every row, and gives the rows of any zones, indicators or not, as DuckDB gives them and as the generated rows say, in one order', async () => {
    expect(ALL.length).toBeGreaterThan(3000);
    // Rows of one zone tying on (indicator, breakdown, period end): the order must reach the later columns.
    const ties = new Map<string, number>();
    for (const r of ALL) { const k = `${r.level}|${r.code}|${r.indicator}|${r.breakdown}|${r.period_end}`; ties.set(k, (ties.get(k) ?? 0) + 1); }
    expect([...ties.values()].filter((n) => n > 1).length).toBeGreaterThan(50);
    // ... and on every column but the numbers.
    const textTies = new Map<string, number>();
    for (const r of ALL) { const k = JSON.stringify([r.level, r.code, r.indicator, r.breakdown, r.period_start, r.period_end, r.source, r.published_on, r.unit, r.reliability, r.suppressed]); textTies.set(k, (textTies.get(k) ?? 0) + 1); }
    expect([...textTies.values()].filter((n) => n > 1).length).toBeGreaterThan(300);
    const index = await zoneValuesIndexReady(warehouse, 'fr', 'test_values');
    expect(index).not.toBeNull();
    expect(index!.size).toBe(ALL.length);
    expect(index!.zones).toBe(new Set(ALL.map((r) => `${r.level}|${r.code}`)).size);
    expect(zoneValuesIndexOf(warehouse, 'fr', 'test_values')).toBe(index);
    const asks: { zones: { level: string; code: string }[]; indicators?: string[] }[] = [
      ...ZONES.map((z) => ({ zones: [z] })),
      { zones: [{ level: 'locality', code: '99999' }] },
      { zones: [{ level: 'sublocality_level2', code: '33001' }] }, // a code of another level
      { zones: [ZONES[3]!, ZONES[3]!] }, // the same zone twice: twice its rows, as the SQL's UNION ALL
    ];
    for (let i = 0; i < 150; i++) {
      const zones = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(ZONES));
      const indicators = rand() < 0.5 ? undefined : Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(INDICATORS));
      asks.push({ zones, indicators });
    }
    let rows = 0;
    for (const { zones, indicators } of asks) {
      const expected = bruteForce(zones, indicators);
      const sql = await valuesOfZonesSql(warehouse, 'fr', 'test_values', zones, indicators);
      expect(sql, JSON.stringify(zones)).toEqual(expected);
      expect(index!.valuesOfZones(zones, indicators), JSON.stringify(zones)).toEqual(expected);
      expect(await valuesOfZones(warehouse, 'fr', 'test_values', zones, indicators)).toEqual(expected);
      rows += expected.length;
    }
    expect(rows).toBeGreaterThan(5000);
    expect(await valuesOfZones(warehouse, 'fr', 'test_values', [])).toEqual([]);
    // A zone route's latest values, through the index now: per indicator and breakdown the row of the
    // latest period end (a period without end counts as the earliest), the first in order on a tie.
    for (const z of ZONES) {
      const latest = new Map<string, ZoneValueRow>();
      for (const r of bruteForce([z])) {
        const k = `${r.indicator}|${r.breakdown}`, prev = latest.get(k);
        if (!prev || (r.period_end ?? '') > (prev.period_end ?? '')) latest.set(k, r);
      }
      expect(await valuesOfZone(warehouse, 'fr', 'test_values', z.level, z.code)).toEqual([...latest.values()]);
    }
  });

  it('numbers more than 65,536 descriptors (four bytes a row) and still answers as DuckDB', async () => {
    const index = await buildZoneValuesIndex(warehouse, 'fr', 'test_wide');
    expect(index!.size).toBe(70_000);
    expect(index!.bytes).toBeGreaterThanOrEqual(70_000 * 12);
    for (const k of [0, 1, 350, 699]) {
      const zones = [{ level: 'locality', code: `w${k}` }];
      const sql = await valuesOfZonesSql(warehouse, 'fr', 'test_wide', zones);
      expect(sql.length).toBe(100);
      expect(index!.valuesOfZones(zones)).toEqual(sql);
      expect(index!.valuesOfZones(zones, ['wide.i7'])).toEqual(await valuesOfZonesSql(warehouse, 'fr', 'test_wide', zones, ['wide.i7']));
    }
  });

  it('says its size in bytes, builds nothing above its budget (DuckDB answers) nor for an absent table', async () => {
    const index = (await zoneValuesIndexReady(warehouse, 'fr', 'test_values'))!;
    // The typed arrays alone: two bytes of descriptor and eight of value a row, eight a sample size or range bound.
    const extras = ALL.reduce((s, r) => s + (r.sample_size !== null ? 1 : 0) + (r.range_low !== null ? 1 : 0) + (r.range_high !== null ? 1 : 0), 0);
    expect(index.bytes).toBeGreaterThanOrEqual(ALL.length * 10 + extras * 8);
    expect(await buildZoneValuesIndex(warehouse, 'fr', 'test_values', index.bytes / 2)).toBeNull();
    expect(await buildZoneValuesIndex(warehouse, 'be', 'test_values')).toBeNull();
  });
});
