import type { Country } from '../../../schemas/common.ts';
import type { ZoneValueRow } from '../../../schemas/tables/zone-values.ts';
import { perRefresh, type Warehouse } from '../../core/warehouse.ts';
import type { Warning } from '../../../schemas/domain.ts';
import type { Measure } from '../../../schemas/measure.ts';
import type { Manifest } from '../../../schemas/tables/manifest.ts';
import type { Zone } from '../../../schemas/zone.ts';
import { sourceById } from '../../../datasets/catalogue.ts';
import { isStale } from '../../../datasets/source.ts';
import { profileOf } from '../../../datasets/countries.ts';
import { ZONE_VALUE_TAIL_ORDER, zoneValuesIndexOf } from './zone-values-index.ts';

/**
 * The API reader of the "zone values" table kind (schemas/tables/zone-values.ts). A zone route
 * serves only the values published for that zone (spec 4.4: a zone never receives a wider zone's
 * value); a report serves, per indicator and breakdown, the finest zone of the point having a
 * reliable value (spec 2.5, Measure.zone).
 */
export type ZoneValue = ZoneValueRow;

const COLUMNS = `level, code, indicator, breakdown, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end,
  value, unit, sample_size, reliability, range_low, range_high, suppressed, source, strftime(published_on, '%Y-%m-%d') AS published_on`;

/** The latest period of each indicator and breakdown: the values a report or a zone serves today. */
function latest(rows: ZoneValue[]): ZoneValue[] {
  const best = new Map<string, ZoneValue>();
  for (const r of rows) {
    const key = `${r.level}|${r.code}|${r.indicator}|${r.breakdown ?? ''}`;
    const prev = best.get(key);
    if (!prev || (r.period_end ?? '') > (prev.period_end ?? '')) best.set(key, r);
  }
  return [...best.values()];
}

/**
 * Values of the given zones (every period), ordered by indicator, breakdown, period end, zone,
 * then every other column: from the in-process index once built (zone-values-index.ts), else
 * from the table; both give the same rows in the same order.
 */
export async function valuesOfZones(warehouse: Warehouse, country: Country, table: string, zones: readonly { level: string; code: string }[], indicators?: readonly string[]): Promise<ZoneValue[]> {
  if (!warehouse.has(country, table) || zones.length === 0) return [];
  const index = zoneValuesIndexOf(warehouse, country, table);
  return index ? index.valuesOfZones(zones, indicators) : valuesOfZonesSql(warehouse, country, table, zones, indicators);
}

/** valuesOfZones read from the table by DuckDB (before the index is built, above its budget, and as its reference); zone codes travel as bound parameters. */
export async function valuesOfZonesSql(warehouse: Warehouse, country: Country, table: string, zones: readonly { level: string; code: string }[], indicators?: readonly string[]): Promise<ZoneValue[]> {
  if (!warehouse.has(country, table) || zones.length === 0) return [];
  const params: string[] = [];
  let indicatorTest = '';
  if (indicators && indicators.length > 0) {
    indicatorTest = ` AND indicator IN (${indicators.map((i) => { params.push(i); return `$${params.length}`; }).join(', ')})`;
  }
  // One equality per zone (UNION ALL): each prunes the files' row groups by the sorted code, which an OR of zones does not.
  const scans = zones.map((z) => { params.push(z.level, z.code); return `SELECT ${COLUMNS} FROM ${country}_${table} WHERE level = $${params.length - 1} AND code = $${params.length}${indicatorTest}`; });
  return warehouse.query<ZoneValue>(`SELECT * FROM (${scans.join(' UNION ALL ')}) ORDER BY indicator, breakdown NULLS FIRST, period_end, level, code, ${ZONE_VALUE_TAIL_ORDER}`, params);
}

/**
 * The indicators a zone-values table holds, read once per warehouse refresh: whether a source is
 * served at all (an absent commune is not an outage) is asked on requests, and a scan of the
 * indicator column for an indicator never ingested reads the whole table.
 */
export function zoneValueIndicators(warehouse: Warehouse, country: Country, table: string): Promise<Set<string>> {
  if (!warehouse.has(country, table)) return Promise.resolve(new Set());
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `indicators ${key}`, () => warehouse.query<{ indicator: string }>(`SELECT DISTINCT indicator FROM ${key}`).then((rows) => new Set(rows.map((r) => r.indicator))));
}

/**
 * Every row of a small zone-values table (a memory table: France's hazard classes by commune) by
 * zone (`level|code`), read once per warehouse refresh: a lookup per report instead of a DuckDB
 * query. Only for tables of a few hundred thousand rows.
 */
export function zoneValuesByZone(warehouse: Warehouse, country: Country, table: string): Promise<Map<string, ZoneValue[]>> {
  if (!warehouse.has(country, table)) return Promise.resolve(new Map());
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `by zone ${key}`, () => warehouse.query<ZoneValue>(`SELECT ${COLUMNS} FROM ${key} ORDER BY indicator, breakdown NULLS FIRST, period_end, level, code`).then((rows) => {
    const m = new Map<string, ZoneValue[]>();
    for (const r of rows) { const k = `${r.level}|${r.code}`; const list = m.get(k); if (list) list.push(r); else m.set(k, [r]); }
    return m;
  }));
}

/** What a zone route serves: the zone's own latest values, never a wider zone's. */
export async function valuesOfZone(warehouse: Warehouse, country: Country, table: string, level: string, code: string): Promise<ZoneValue[]> {
  return latest(await valuesOfZones(warehouse, country, table, [{ level, code }]));
}

/** The value served for one indicator and breakdown at a point, or why there is none (spec 2.5 absence reasons). */
export type Served = { value: ZoneValue; reason: null } | { value: null; reason: 'suppressed' | 'not_found' };

/**
 * Picks, among the latest values of the point's zones (`zones` finest first), the finest whose
 * reliability is high or medium, else the finest published with any reliability; a value the
 * producer withheld is never served (null, reason suppressed when nothing else is published).
 */
export function finestValue(rows: readonly ZoneValue[], zones: readonly { level: string; code: string }[], indicator: string, breakdown: string | null = null): Served {
  const own = latest(rows.filter((r) => r.indicator === indicator && r.breakdown === breakdown));
  const byZone = zones.map((z) => own.find((r) => r.level === z.level && r.code === z.code)).filter((r): r is ZoneValue => r !== undefined);
  const published = byZone.filter((r) => !r.suppressed && r.value !== null);
  const reliable = published.find((r) => r.reliability === 'high' || r.reliability === 'medium');
  const chosen = reliable ?? published[0];
  if (chosen) return { value: chosen, reason: null };
  return { value: null, reason: byZone.length > 0 ? 'suppressed' : 'not_found' };
}

/** updated_on of a served value, and whether it is the producer's publication date (false: the import date stands in). */
export interface UpdatedOn { date: string; published: boolean }

/**
 * updated_on of a value: the producer's publication date of its edition, which every row carries
 * since the jobs require it (ingest/core/published-on.ts). A row without one comes from a
 * partition written before: its manifest entry has no publication date either (those jobs kept
 * the operator's date in the rows only), so the least dishonest answer is the import date of the
 * source's partitions lacking one, marked `published: false` for the caller to say so in
 * meta.warnings. A source whose every partition's manifest entry has a publication date gives the
 * latest of them; a manifest read before the import, today (also marked).
 */
export function updatedOnOf(row: ZoneValue, manifest: Manifest, table: string, now: Date): UpdatedOn {
  if (row.published_on) return { date: row.published_on, published: true };
  const entries = manifest.partitions.filter((p) => p.table === table).flatMap((p) => p.sources.filter((s) => s.id === row.source).map((s) => ({ p, s })));
  const undated = entries.filter((e) => !e.s.published_at).map((e) => e.p.imported_at).sort().at(-1);
  if (undated) return { date: undated.slice(0, 10), published: false };
  const published = entries.map((e) => e.s.published_at!).sort().at(-1);
  if (published) return { date: published.slice(0, 10), published: true };
  return { date: now.toISOString().slice(0, 10), published: false };
}

/**
 * The updated_on of the values a domain serves, noting the fields served with their import date
 * (a partition written before publication dates were required) for one meta.warnings entry per
 * source.
 */
export class UpdatedOnDates {
  private readonly undated = new Map<string, string[]>();
  constructor(private readonly manifest: Manifest, private readonly table: string, private readonly now: Date) {}

  /** updated_on of the value served as `field` (a path of the domain). */
  of(row: ZoneValue, field: string): string {
    const u = updatedOnOf(row, this.manifest, this.table, this.now);
    if (!u.published) {
      const fields = this.undated.get(row.source) ?? [];
      if (!fields.includes(field)) fields.push(field);
      this.undated.set(row.source, fields);
    }
    return u.date;
  }

  warnings(domain: string): Warning[] {
    return [...this.undated].map(([source, fields]) => publicationDateUnknown(domain, fields, source));
  }
}

/** The meta.warnings entry of fields served with their import date as updated_on. */
export function publicationDateUnknown(domain: string, fields: readonly string[], source: string): Warning {
  return {
    domain, code: 'publication_date_unknown',
    message: `${fields.join(', ')}: updated_on is the import date, not ${source}'s publication date, which was not recorded when it was ingested (ingest it again with --published-on)`,
  };
}

/** A served zone value as the Measure of spec 2.5 (the zone named as data.location names it). */
export function measureOf(row: ZoneValue, zone: Zone, definition: string, updatedOn: string, now: Date): Measure {
  const frequency = sourceById(row.source)?.update_frequency ?? 'irregular';
  return {
    value: row.value!, unit: row.unit as Measure['unit'],
    period: row.period_start && row.period_end ? { start: row.period_start, end: row.period_end } : null,
    zone, sample_size: row.sample_size, reliability: row.reliability ?? 'low',
    range: row.range_low !== null && row.range_high !== null ? { low: row.range_low, high: row.range_high } : null,
    definition, updated_on: updatedOn, stale: isStale(updatedOn, frequency, now),
  };
}

/** The territories (profile.zoneValueTerritory) each source of a country's zone values has published values in, and every territory the zones table knows at that level. */
export interface ZoneValueTerritories { bySource: Map<string, Set<string>>; names: Map<string, string> }

/** Read once per warehouse refresh: the distinct query reads the whole table (about 0.2 to 0.5 s at 7.5 M values), and every /catalog/fields asks. */
export function zoneValueTerritories(warehouse: Warehouse, country: Country, table = 'zone_values'): Promise<ZoneValueTerritories | null> {
  const rule = profileOf(country).zoneValueTerritory;
  if (!rule || !warehouse.has(country, table)) return Promise.resolve(null);
  return perRefresh(warehouse, `territories ${country}_${table}`, async () => {
    // Three characters of a code say its territory: a handful of rows per source, whatever the table's size.
    const rows = await warehouse.query<{ source: string; p: string }>(`SELECT DISTINCT source, left(code, 3) AS p FROM ${country}_${table} WHERE NOT suppressed`);
    const bySource = new Map<string, Set<string>>();
    for (const r of rows) {
      const t = rule.of(r.p);
      if (t === null) continue;
      if (!bySource.has(r.source)) bySource.set(r.source, new Set());
      bySource.get(r.source)!.add(t);
    }
    const names = new Map<string, string>();
    if (warehouse.has(country, 'zones')) {
      for (const z of await warehouse.query<{ code: string; name: string | null }>(`SELECT code, any_value(name) AS name FROM ${country}_zones WHERE level = $1 GROUP BY code`, [rule.level])) names.set(z.code, z.name ?? z.code);
    }
    return { bySource, names };
  });
}
