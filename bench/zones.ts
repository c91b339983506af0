import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { frResidents } from '../api/location/domains/residents/fr.ts';
import { ZONE_VALUES_INDEX_BUDGET, zoneValuesIndexOptions, zoneValuesIndexReady } from '../api/location/kinds/zone-values-index.ts';
import { indexBuildTimes } from '../api/location/search/warehouse-index.ts';
import { openLocationWarehouse } from '../api/location/warehouse.ts';
import type { Location } from '../schemas/location.ts';
import { ZONE_LEVEL_ORDER, type Zones } from '../schemas/zone.ts';
import { benchApp } from './app.ts';

/**
 * Issue 14's zone statistics at national scale: every French IRIS (about 50,000, in communes of
 * ~96 departments), 30 indicators, 5 yearly editions (7.5 M zone values), as Parquet in the
 * table's own layout. Measured in the same run: the zone route (`include=residents`) through the
 * server and the report's residents resolver, each by the DuckDB path (the zone-values index off)
 * and by the in-process index, against a DuckDB point query on the same files; the index's build
 * time and size, the process RSS; the residents answers compared between the two paths.
 */
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const stats = (ms: number[]) => { const s = [...ms].sort((a, b) => a - b); return { p50_ms: +pct(s, 50).toFixed(2), p99_ms: +pct(s, 99).toFixed(2) }; };

/** `keep`: the generated tables are written there once and reused by later runs (of the same --iris). */
export async function benchZones(irisCount: number, queries: number, keep?: string) {
  const loadStart = loadavg().map((x) => +x.toFixed(2));
  const root = keep ?? await mkdtemp(join(tmpdir(), 'bench-zones-'));
  const dataDir = join(root, 'data');
  const valuesFile = join(dataDir, 'tables', 'zone_values', 'country=fr', 'fr.filosofi.bench.parquet');
  const reuse = keep !== undefined && existsSync(valuesFile) && existsSync(join(dataDir, 'tables', 'zones', 'country=fr', 'bench.parquet'));
  await mkdir(join(dataDir, 'tables', 'zone_values', 'country=fr'), { recursive: true });
  await mkdir(join(dataDir, 'tables', 'zones', 'country=fr'), { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // IRIS i: department 1 + i % 95, commune 3 digits, IRIS 4 digits; 30 indicators (the two served first), 5 years.
  const iris = `SELECT i, lpad(CAST(1 + i % 95 AS VARCHAR), 2, '0') AS dep, lpad(CAST((i // 95) % 700 AS VARCHAR), 3, '0') AS com,
    lpad(CAST(i // 66500 AS VARCHAR), 2, '0') || lpad(CAST(i % 100 AS VARCHAR), 2, '0') AS n FROM range(${irisCount}) t(i)`;
  let t = performance.now();
  if (!reuse) await c.run(`COPY (
    SELECT 'sublocality_level2' AS level, dep || com || n AS code,
      CASE k WHEN 0 THEN 'income.median_disposable_per_unit' WHEN 1 THEN 'income.poverty_rate' ELSE 'bench.indicator_' || k END AS indicator,
      NULL::VARCHAR AS breakdown, make_date(2017 + y, 1, 1) AS period_start, make_date(2017 + y, 12, 31) AS period_end,
      CASE WHEN (i * 31 + k) % 97 = 0 THEN NULL ELSE 15000 + (i * 7919 + k * 104729 + y * 613) % 30000 END::DOUBLE AS value,
      CASE k WHEN 1 THEN '%' ELSE 'EUR/year' END AS unit, NULL::INTEGER AS sample_size,
      CASE (i + k) % 3 WHEN 0 THEN 'high' WHEN 1 THEN 'medium' ELSE 'low' END AS reliability,
      NULL::DOUBLE AS range_low, NULL::DOUBLE AS range_high, (i * 31 + k) % 97 = 0 AS suppressed,
      'fr.filosofi' AS source, make_date(2019 + y, 9, 1) AS published_on
    FROM (${iris}) z, range(30) a(k), range(5) b(y) ORDER BY code, indicator, period_start
  ) TO '${valuesFile}' (FORMAT parquet, COMPRESSION zstd)`);
  // The zones table (names and parents) the zone route reads; outlines are tiny squares.
  if (!reuse) await c.run(`COPY (
    SELECT 'sublocality_level2' AS level, dep || com || n AS code, 'IRIS ' || (dep || com || n) AS name, 'locality' AS parent_level, dep || com AS parent_code,
      0.0 AS min_lng, 0.0 AS min_lat, 0.001 AS max_lng, 0.001 AS max_lat,
      '{"type":"Polygon","coordinates":[[[0,0],[0.001,0],[0.001,0.001],[0,0.001],[0,0]]]}' AS geometry,
      '{"type":"Polygon","coordinates":[[[0,0],[0.001,0],[0.001,0.001],[0,0.001],[0,0]]]}' AS geometry_simplified, 'bench' AS source
    FROM (${iris}) z ORDER BY code
  ) TO '${join(dataDir, 'tables', 'zones', 'country=fr', 'bench.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  const generate_s = reuse ? null : +((performance.now() - t) / 1000).toFixed(1);
  const codes = (await c.runAndReadAll(`SELECT dep || com || n AS code FROM (${iris}) z ORDER BY hash(i) LIMIT ${queries}`)).getRowObjectsJS().map((r) => r.code as string);
  const [{ n }] = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM '${join(dataDir, 'tables', 'zone_values', 'country=fr', '*.parquet')}'`)).getRowObjectsJS() as [{ n: number }];

  // Baseline: DuckDB's point query on the same Parquet, in this process.
  const duck: number[] = [];
  for (const code of codes) {
    t = performance.now();
    await c.runAndReadAll(`SELECT * FROM read_parquet('${join(dataDir, 'tables', 'zone_values', 'country=fr', '*.parquet')}') WHERE level = 'sublocality_level2' AND code = $1`, [code]);
    duck.push(performance.now() - t);
  }
  c.closeSync(); db.closeSync();

  // The API twice over the same files: first with the zone-values index kept off (budget 0: the
  // DuckDB path, as before issue 14's index), then with it built.
  const measure = async (indexed: boolean) => {
    zoneValuesIndexOptions.budget = indexed ? ZONE_VALUES_INDEX_BUDGET : 0;
    const rssBefore = process.memoryUsage().rss;
    const { app, key, warehouse, manifests } = await benchApp(dataDir);
    t = performance.now();
    const index = await zoneValuesIndexReady(warehouse, 'fr', 'zone_values');
    const build_s = +((performance.now() - t) / 1000).toFixed(2);
    if (indexed !== (index !== null)) throw new Error(`zone-values index ${index ? 'built' : 'not built'} with budget ${zoneValuesIndexOptions.budget}`);
    global.gc?.();
    const rss_after_build_mb = Math.round(process.memoryUsage().rss / 1e6);
    // The zone route through the server.
    const route: number[] = [];
    const answers: string[] = [];
    for (const code of codes) {
      t = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/v1/fr/zones/sublocality_level2/${code}?include=residents`, headers: { authorization: `Bearer ${key}` } });
      route.push(performance.now() - t);
      if (res.statusCode !== 200) throw new Error(`zone route answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      const body = res.json() as { meta: Record<string, unknown> };
      delete body.meta.request_id; delete body.meta.generated_at;
      answers.push(JSON.stringify(body));
    }
    // What the zone route asks DuckDB besides the zone values: the zone's name and parent, then its parent's (zone_names, a memory table).
    const names: number[] = [];
    for (const code of codes) {
      t = performance.now();
      await warehouse.query('SELECT level, code, name, parent_level, parent_code FROM fr_zone_names WHERE level = $1 AND code = $2', ['sublocality_level2', code]);
      await warehouse.query('SELECT level, code, name, parent_level, parent_code FROM fr_zone_names WHERE level = $1 AND code = $2', ['locality', code.slice(0, 5)]);
      names.push(performance.now() - t);
    }
    // The report's residents at a point of each IRIS (zones as data.location gives them).
    const resolver: number[] = [];
    const deps = { warehouse, manifests, clock: { now: () => new Date() } } as unknown as Parameters<typeof frResidents.report>[0];
    for (const code of codes) {
      const zones = Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, null])) as Zones;
      zones.sublocality_level2 = { level: 'sublocality_level2', code, name: null };
      zones.locality = { level: 'locality', code: code.slice(0, 5), name: null };
      zones.administrative_area_level2 = { level: 'administrative_area_level2', code: code.slice(0, 2), name: null };
      t = performance.now();
      const answer = await frResidents.report(deps, { country: 'fr', location: { zones } as Location, locale: 'fr', fields: [] });
      resolver.push(performance.now() - t);
      answers.push(JSON.stringify(answer));
    }
    const build = indexBuildTimes(warehouse).find((b) => b.index === 'zone_values' && b.country === 'fr');
    global.gc?.();
    const memory = process.memoryUsage();
    await app.close();
    await warehouse.close();
    return {
      zone_route: stats(route), report_residents: stats(resolver), zone_names_two_lookups: stats(names), answers,
      rss_after_build_mb, rss_after_queries_mb: Math.round(memory.rss / 1e6), array_buffers_mb: Math.round(memory.arrayBuffers / 1e6),
      index: index ? {
        build_s, index_build_seconds: build ? +build.seconds.toFixed(2) : null, values: index.size, zones: index.zones,
        mb: +(index.bytes / 1e6).toFixed(1), bytes_per_value: +(index.bytes / index.size).toFixed(2), rss_before_app_mb: Math.round(rssBefore / 1e6),
      } : null,
    };
  };
  const sqlPath = await measure(false);
  const indexed = await measure(true);
  // The zone routes' bodies, then the report's residents, the same by both paths.
  if (sqlPath.answers.some((a, i) => a !== indexed.answers[i])) throw new Error('the zone route or the report\'s residents differ between the DuckDB path and the index');
  const rss_mb = Math.round(process.memoryUsage().rss / 1e6);
  if (!keep) await rm(root, { recursive: true, force: true });
  const duckStats = stats(duck);
  const ratio = (x: { p50_ms: number }) => +(x.p50_ms / duckStats.p50_ms).toFixed(3);
  return {
    zone_values: n, iris: irisCount, generate_s, queries, load_average_start: loadStart, load_average_end: loadavg().map((x) => +x.toFixed(2)),
    duckdb_point_query: duckStats,
    duckdb_path: { zone_route: sqlPath.zone_route, report_residents: sqlPath.report_residents, rss_after_queries_mb: sqlPath.rss_after_queries_mb, array_buffers_mb: sqlPath.array_buffers_mb },
    index_path: {
      zone_route: indexed.zone_route, report_residents: indexed.report_residents, zone_names_two_lookups: indexed.zone_names_two_lookups,
      rss_after_build_mb: indexed.rss_after_build_mb, rss_after_queries_mb: indexed.rss_after_queries_mb, array_buffers_mb: indexed.array_buffers_mb, ...indexed.index,
    },
    ratio_to_duckdb_p50: {
      route_duckdb_path: ratio(sqlPath.zone_route), residents_duckdb_path: ratio(sqlPath.report_residents),
      route_index: ratio(indexed.zone_route), residents_index: ratio(indexed.report_residents),
    },
    same_answers: true,
    // RSS of the whole process at the end (the baseline's DuckDB closed before the apps opened).
    rss_mb,
  };
}

/**
 * The memory of a process holding the zone-values index alone: a fresh process opens the
 * warehouse of `dataDir` (the tables of `zones --keep DIR`), builds the index and waits for
 * DuckDB to hand back its sort memory. Run with --expose-gc for RSS after a collection.
 */
export async function benchZonesMemory(dataDir: string) {
  const mb = (x: number) => Math.round(x / 1e6);
  const settle = async () => { global.gc?.(); await sleep(5000); global.gc?.(); return process.memoryUsage(); };
  const load_average_start = loadavg().map((x) => +x.toFixed(2));
  const start = await settle();
  const warehouse = await openLocationWarehouse(dataDir);
  const opened = await settle();
  let t = performance.now();
  const index = await zoneValuesIndexReady(warehouse, 'fr', 'zone_values');
  if (!index) throw new Error(`no zone-values index built from ${dataDir}`);
  const build_s = +((performance.now() - t) / 1000).toFixed(2);
  const built = process.memoryUsage();
  const settled = await settle();
  // Every zone once, so that whatever an answer allocates is counted.
  t = performance.now();
  let rows = 0;
  for (const code of (await warehouse.query<{ code: string }>('SELECT DISTINCT code FROM fr_zone_values')).map((r) => r.code)) rows += index.valuesOfZones([{ level: 'sublocality_level2', code }]).length;
  const all_zones_s = +((performance.now() - t) / 1000).toFixed(2);
  const answered = await settle();
  await warehouse.close();
  return {
    load_average_start, load_average_end: loadavg().map((x) => +x.toFixed(2)),
    values: index.size, zones: index.zones, index_mb: +(index.bytes / 1e6).toFixed(1), bytes_per_value: +(index.bytes / index.size).toFixed(2), build_s,
    rss_mb: { start: mb(start.rss), warehouse_opened: mb(opened.rss), right_after_build: mb(built.rss), settled_after_build: mb(settled.rss), after_every_zone_read: mb(answered.rss) },
    heap_used_mb: mb(answered.heapUsed), array_buffers_mb: mb(answered.arrayBuffers), rows_read: rows, all_zones_s,
  };
}
