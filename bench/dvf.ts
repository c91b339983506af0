import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { benchApp } from './app.ts';
import { systemClock } from '../api/core/clock.ts';
import { frMarket } from '../api/location/domains/market/fr.ts';
import { salesIndexReady } from '../api/location/domains/market/sales-index.ts';
import { isInCountry } from '../api/location/coverage/index.ts';
import { ZONE_LEVEL_ORDER, type Zones } from '../schemas/zone.ts';
import { SALE_COLUMNS } from '../schemas/tables/sales.ts';
import { ingestDvf } from '../ingest/fr/dvf.ts';
import { DVF_GEO_HEADER } from '../ingest/fr/dvf-lines.ts';
import { indicatorsSelect } from '../ingest/fr/dvf-indicators.ts';
import { recordPartition } from '../ingest/core/manifest.ts';
import { registerIngestFunctions } from '../ingest/core/vector-functions.ts';
import type { JobContext } from '../ingest/core/job.ts';
import { rng } from './generate.ts';

const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
const ctxFor = (dataDir: string): JobContext => ({ dataDir, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: devNull });
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (lat: number[], seconds: number) => {
  const s = [...lat].sort((a, b) => a - b);
  return { queries: s.length, per_s: Math.round(s.length / seconds), p50_ms: +percentile(s, 50).toFixed(2), p99_ms: +percentile(s, 99).toFixed(2) };
};

/**
 * Metropolitan areas where sales concentrate: [lat, lng, weight, spread in km, department, region].
 * Alsace-Moselle has no published sales and is left out, as in DVF.
 */
const CITIES: [number, number, number, number, string, string][] = [
  [48.8566, 2.3522, 8, 9, '75', '11'], [45.764, 4.8357, 2.5, 7, '69', '84'], [43.2965, 5.3698, 2.5, 7, '13', '93'], [43.6047, 1.4442, 2, 7, '31', '76'],
  [43.7102, 7.262, 1.5, 6, '06', '93'], [47.2184, -1.5536, 1.5, 6, '44', '52'], [43.6108, 3.8767, 1.3, 6, '34', '76'], [44.8378, -0.5792, 2, 7, '33', '75'],
  [50.6292, 3.0573, 2, 7, '59', '32'], [48.1173, -1.6778, 1.2, 5, '35', '53'], [49.2583, 4.0317, 0.7, 4, '51', '44'], [43.1242, 5.928, 0.9, 5, '83', '93'],
  [45.1885, 5.7245, 1, 5, '38', '84'], [47.322, 5.0415, 0.6, 4, '21', '27'], [47.4784, -0.5632, 0.6, 4, '49', '52'], [43.8367, 4.3601, 0.6, 4, '30', '76'],
  [45.7772, 3.087, 0.6, 4, '63', '84'], [49.4944, 0.1079, 0.5, 4, '76', '28'], [47.3941, 0.6848, 0.6, 4, '37', '24'], [45.8336, 1.2611, 0.4, 4, '87', '75'],
  [49.894, 2.2958, 0.4, 4, '80', '32'], [42.6887, 2.8948, 0.5, 4, '66', '76'], [47.9029, 1.9093, 0.5, 4, '45', '24'], [49.4432, 1.0999, 0.7, 4, '76', '28'],
  [49.1829, -0.3707, 0.5, 4, '14', '28'], [48.3904, -4.4861, 0.4, 4, '29', '53'], [48.0061, 0.1996, 0.4, 4, '72', '52'], [43.2951, -0.3708, 0.3, 3, '64', '75'],
  [46.1603, -1.1511, 0.4, 4, '17', '75'], [43.9493, 4.8055, 0.4, 4, '84', '93'], [45.8992, 6.1294, 0.5, 4, '74', '84'], [43.4929, -1.4748, 0.4, 4, '64', '75'],
  [45.4397, 4.3872, 0.5, 4, '42', '84'], [47.2378, 6.0241, 0.3, 3, '25', '27'], [46.5802, 0.3404, 0.3, 3, '86', '75'],
];

/** The metro areas, then 300 small-town centres spread over metropolitan France (45 % of the sales), outside Alsace-Moselle. */
export function areas(): [number, number, number, number, string, string][] {
  const rand = rng(2026);
  const out = [...CITIES];
  const urban = CITIES.reduce((s, c) => s + c[2], 0);
  for (let i = 0; i < 300;) {
    const lat = 42.6 + rand() * (50.9 - 42.6), lng = -4.5 + rand() * (7.6 + 4.5);
    if (!isInCountry('fr', lng, lat)) continue;
    if (lng > 5.9 && lat > 47.4 && lat < 49.6) continue; // Alsace-Moselle: no published sales
    // Department of the nearest metro area: partitions stay compact in space, as real departments are.
    const near = CITIES.reduce((b, c) => ((c[0] - lat) ** 2 + (c[1] - lng) ** 2 < (b[0] - lat) ** 2 + (b[1] - lng) ** 2 ? c : b));
    out.push([lat, lng, (urban * 45) / 55 / 300, 10, near[4], near[5]]);
    i++;
  }
  return out;
}

/**
 * A national-scale `sales` table written straight by DuckDB (the CSV path is measured apart):
 * positions drawn around the areas above (Gaussian, spread per area), dates over six years,
 * 60 % apartments, 30 % houses, 10 % other sales; sorted by cell like the job's output.
 */
export async function generateSales(dataDir: string, rows: number): Promise<void> {
  const list = areas();
  const total = list.reduce((s, a) => s + a[2], 0);
  const slots: number[] = [];
  list.forEach((a, i) => { for (let k = 0; k < Math.round((a[2] / total) * 10_000); k++) slots.push(i); });
  const db = await DuckDBInstance.create(join(dataDir, '..', 'gen.duckdb'), { memory_limit: '4GB', temp_directory: join(dataDir, '..', 'spill') });
  const c = await db.connect();
  registerIngestFunctions(c);
  // Price levels per m²: Paris, the other metro areas, small towns.
  const level = (i: number) => (i === 0 ? 10_500 : i < CITIES.length ? 3_600 : 1_900);
  await c.run(`CREATE TABLE areas AS SELECT * FROM (VALUES ${list.map((a, i) => `(${i}, ${a[0]}, ${a[1]}, ${a[3]}, '${a[4]}', '${a[5]}', ${level(i)})`).join(', ')}) t(idx, lat, lng, sigma, dep, region, level)`);
  await c.run(`CREATE TABLE slots AS SELECT * FROM (VALUES ${slots.map((s, i) => `(${i}, ${s})`).join(', ')}) t(slot, idx)`);
  const u = (k: number) => `((hash(i * 8 + ${k}) % 1000000) + 0.5) / 1000000.0`;
  await c.run(`CREATE TABLE g AS SELECT i, (hash(i * 8) % ${slots.length})::INTEGER AS slot, ${u(1)} AS u1, ${u(2)} AS u2, ${u(3)} AS u3, ${u(4)} AS u4, ${u(5)} AS u5 FROM range(${rows}) t(i)`);
  const columns: Record<keyof typeof SALE_COLUMNS, string> = {
    id: `'b-' || i`, date: `DATE '2020-01-01' + CAST(floor(u3 * 2000) AS INTEGER)`, nature: `'Vente'`, market_sale: 'true', price: 'round(surface * ppm, -2)',
    property_type: `CASE WHEN u4 < 0.6 THEN 'apartment' WHEN u4 < 0.9 THEN 'house' ELSE 'other' END`, dwellings: `CASE WHEN u4 < 0.9 THEN 1 ELSE 0 END`,
    surface: 'surface', rooms: 'CAST(surface / 22 AS INTEGER) + 1', price_per_m2: `CASE WHEN u4 < 0.9 THEN round(surface * ppm, -2) / surface END`,
    land_surface: `CASE WHEN u4 >= 0.6 THEN 300 + u5 * 2000 END`, outbuildings: '0', parcels: `dep || '001000AB' || lpad(CAST(i % 10000 AS VARCHAR), 4, '0')`, lots: 'NULL', carrez_area: 'NULL', units: 'NULL',
    address: `CAST(1 + i % 120 AS VARCHAR) || ' RUE DU BENCH ' || dep`, commune_code: `dep || lpad(CAST(idx % 1000 AS VARCHAR), 3, '0')`, arrondissement_code: 'NULL',
    department_code: 'dep', region_code: 'region', iris_code: 'NULL', longitude: 'lng2', latitude: 'lat2', position_source: `'parcel'`, cell: 'h3_cell(lat2, lng2)', source: `'bench'`,
  };
  await mkdir(join(dataDir, 'tables', 'sales', 'country=fr'), { recursive: true });
  // One file per department, each sorted by cell, as fr.dvf publishes (one partition per input file):
  // a radius query opens only the files whose cell statistics overlap it.
  const parts = join(dataDir, '..', 'parts');
  await c.run(`COPY (WITH p AS (SELECT g.*, a.*, a.lat + sqrt(-2 * ln(u1)) * sin(2 * pi() * u2) * a.sigma / 111.0 AS lat2,
      a.lng + sqrt(-2 * ln(u1)) * cos(2 * pi() * u2) * a.sigma / (111.0 * cos(radians(a.lat))) AS lng2,
      CASE WHEN u4 < 0.6 THEN 20 + u5 * 80 ELSE 70 + u5 * 110 END AS surface, a.level * (0.75 + 0.5 * u1) AS ppm
      FROM g JOIN slots USING (slot) JOIN areas a USING (idx))
    SELECT ${Object.entries(columns).map(([k, e]) => `CAST(${e} AS ${SALE_COLUMNS[k as keyof typeof SALE_COLUMNS]}) AS ${k}`).join(', ')} FROM p ORDER BY cell)
    TO '${parts}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192, PARTITION_BY (department_code), WRITE_PARTITION_COLUMNS true)`);
  for (const dir of await readdir(parts)) {
    const files = (await readdir(join(parts, dir))).filter((f) => f.endsWith('.parquet'));
    // Written in cell order by the sorted query; re-sorted here in case a partition got several files.
    await c.run(`COPY (SELECT * FROM read_parquet([${files.map((f) => `'${join(parts, dir, f)}'`).join(', ')}]) ORDER BY cell)
      TO '${join(dataDir, 'tables', 'sales', 'country=fr', `bench-${dir.split('=')[1]}.parquet`)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192)`);
  }
  await rm(parts, { recursive: true, force: true });
  c.closeSync(); db.closeSync();
}

/** The same rows in PostgreSQL + PostGIS: geography points with a GiST index. */
async function loadPostgis(dataDir: string, url: string): Promise<{ load_s: number; index_s: number }> {
  const csv = join(dataDir, '..', 'sales.csv');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT id, date, property_type, surface, rooms, price, price_per_m2, parcels, address, longitude, latitude FROM '${join(dataDir, 'tables/sales/country=fr/*.parquet')}') TO '${csv}' (HEADER false)`);
  c.closeSync(); db.closeSync();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await client.query('DROP TABLE IF EXISTS bench_sales_staging, bench_sales');
    await client.query('CREATE UNLOGGED TABLE bench_sales_staging (id text, date date, property_type text, surface float8, rooms int, price float8, price_per_m2 float8, parcels text, address text, lng float8, lat float8)');
    let t = performance.now();
    const r = spawnSync('psql', [url, '-c', `\\copy bench_sales_staging FROM '${csv}' WITH (FORMAT csv)`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    await client.query(`CREATE UNLOGGED TABLE bench_sales AS SELECT id, date, property_type, surface, rooms, price, price_per_m2, parcels, address,
      ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography AS geog FROM bench_sales_staging`);
    await client.query('DROP TABLE bench_sales_staging');
    const load = (performance.now() - t) / 1000;
    t = performance.now();
    await client.query('CREATE INDEX bench_sales_geog ON bench_sales USING gist (geog)');
    await client.query('ANALYZE bench_sales');
    return { load_s: +load.toFixed(1), index_s: +((performance.now() - t) / 1000).toFixed(1) };
  } finally {
    await client.end();
    await rm(csv, { force: true });
  }
}

/**
 * Report latency on a national-scale generated `sales` table (`sales` rows), over random
 * positions drawn where sales are, against the same radius queries (counts per type, median
 * of the window, ten nearest) on PostGIS with a GiST index, in the same run.
 */
export async function benchDvfReport(sales: number, queries: number, radius: number, postgisUrl: string | null) {
  const root = await mkdtemp(join(tmpdir(), 'bench-dvf-'));
  const dataDir = join(root, 'data');
  try {
    let t = performance.now();
    await generateSales(dataDir, sales);
    const generate_s = +((performance.now() - t) / 1000).toFixed(1);
    // market_indicators over the national table, as the job computes it.
    t = performance.now();
    const db = await DuckDBInstance.create(join(root, 'ind.duckdb'), { memory_limit: '4GB', temp_directory: join(root, 'spill2') });
    const c = await db.connect();
    await mkdir(join(dataDir, 'tables', 'market_indicators', 'country=fr'), { recursive: true });
    await c.run(`COPY (${indicatorsSelect(`read_parquet('${join(dataDir, 'tables/sales/country=fr/*.parquet')}')`)}) TO '${join(dataDir, 'tables/market_indicators/country=fr/all.parquet')}' (FORMAT parquet)`);
    c.closeSync(); db.closeSync();
    const indicators_s = +((performance.now() - t) / 1000).toFixed(1);
    for (const table of ['sales', 'market_indicators']) {
      await recordPartition(dataDir, 'fr', { table, partition: 'all', file: `${table}/*.parquet`, job: 'bench', sources: [], rows: sales, rejects: 0, rejects_file: null, imported_at: new Date().toISOString(), schema_version: 1, sha256: '' });
    }
    const appStart = performance.now();
    const { app, key, sql, warehouse, manifests } = await benchApp(dataDir);
    // The radius index the app starts building at load: measured once it is ready (until then the SQL path answers).
    const index = await salesIndexReady(warehouse);
    const radius_index = index
      ? { build_s: +((performance.now() - appStart) / 1000).toFixed(1), sales: index.size, mb: Math.round(index.bytes / 1e6), bytes_per_sale: +(index.bytes / index.size).toFixed(1),
          process_rss_mb: Math.round(process.memoryUsage().rss / 1e6) }
      : null;
    // Positions where people ask: near a sale (reservoir sample), moved up to about 300 m.
    const rand = rng(11);
    const points = (await warehouse.query<{ latitude: number; longitude: number }>(`SELECT latitude, longitude FROM fr_sales USING SAMPLE ${Math.ceil(queries * 1.2)} ROWS (reservoir, 7)`))
      .map((p) => ({ lat: +(p.latitude + (rand() - 0.5) * 0.005).toFixed(6), lng: +(p.longitude + (rand() - 0.5) * 0.007).toFixed(6) }))
      // A generated sale near the coast may fall in the sea: ask only inside France, as clients do.
      .filter((p) => isInCountry('fr', p.lng, p.lat)).slice(0, queries);
    // PostGIS loaded first, then the three measured side by side, point by point in rotating
    // order, so the load of a shared machine weighs on each alike.
    const postgisLoad = postgisUrl ? await loadPostgis(dataDir, postgisUrl) : null;
    const client = postgisUrl ? new pg.Client({ connectionString: postgisUrl }) : null;
    await client?.connect();
    const [w] = await warehouse.query<{ s: string; e: string }>(`SELECT strftime(min(period_start), '%Y-%m-%d') AS s, strftime(max(period_end), '%Y-%m-%d') AS e FROM fr_market_indicators WHERE period = '24m'`);
    const zones = Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, null])) as Zones;
    const runners: Record<'report' | 'market_core' | 'postgis', (p: { lat: number; lng: number }) => Promise<number>> = {
      report: async (p) => {
        const res = await app.inject({ method: 'GET', url: `/api/v1/fr/report?lat=${p.lat}&lng=${p.lng}&include=market&radius=${radius}`, headers: { authorization: `Bearer ${key}` } });
        if (res.statusCode !== 200) throw new Error(res.body.slice(0, 300));
        return (res.json() as { data: { market: { sales_nearby: { count: number } | null } } }).data.market.sales_nearby?.count ?? 0;
      },
      market_core: async (p) => (await frMarket({ warehouse, manifests, clock: systemClock }, { ...p, zones, parcelId: null, radius, propertyType: undefined, locale: 'fr', property: { id: null, reason: 'not_found' } })).market.sales_nearby?.count ?? 0,
      postgis: async (p) => {
        const point = `ST_SetSRID(ST_MakePoint(${p.lng}, ${p.lat}), 4326)::geography`;
        const stats = await client!.query(`SELECT property_type, count(*) AS n,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY price_per_m2) FILTER (WHERE price_per_m2 IS NOT NULL AND date BETWEEN $1 AND $2) AS median,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY price_per_m2) FILTER (WHERE price_per_m2 IS NOT NULL AND date BETWEEN $1 AND $2) AS q1,
            percentile_cont(0.75) WITHIN GROUP (ORDER BY price_per_m2) FILTER (WHERE price_per_m2 IS NOT NULL AND date BETWEEN $1 AND $2) AS q3
          FROM bench_sales WHERE ST_DWithin(geog, ${point}, ${radius}) GROUP BY property_type`, [w!.s, w!.e]);
        await client!.query(`SELECT id, date, address, property_type, surface, rooms, price, price_per_m2, parcels, ST_Distance(geog, ${point}) AS d
          FROM bench_sales WHERE ST_DWithin(geog, ${point}, ${radius}) ORDER BY d, date DESC, id LIMIT 10`);
        return stats.rows.reduce((n, r) => n + Number(r.n), 0);
      },
    };
    const names = (Object.keys(runners) as (keyof typeof runners)[]).filter((n) => n !== 'postgis' || client);
    for (const p of points.slice(0, 20)) for (const n of names) await runners[n](p); // warm-up: file footers, caches
    const lat = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<string, number[]>;
    const busy = Object.fromEntries(names.map((n) => [n, 0])) as Record<string, number>;
    let found = 0, diff = 0;
    for (let i = 0; i < points.length; i++) {
      const counts: Record<string, number> = {};
      for (let j = 0; j < names.length; j++) {
        const n = names[(i + j) % names.length]!;
        const t1 = performance.now();
        counts[n] = await runners[n](points[i]!);
        const ms = performance.now() - t1;
        lat[n]!.push(ms); busy[n]! += ms;
      }
      found += counts.report!;
      if (client) diff += Math.abs(counts.report! - counts.postgis!);
    }
    const result = Object.fromEntries(names.map((n) => [n, summary(lat[n]!, busy[n]! / 1000)]));
    if (client) { await client.query('DROP TABLE bench_sales'); await client.end(); }
    await app.close(); await warehouse.close(); await sql.close();
    let size = 0;
    const salesFiles = (await readdir(join(dataDir, 'tables/sales/country=fr'))).filter((f) => f.endsWith('.parquet'));
    for (const f of salesFiles) size += (await stat(join(dataDir, 'fr/sales', f))).size;
    return {
      sales, sales_files: salesFiles.length, parquet_mb: Math.round(size / 1e6), radius_m: radius, generate_s, indicators_s, radius_index,
      queries: points.length, mean_sales_in_radius: Math.round(found / points.length), ...result, postgis_load: postgisLoad,
      // PostGIS measures on the spheroid, the service on a sphere: counts differ at the rim.
      count_difference_share: client ? +(diff / Math.max(1, found)).toFixed(4) : null,
      report_to_postgis_p50: client ? +(result.report!.p50_ms / result.postgis!.p50_ms).toFixed(2) : null,
      core_to_postgis_p50: client ? +(result.market_core!.p50_ms / result.postgis!.p50_ms).toFixed(2) : null,
      report_p99_to_p50: +(result.report!.p99_ms / result.report!.p50_ms).toFixed(2),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** A geolocated-DVF-shaped file: mutations of 1 to 3 lines (a flat and its cellar, a house on two parcels). */
async function generateDvfCsv(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  const rand = rng(5);
  out.write(`${DVF_GEO_HEADER.join(',')}\n`);
  let written = 0, m = 0;
  while (written < lines) {
    m++;
    const city = CITIES[Math.floor(rand() * CITIES.length)]!;
    const lat = city[0] + (rand() - 0.5) * 0.2, lng = city[1] + (rand() - 0.5) * 0.3;
    const house = rand() < 0.35;
    const price = Math.round((house ? 150_000 : 90_000) + rand() * 400_000);
    const commune = `${city[4]}${String(100 + (m % 400)).padStart(3, '0')}`;
    const parcel = `${commune}000AB${String(m % 10000).padStart(4, '0')}`;
    const base = { id_mutation: `2024-${m}`, date_mutation: `2024-${String(1 + (m % 12)).padStart(2, '0')}-${String(1 + (m % 28)).padStart(2, '0')}`, numero_disposition: '000001', nature_mutation: 'Vente',
      valeur_fonciere: String(price), adresse_numero: String(1 + (m % 90)), adresse_nom_voie: 'RUE DE LA GARE', adresse_code_voie: 'B012', code_postal: `${city[4]}000`, code_commune: commune,
      nom_commune: 'Commune', code_departement: city[4], id_parcelle: parcel, longitude: lng.toFixed(6), latitude: lat.toFixed(6) } as Record<string, string>;
    const locals = house
      ? [{ code_type_local: '1', type_local: 'Maison', surface_reelle_bati: String(70 + Math.floor(rand() * 100)), nombre_pieces_principales: '4', code_nature_culture: 'S', nature_culture: 'sols', surface_terrain: String(300 + Math.floor(rand() * 900)) },
         { code_type_local: '3', type_local: 'Dépendance', nombre_pieces_principales: '0', code_nature_culture: 'S', nature_culture: 'sols', surface_terrain: '500' }]
      : [{ code_type_local: '2', type_local: 'Appartement', surface_reelle_bati: String(20 + Math.floor(rand() * 80)), nombre_pieces_principales: '2', lot1_numero: String(m % 300), lot1_surface_carrez: '40.5', nombre_lots: '1' }];
    if (!house && rand() < 0.4) locals.push({ code_type_local: '3', type_local: 'Dépendance', nombre_pieces_principales: '0', lot1_numero: String(300 + (m % 300)), nombre_lots: '1' } as never);
    for (const l of locals) {
      const row = { ...base, ...l } as Record<string, string>;
      if (!out.write(`${DVF_GEO_HEADER.map((c) => row[c] ?? '').join(',')}\n`)) await new Promise<void>((r) => { out.once('drain', () => r()); });
      written++;
    }
  }
  await new Promise<void>((r) => { out.end(() => r()); });
}

/** fr.dvf on one generated file against DuckDB's own read_csv -> Parquet COPY of it, in the same process. */
export async function benchDvfIngest(lines: number) {
  const root = await mkdtemp(join(tmpdir(), 'bench-dvf-ingest-'));
  try {
    const file = join(root, '2024', 'departements', '99.csv');
    await mkdir(join(root, '2024', 'departements'), { recursive: true });
    await generateDvfCsv(file, lines);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    let t = performance.now();
    await c.run(`COPY (SELECT * FROM read_csv('${file}', header = true, all_varchar = true)) TO '${join(root, 'baseline.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
    const baseline = (performance.now() - t) / 1000;
    c.closeSync(); db.closeSync();
    t = performance.now();
    const [sales, indicators] = await ingestDvf(ctxFor(join(root, 'data')), [{ path: file }]);
    const job = (performance.now() - t) / 1000;
    return {
      lines, mb: +((await stat(file)).size / 1e6).toFixed(1), sales: sales!.rows, indicator_rows: indicators!.rows,
      baseline_lines_per_s: Math.round(lines / baseline), job_lines_per_s: Math.round(lines / job), ratio: +(baseline / job).toFixed(3),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
