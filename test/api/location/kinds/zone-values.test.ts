import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../../api/core/warehouse.ts';
import { finestValue, UpdatedOnDates, updatedOnOf, valuesOfZone, valuesOfZones, zoneValueTerritories, type ZoneValue } from '../../../../api/location/kinds/zone-values.ts';
import type { Manifest, ManifestPartition } from '../../../../schemas/tables/manifest.ts';
import { ZoneValuesWriter, type ZoneValueInput } from '../../../../ingest/core/kinds/zone-values.ts';

// Median incomes published by IRIS, commune and department over two years, one IRIS withheld
// (statistical secrecy), one with a low reliability: what a zone route and a report serve.
const v = (level: ZoneValueInput['level'], code: string, year: number, value: number | null, extra: Partial<ZoneValueInput> = {}): ZoneValueInput => ({
  level, code, indicator: 'income.median_per_unit', breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
  value, unit: 'EUR/year', reliability: 'high', ...extra,
});
const VALUES: ZoneValueInput[] = [
  v('administrative_area_level2', '33', 2020, 21000), v('administrative_area_level2', '33', 2021, 22000),
  v('locality', '33001', 2020, 19000), v('locality', '33001', 2021, 19500, { reliability: 'medium', sample_size: 800 }),
  v('sublocality_level2', '330010101', 2021, null, { suppressed: true }),
  v('sublocality_level2', '330010102', 2021, 18000, { reliability: 'low', range_low: 15000, range_high: 21000 }),
];
const zonesOf = (iris: string) => [{ level: 'sublocality_level2', code: iris }, { level: 'locality', code: '33001' }, { level: 'administrative_area_level2', code: '33' }];
let dataDir: string;
let warehouse: Warehouse;

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-zone-values-')), 'data');
  const writer = await ZoneValuesWriter.open(dataDir, 'fr', 'test_values', 'sample', 'test', '2023-03-01');
  for (const x of VALUES) expect(writer.add(x)).toBeNull();
  expect(writer.add(VALUES[0]!)).toMatch(/duplicate value/);
  expect(writer.add(v('locality', '33003', 2021, null))).toMatch(/no value/);
  expect(writer.add({ ...v('locality', '33003', 2021, 1), indicator: 'Income Median' })).toMatch(/indicator/);
  for (const { prepared } of await writer.prepare()) await prepared.commit();
  warehouse = await openWarehouse(dataDir, { tables: ['test_values'], memoryTables: {} });
});
afterAll(() => warehouse?.close());

describe('zone values table kind', () => {
  it('serves a zone only its own latest values, never a wider zone’s', async () => {
    const [commune] = await valuesOfZone(warehouse, 'fr', 'test_values', 'locality', '33001');
    expect(commune).toMatchObject({ code: '33001', value: 19500, period_start: '2021-01-01', period_end: '2021-12-31', reliability: 'medium', sample_size: 800, published_on: '2023-03-01', suppressed: false });
    expect(await valuesOfZone(warehouse, 'fr', 'test_values', 'sublocality_level2', '330010101')).toEqual([expect.objectContaining({ value: null, suppressed: true })]);
    expect(await valuesOfZone(warehouse, 'fr', 'test_values', 'sublocality_level2', '339999999')).toEqual([]);
  });

  it('serves at a point the finest reliable zone, skipping a withheld value and a low reliability', async () => {
    const rows = await valuesOfZones(warehouse, 'fr', 'test_values', zonesOf('330010101'));
    expect(finestValue(rows, zonesOf('330010101'), 'income.median_per_unit').value).toMatchObject({ level: 'locality', value: 19500 });
    // A low-reliability IRIS value gives way to the medium commune value.
    const low = await valuesOfZones(warehouse, 'fr', 'test_values', zonesOf('330010102'));
    expect(finestValue(low, zonesOf('330010102'), 'income.median_per_unit').value).toMatchObject({ level: 'locality' });
    // Only the withheld IRIS: null with the reason suppressed; nothing at all: not_found.
    expect(finestValue(rows.filter((r) => r.level === 'sublocality_level2'), zonesOf('330010101'), 'income.median_per_unit')).toEqual({ value: null, reason: 'suppressed' });
    expect(finestValue(rows, zonesOf('330010101'), 'income.poverty_rate')).toEqual({ value: null, reason: 'not_found' });
  });

  it('writes what DuckDB reads back from the file as an analyst would', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const rows = (await c.runAndReadAll(`SELECT code, value, typeof(period_start) AS t FROM '${dataDir}/tables/test_values/country=fr/*.parquet' WHERE level = 'locality' ORDER BY period_end`)).getRowObjectsJS();
    c.closeSync(); db.closeSync();
    expect(rows).toEqual([{ code: '33001', value: 19000, t: 'DATE' }, { code: '33001', value: 19500, t: 'DATE' }]);
  });

  it("gives the departments where each source published values, read once per warehouse refresh (a scan of the table otherwise on every /catalog/fields)", async () => {
    const first = zoneValueTerritories(warehouse, 'fr', 'test_values');
    expect(zoneValueTerritories(warehouse, 'fr', 'test_values')).toBe(first);
    // The withheld IRIS value does not count; every other value here is in the Gironde (33).
    expect((await first)!.bySource).toEqual(new Map([['test', new Set(['33'])]]));
    const writer = await ZoneValuesWriter.open(dataDir, 'fr', 'test_values', 'paris', 'test.paris', '2023-06-30');
    expect(writer.add(v('locality', '75056', 2021, 25000))).toBeNull();
    expect(writer.add(v('locality', '2A004', 2021, null, { suppressed: true }))).toBeNull();
    for (const { prepared } of await writer.prepare()) await prepared.commit();
    // The same answer until the warehouse refreshes, then the new partition's department; a withheld value names none.
    expect(await zoneValueTerritories(warehouse, 'fr', 'test_values')).toBe(await first);
    await warehouse.refresh();
    expect((await zoneValueTerritories(warehouse, 'fr', 'test_values'))!.bySource).toEqual(new Map([['test', new Set(['33'])], ['test.paris', new Set(['75'])]]));
  });
});

describe('updated_on of a zone value', () => {
  const part = (partition: string, source: string, published: string | null, imported: string): ManifestPartition => ({
    table: 'zone_values', partition, file: `tables/zone_values/country=fr/${partition}.parquet`, job: 'fr.test',
    sources: [{ id: source, input: `${partition}.csv`, input_sha256: 'x', published_at: published, downloaded_from: null }],
    rows: 1, rejects: 0, rejects_file: null, imported_at: imported, schema_version: 1, sha256: 'y',
  });
  const manifest = (...partitions: ManifestPartition[]): Manifest => ({ country: 'fr', schema_version: 1, updated_at: '2026-11-27T10:00:00.000Z', partitions });
  const row = (source: string, published: string | null): ZoneValue => ({
    level: 'locality', code: '33001', indicator: 'income.median_per_unit', breakdown: null, period_start: '2021-01-01', period_end: '2021-12-31',
    value: 19500, unit: 'EUR/year', sample_size: null, reliability: 'high', range_low: null, range_high: null, suppressed: false, source, published_on: published,
  });
  const now = new Date('2026-11-27T12:00:00Z');
  // A partition of before publication dates were required (none in its rows nor its manifest entry), and one written since.
  const both = manifest(part('test.2020', 'test', null, '2026-11-20T09:00:00.000Z'), part('test.2021', 'test', '2023-03-01', '2026-11-26T09:00:00.000Z'));

  it("is the producer's publication date the row carries, whatever the manifest says", () => {
    expect(updatedOnOf(row('test', '2023-03-01'), both, 'zone_values', now)).toEqual({ date: '2023-03-01', published: true });
  });

  it('is, for a row of a partition written before publication dates were required, the import date of the undated partitions, marked', () => {
    // Never the other partition's publication date: the row is not of that edition.
    expect(updatedOnOf(row('test', null), both, 'zone_values', now)).toEqual({ date: '2026-11-20', published: false });
    // Every partition of the source dated in the manifest: the latest of those dates.
    expect(updatedOnOf(row('test', null), manifest(part('test.2021', 'test', '2023-03-01', '2026-11-26T09:00:00.000Z')), 'zone_values', now)).toEqual({ date: '2023-03-01', published: true });
    // A manifest read before the import: today, marked.
    expect(updatedOnOf(row('other', null), both, 'zone_values', now)).toEqual({ date: '2026-11-27', published: false });
  });

  it('gives one warning per source whose values are served with their import date, naming the fields', () => {
    const dates = new UpdatedOnDates(both, 'zone_values', now);
    expect(dates.of(row('test', '2023-03-01'), 'income.a')).toBe('2023-03-01');
    expect(dates.warnings('residents')).toEqual([]);
    expect(dates.of(row('test', null), 'income.b')).toBe('2026-11-20');
    expect(dates.of(row('test', null), 'income.c')).toBe('2026-11-20');
    expect(dates.of(row('test', null), 'income.c')).toBe('2026-11-20');
    expect(dates.warnings('residents')).toEqual([{
      domain: 'residents', code: 'publication_date_unknown',
      message: "income.b, income.c: updated_on is the import date, not test's publication date, which was not recorded when it was ingested (ingest it again with --published-on)",
    }]);
  });
});
