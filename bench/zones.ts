import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { frResidents } from '../api/location/domains/residents/fr.ts';
import type { Location } from '../schemas/location.ts';
import { ZONE_LEVEL_ORDER, type Zones } from '../schemas/zone.ts';
import { benchApp } from './app.ts';

/**
 * Issue 14's zone statistics at national scale: every French IRIS (about 50,000, in communes of
 * ~96 departments), 30 indicators, 5 yearly editions (7.5 M zone values), as Parquet in the
 * table's own layout. Measured in the same run: the zone route (`include=residents`) through the
 * server and the report's residents resolver, against a DuckDB point query on the same files.
 */
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const stats = (ms: number[]) => { const s = [...ms].sort((a, b) => a - b); return { p50_ms: +pct(s, 50).toFixed(2), p99_ms: +pct(s, 99).toFixed(2) }; };

export async function benchZones(irisCount: number, queries: number) {
  const root = await mkdtemp(join(tmpdir(), 'bench-zones-'));
  const dataDir = join(root, 'data');
  await mkdir(join(dataDir, 'tables', 'zone_values', 'country=fr'), { recursive: true });
  await mkdir(join(dataDir, 'tables', 'zones', 'country=fr'), { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // IRIS i: department 1 + i % 95, commune 3 digits, IRIS 4 digits; 30 indicators (the two served first), 5 years.
  const iris = `SELECT i, lpad(CAST(1 + i % 95 AS VARCHAR), 2, '0') AS dep, lpad(CAST((i // 95) % 700 AS VARCHAR), 3, '0') AS com,
    lpad(CAST(i // 66500 AS VARCHAR), 2, '0') || lpad(CAST(i % 100 AS VARCHAR), 2, '0') AS n FROM range(${irisCount}) t(i)`;
  let t = performance.now();
  await c.run(`COPY (
    SELECT 'sublocality_level2' AS level, dep || com || n AS code,
      CASE k WHEN 0 THEN 'income.median_disposable_per_unit' WHEN 1 THEN 'income.poverty_rate' ELSE 'bench.indicator_' || k END AS indicator,
      NULL::VARCHAR AS breakdown, make_date(2017 + y, 1, 1) AS period_start, make_date(2017 + y, 12, 31) AS period_end,
      CASE WHEN (i * 31 + k) % 97 = 0 THEN NULL ELSE 15000 + (i * 7919 + k * 104729 + y * 613) % 30000 END::DOUBLE AS value,
      CASE k WHEN 1 THEN '%' ELSE 'EUR/year' END AS unit, NULL::INTEGER AS sample_size,
      CASE (i + k) % 3 WHEN 0 THEN 'high' WHEN 1 THEN 'medium' ELSE 'low' END AS reliability,
      NULL::DOUBLE AS range_low, NULL::DOUBLE AS range_high, (i * 31 + k) % 97 = 0 AS suppressed,
      'fr.filosofi' AS source, make_date(2019 + y, 9, 1) AS published_on
    FROM (${iris}) z, range(30) a(k), range(5) b(y) ORDER BY code, indicator, period_start
  ) TO '${join(dataDir, 'tables', 'zone_values', 'country=fr', 'fr.filosofi.bench.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  // The zones table (names and parents) the zone route reads; outlines are tiny squares.
  await c.run(`COPY (
    SELECT 'sublocality_level2' AS level, dep || com || n AS code, 'IRIS ' || (dep || com || n) AS name, 'locality' AS parent_level, dep || com AS parent_code,
      0.0 AS min_lng, 0.0 AS min_lat, 0.001 AS max_lng, 0.001 AS max_lat,
      '{"type":"Polygon","coordinates":[[[0,0],[0.001,0],[0.001,0.001],[0,0.001],[0,0]]]}' AS geometry,
      '{"type":"Polygon","coordinates":[[[0,0],[0.001,0],[0.001,0.001],[0,0.001],[0,0]]]}' AS geometry_simplified, 'bench' AS source
    FROM (${iris}) z ORDER BY code
  ) TO '${join(dataDir, 'tables', 'zones', 'country=fr', 'bench.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  const generate_s = +((performance.now() - t) / 1000).toFixed(1);
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

  const { app, key, warehouse, manifests } = await benchApp(dataDir);
  // The zone route through the server.
  const route: number[] = [];
  for (const code of codes) {
    t = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/v1/fr/zones/sublocality_level2/${code}?include=residents`, headers: { authorization: `Bearer ${key}` } });
    route.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`zone route answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
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
    await frResidents.report(deps, { country: 'fr', location: { zones } as Location, locale: 'fr', fields: [] });
    resolver.push(performance.now() - t);
  }
  const rss_mb = Math.round(process.memoryUsage().rss / 1e6);
  await app.close();
  warehouse.close();
  await rm(root, { recursive: true, force: true });
  const duckStats = stats(duck), routeStats = stats(route), resolverStats = stats(resolver);
  return {
    zone_values: n, iris: irisCount, generate_s, queries,
    duckdb_point_query: duckStats, zone_route: routeStats, report_residents: resolverStats,
    ratio_route_to_duckdb_p50: +(routeStats.p50_ms / duckStats.p50_ms).toFixed(2),
    ratio_residents_to_duckdb_p50: +(resolverStats.p50_ms / duckStats.p50_ms).toFixed(2),
    // RSS of the whole process after the run (the baseline's DuckDB closed before the app opened).
    rss_mb,
  };
}
