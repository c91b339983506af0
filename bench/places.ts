import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { benchApp } from './app.ts';
import { areas } from './dvf.ts';
import { rng } from './generate.ts';
import { systemClock } from '../api/core/clock.ts';
import { pointsAround, pointsIndexReady } from '../api/location/kinds/points.ts';
import { mergeDuplicates } from '../api/location/domains/places/merge.ts';
import { toPlace } from '../api/location/domains/places/place.ts';
import { groupOf, PLACE_GROUP_CODES } from '../schemas/categories.ts';
import { accessAt } from '../api/location/domains/access/resolve.ts';
import { categoriesIngested, incompleteGroups, placesAt } from '../api/location/domains/places/resolve.ts';
import type { LocationRouteDeps } from '../api/location/domains/types.ts';
import { POINT_COLUMNS } from '../schemas/tables/points.ts';
import { recordPartition } from '../ingest/core/manifest.ts';
import { registerIngestFunctions } from '../ingest/core/vector-functions.ts';
import { partitionFile, partitionPath, tableDir, tableGlob } from '../schemas/tables/layout.ts';
import { TABLE_SCHEMA_VERSION } from '../schemas/tables/manifest.ts';

/**
 * Places and access at a national scale (issue 16): a generated France places table of `equipment`
 * BPE-like points (schools, health, shops: no names, as the BPE) and `stops` transit stops (names,
 * one line each; 1 % train stations), plus 150 airports and 3,000 motorway accesses, drawn around the
 * metro areas and small towns of the dvf bench. Queries at positions near random points, measured
 * point by point in rotating order: the places and access cores of the service (the in-memory
 * points index) and PostGIS answering the same questions on the same rows in the same run.
 */

const EQUIPMENT: [string, number][] = [
  ['school.kindergarten', 4], ['school.primary', 6], ['school.high_school', 3], ['school.training', 2], ['school.university', 1],
  ['health.doctor', 30], ['health.pharmacy', 4], ['health.hospital', 1], ['shop.supermarket', 4], ['shop.convenience', 8], ['shop.bakery', 9], ['shop.butcher', 4],
  ['transport.fuel', 2], ['transport.charging_station', 4],
];
const STOPS: [string, number][] = [['transport.bus', 90], ['transport.tram', 5], ['transport.metro', 4], ['transport.train_station', 1]];

/** A CASE choosing a category by cumulative weight from a uniform u in [0, 1). */
function pick(list: [string, number][], u: string): string {
  const total = list.reduce((s, [, w]) => s + w, 0);
  let acc = 0;
  return `CASE ${list.map(([c, w]) => { acc += w; return `WHEN ${u} < ${acc / total} THEN '${c}'`; }).join(' ')} END`;
}

async function generatePlaces(dataDir: string, equipment: number, stops: number): Promise<number> {
  const list = areas();
  const total = list.reduce((s, a) => s + a[2], 0);
  const slots: number[] = [];
  list.forEach((a, i) => { for (let k = 0; k < Math.round((a[2] / total) * 10_000); k++) slots.push(i); });
  const db = await DuckDBInstance.create(join(dataDir, '..', 'gen.duckdb'), { memory_limit: '3GB', temp_directory: join(dataDir, '..', 'spill') });
  const c = await db.connect();
  registerIngestFunctions(c);
  await c.run(`CREATE TABLE areas AS SELECT * FROM (VALUES ${list.map((a, i) => `(${i}, ${a[0]}, ${a[1]}, ${a[3]})`).join(', ')}) t(idx, lat, lng, sigma)`);
  await c.run(`CREATE TABLE slots AS SELECT * FROM (VALUES ${slots.map((s, i) => `(${i}, ${s})`).join(', ')}) t(slot, idx)`);
  const u = (k: number) => `((hash(i * 8 + ${k}) % 1000000) + 0.5) / 1000000.0`;
  const n = equipment + stops + 150 + 3000;
  await c.run(`CREATE TABLE g AS SELECT i, (hash(i * 8) % ${slots.length})::INTEGER AS slot, ${u(1)} AS u1, ${u(2)} AS u2, ${u(3)} AS u3 FROM range(${n}) t(i)`);
  // Airports and motorway accesses spread wider around their area (sigma x 3).
  const kind = `CASE WHEN i < ${equipment} THEN 'e' WHEN i < ${equipment + stops} THEN 's' WHEN i < ${equipment + stops + 150} THEN 'a' ELSE 'h' END`;
  await mkdir(tableDir(dataDir, 'fr', 'places'), { recursive: true });
  await c.run(`COPY (WITH p AS (SELECT g.*, ${kind} AS kind, a.lat + sqrt(-2 * ln(u1)) * sin(2 * pi() * u2) * a.sigma * (CASE WHEN ${kind} IN ('a', 'h') THEN 3 ELSE 1 END) / 111.0 AS lat2,
      a.lng + sqrt(-2 * ln(u1)) * cos(2 * pi() * u2) * a.sigma * (CASE WHEN ${kind} IN ('a', 'h') THEN 3 ELSE 1 END) / (111.0 * cos(radians(a.lat))) AS lng2
      FROM g JOIN slots USING (slot) JOIN areas a USING (idx))
    SELECT CAST(CASE kind WHEN 'e' THEN 'fr.bpe.' WHEN 's' THEN 'bench.gtfs.' ELSE 'bench.osm.' END || i AS VARCHAR) AS id, h3_cell(lat2, lng2) AS cell, lng2 AS longitude, lat2 AS latitude,
      CAST(CASE kind WHEN 'e' THEN ${pick(EQUIPMENT, 'u3')} WHEN 's' THEN ${pick(STOPS, 'u3')} WHEN 'a' THEN 'transport.airport' ELSE 'transport.highway_access' END AS VARCHAR) AS category,
      CAST(CASE kind WHEN 'e' THEN NULL WHEN 's' THEN 'Arrêt ' || i WHEN 'a' THEN 'Aéroport ' || i ELSE 'Sortie ' || (i % 100) END AS VARCHAR) AS name,
      CAST(CASE kind WHEN 'e' THEN '{"units":1,"types":["X"]}' WHEN 's' THEN '{"lines":[{"short_name":"' || (i % 97) || '","long_name":null,"mode":"bus","color":null}],"lines_published":true}' ELSE NULL END AS VARCHAR) AS attributes,
      CAST(CASE kind WHEN 'e' THEN 'fr.bpe' WHEN 's' THEN 'bench.gtfs' ELSE 'bench.osm' END AS VARCHAR) AS source
    FROM p WHERE h3_cell(lat2, lng2) IS NOT NULL ORDER BY cell)
    TO '${partitionPath(dataDir, 'fr', 'places', 'bench')}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192)`);
  const [[rows]] = (await (await c.run(`SELECT count(*)::INTEGER FROM '${partitionPath(dataDir, 'fr', 'places', 'bench')}'`)).getRows()) as [[number]];
  c.closeSync(); db.closeSync();
  await recordPartition(dataDir, 'fr', { table: 'places', partition: 'bench', file: partitionFile('fr', 'places', 'bench'), job: 'bench', sources: [], rows, rejects: 0, rejects_file: null, imported_at: new Date().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: '' });
  return rows;
}

/** The same rows in PostGIS: geography points, a GiST index, and one partial GiST index per nearest code of access. */
async function loadPostgis(dataDir: string, url: string): Promise<{ load_s: number; index_s: number }> {
  const csv = join(dataDir, '..', 'places.csv');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT id, category, name, longitude, latitude FROM '${tableGlob(dataDir, 'fr', 'places')}') TO '${csv}' (HEADER false)`);
  c.closeSync(); db.closeSync();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await client.query('DROP TABLE IF EXISTS bench_places_staging, bench_places');
    await client.query('CREATE UNLOGGED TABLE bench_places_staging (id text, category text, name text, lng float8, lat float8)');
    let t = performance.now();
    const r = spawnSync('psql', [url, '-c', `\\copy bench_places_staging FROM '${csv}' WITH (FORMAT csv)`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    await client.query(`CREATE UNLOGGED TABLE bench_places AS SELECT id, category, name, ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography AS geog FROM bench_places_staging`);
    await client.query('DROP TABLE bench_places_staging');
    const load = (performance.now() - t) / 1000;
    t = performance.now();
    await client.query('CREATE INDEX bench_places_geog ON bench_places USING gist (geog)');
    for (const [name, where] of NEAREST_SQL) await client.query(`CREATE INDEX bench_places_${name} ON bench_places USING gist (geog) WHERE ${where}`);
    await client.query('ANALYZE bench_places');
    return { load_s: +load.toFixed(1), index_s: +((performance.now() - t) / 1000).toFixed(1) };
  } finally {
    await client.end();
    await rm(csv, { force: true });
  }
}

const NEAREST_SQL: [string, string][] = [
  ['station', `category = 'transport.train_station'`], ['airport', `category = 'transport.airport'`],
  ['highway', `category = 'transport.highway_access'`], ['school', `category LIKE 'school.%'`],
];
const LIST_CATEGORIES = ['transport.train_station', 'transport.airport', 'transport.highway_access', 'transport.fuel', 'transport.charging_station'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchPlaces(equipment: number, stops: number, queries: number, postgisUrl: string | null) {
  const root = await mkdtemp(join(tmpdir(), 'bench-places-'));
  const dataDir = join(root, 'data');
  try {
    let t = performance.now();
    const rows = await generatePlaces(dataDir, equipment, stops);
    const generate_s = +((performance.now() - t) / 1000).toFixed(1);
    const appStart = performance.now();
    const { app, warehouse, manifests } = await benchApp(dataDir);
    const index = await pointsIndexReady(warehouse, 'fr', 'places');
    if (!index) throw new Error('the points index was not built (over its memory budget?)');
    const points_index = {
      build_s: +((performance.now() - appStart) / 1000).toFixed(1), points: index.size, mb: Math.round(index.bytes / 1e6), bytes_per_point: +(index.bytes / index.size).toFixed(1),
      process_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
    };
    const deps = { warehouse, manifests, clock: systemClock } as unknown as LocationRouteDeps;
    const rand = rng(16);
    const positions = (await warehouse.query<{ latitude: number; longitude: number }>(`SELECT latitude, longitude FROM fr_places USING SAMPLE ${queries} ROWS (reservoir, 16)`))
      .map((p) => ({ lat: +(p.latitude + (rand() - 0.5) * 0.005).toFixed(6), lng: +(p.longitude + (rand() - 0.5) * 0.007).toFixed(6) }));
    const postgisLoad = postgisUrl ? await loadPostgis(dataDir, postgisUrl) : null;
    const client = postgisUrl ? new pg.Client({ connectionString: postgisUrl }) : null;
    await client?.connect();
    const point = `ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography`;
    let found = 0, nearestAgree = 0, nearestCompared = 0;
    const lastNearest: Record<string, string | null> = {};
    const runners: Record<string, (p: { lat: number; lng: number }) => Promise<void>> = {
      places: async (p) => { const r = await placesAt(deps, 'fr', { lat: p.lat, lng: p.lng, radius: 1000, page: 1, perPage: 10, region: null }); found += r.value.pagination.total; },
      // Baseline in the same run: the resolver as it was, every point within the radius decoded whole (text and attributes) before the merge.
      places_decode_all: async (p) => {
        const ingested = await categoriesIngested(warehouse, 'fr');
        const merged = mergeDuplicates((await pointsAround(warehouse, 'fr', 'places', { lat: p.lat, lng: p.lng, radiusM: 1000, limit: 1_000_000, offset: 0 })).items);
        const groups = new Set([...ingested].map(groupOf));
        const incomplete = await incompleteGroups(warehouse, 'fr', null);
        const counts: Record<string, number | null> = {};
        for (const g of PLACE_GROUP_CODES) counts[g] = !groups.has(g) || incomplete.has(g) ? null : merged.filter((h) => groupOf(h.category) === g).length;
        merged.slice(0, 10).map(toPlace);
      },
      access: async (p) => { const r = await accessAt(deps, 'fr', { lat: p.lat, lng: p.lng, radius: 1000, region: null }); lastNearest.service = r.value.nearest.station ? `${r.value.nearest.station.distance_m}` : null; },
      postgis_places: async (p) => {
        await client!.query(`SELECT split_part(category, '.', 1) AS g, count(*)::int AS n FROM bench_places WHERE ST_DWithin(geog, ${point}, 1000, false) GROUP BY 1`, [p.lat, p.lng]);
        await client!.query(`SELECT id, category, name, ST_Distance(geog, ${point}, false) AS d FROM bench_places WHERE ST_DWithin(geog, ${point}, 1000, false) ORDER BY geog <-> ${point} LIMIT 10`, [p.lat, p.lng]);
      },
      postgis_access: async (p) => {
        for (const [name, where] of NEAREST_SQL) {
          const r = await client!.query(`SELECT id, ST_Distance(geog, ${point}, false) AS d FROM bench_places WHERE ${where} ORDER BY geog <-> ${point} LIMIT 1`, [p.lat, p.lng]);
          if (name === 'station') lastNearest.postgis = r.rows[0] ? `${Math.round(r.rows[0].d)}` : null;
        }
        await client!.query(`SELECT id, category, name, ST_Distance(geog, ${point}, false) AS d FROM bench_places WHERE ST_DWithin(geog, ${point}, 1000, false) AND category = ANY($3) ORDER BY geog <-> ${point}`, [p.lat, p.lng, LIST_CATEGORIES]);
      },
    };
    const names = Object.keys(runners).filter((n) => client || !n.startsWith('postgis'));
    const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    // Warm-up on other positions, then every position through every runner in rotating order.
    for (const p of positions.slice(0, 20)) for (const n of names) await runners[n]!(p);
    found = 0;
    for (const [i, p] of positions.entries()) {
      for (let k = 0; k < names.length; k++) {
        const n = names[(i + k) % names.length]!;
        t = performance.now();
        await runners[n]!(p);
        times[n]!.push(performance.now() - t);
      }
      // The nearest station's distance: the service's (sphere) and PostGIS's (sphere), whole meters.
      if (client) { nearestCompared++; if (lastNearest.service !== null && lastNearest.postgis !== null && Math.abs(Number(lastNearest.service) - Number(lastNearest.postgis)) <= 1) nearestAgree++; }
    }
    await client?.end();
    await app.close();
    const stats = Object.fromEntries(names.map((n) => { const s = times[n]!.sort((a, b) => a - b); return [n, { p50_ms: +percentile(s, 50).toFixed(2), p99_ms: +percentile(s, 99).toFixed(2) }]; }));
    const ratio = (a: string, b: string) => (stats[a] && stats[b] ? +(stats[a].p50_ms / stats[b].p50_ms).toFixed(2) : null);
    return {
      rows, equipment, stops, generate_s, points_index, postgis_load: postgisLoad, queries: positions.length, mean_places_in_1000m: Math.round(found / positions.length),
      ...stats, places_to_decode_all_p50: ratio('places', 'places_decode_all'), places_to_decode_all_p99: stats.places && stats.places_decode_all ? +(stats.places.p99_ms / stats.places_decode_all.p99_ms).toFixed(2) : null,
      places_to_postgis_p50: ratio('places', 'postgis_places'), access_to_postgis_p50: ratio('access', 'postgis_access'),
      nearest_station_same_distance: client ? `${nearestAgree} / ${nearestCompared}` : null,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
