import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import proj4 from 'proj4';
import { benchApp } from './app.ts';
import { areas } from './dvf.ts';
import { rng } from './generate.ts';
import { systemClock } from '../api/core/clock.ts';
import { isInCountry } from '../api/location/coverage/index.ts';
import { locate } from '../api/location/locate.ts';
import { createZoneLookup } from '../api/location/zones/lookup.ts';
import { createResolvedAddresses } from '../api/location/search/resolved.ts';
import { frRisks } from '../api/location/domains/risks/fr.ts';
import { pointsIndexReady } from '../api/location/kinds/points.ts';
import { AREAS_INDEX_BUDGET, areasIndexOptions, areasIndexReady } from '../api/location/kinds/areas-index.ts';
import type { LocationRouteDeps } from '../api/location/domains/types.ts';
import type { Location } from '../schemas/location.ts';
import type { FrRisks } from '../schemas/risks.ts';
import { ingestClay } from '../ingest/fr/clay.ts';
import { ingestRadon } from '../ingest/fr/radon.ts';
import { ingestSeismic } from '../ingest/fr/seismic.ts';
import { publish, type JobContext } from '../ingest/core/job.ts';
import { Rejects } from '../ingest/core/rejects.ts';
import { ZonesWriter } from '../ingest/core/write-zones.ts';
import { recordPartition } from '../ingest/core/manifest.ts';
import { registerIngestFunctions } from '../ingest/core/vector-functions.ts';
import { partitionFile, partitionPath, tableDir, tableGlob } from '../schemas/tables/layout.ts';
import { TABLE_SCHEMA_VERSION } from '../schemas/tables/manifest.ts';
import type { Source } from '../datasets/source.ts';

/**
 * Risks at a national scale (issue 15). Generated, deterministic, in the producers' layouts and
 * ingested by the real jobs:
 * - clay: BRGM's exposure layer for metropolitan France as Géorisques serves it (a Lambert-93
 *   GeoJSON FeatureCollection, `ID`, `NIVEAU`, `ALEA`: the layout of datasets/fr/clay), read by
 *   `fr.clay` itself. Polygons tile large contiguous clay regions (a smooth field decides where,
 *   about 60 % of the territory as BRGM's map) with a quadtree of squares from 16 km down to
 *   500 m, so the layer mixes a few large polygons with many small ones; every edge carries a
 *   vertex each 100 m moved up to 40 m across it (shared edges move alike: the layer stays a
 *   tiling), so the outlines are detailed as digitised geology is, not four-corner boxes.
 * - communes: squares of 4 km (about 34,000, as many as France's communes) as the zones table,
 *   radon (IRSN's radon.csv, codes of departments 01-09 without their leading zero) and the
 *   seismic zoning by commune.
 * - polluted sites: `sites` points (CASIAS-like former activities, BASOL, SIS) around the metro
 *   areas and towns of the dvf bench, written straight to fr/polluted_sites.
 * Measured point by point in rotating order: the report's risks through the server, the risks
 * resolver alone, and PostGIS (ST_Intersects on clay and ST_Contains on communes with GiST
 * indexes, ST_DWithin on sites) on the same rows in the same run.
 */

const L93 = '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const fromL93 = proj4(L93, 'EPSG:4326');
const X0 = 96_000, Y0 = 6_040_000, BLOCK = 16_000, COLS = 73, ROWS = 68;
const MIN_CELL = 500, STEP = 100, AMP = 40, COMMUNE = 4_000;
const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
const ctxFor = (dataDir: string, share = 0.01): JobContext => ({ dataDir, maxRejectShare: share, now: () => new Date(), log: () => {}, progressOut: devNull });
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const stats = (ms: number[]) => { const s = [...ms].sort((a, b) => a - b); return { p50_ms: +pct(s, 50).toFixed(2), p99_ms: +pct(s, 99).toFixed(2) }; };
const inFrance = (x: number, y: number) => { const [lng, lat] = fromL93.forward([x, y]); return isInCountry('fr', lng!, lat!); };

/** Deterministic offset in [-AMP, AMP] of the edge vertex at lattice point (a, b) of an edge family. */
function wiggle(a: number, b: number, family: number): number {
  let h = Math.imul((a / STEP) | 0, 0x27d4eb2d) ^ Math.imul((b / STEP) | 0, 0x165667b1) ^ Math.imul(family + 1, 0x9e3779b9);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b); h ^= h >>> 13;
  return (((h >>> 0) % 2001) / 1000 - 1) * AMP;
}

/** The outline of square (x, y, size): vertices each STEP, those off the MIN_CELL lattice moved across the edge. */
function outline(x: number, y: number, s: number): number[][] {
  const ring: number[][] = [];
  const n = s / STEP;
  const h = (px: number, py: number) => [px, py + (px % MIN_CELL === 0 ? 0 : wiggle(px, py, 0))]; // on a horizontal edge
  const v = (px: number, py: number) => [px + (py % MIN_CELL === 0 ? 0 : wiggle(py, px, 1)), py]; // on a vertical edge
  for (let k = 0; k < n; k++) ring.push(h(x + k * STEP, y));
  for (let k = 0; k < n; k++) ring.push(v(x + s, y + k * STEP));
  for (let k = 0; k < n; k++) ring.push(h(x + s - k * STEP, y + s));
  for (let k = 0; k < n; k++) ring.push(v(x, y + s - k * STEP));
  ring.push(ring[0]!);
  return ring;
}

/** Smooth field in about [-1, 1] over Lambert-93: where clay is, in regions of tens to hundreds of km. */
const field = (x: number, y: number) =>
  0.5 * Math.sin(x / 61_000 + 1.3) * Math.cos(y / 47_000 - 0.4) + 0.3 * Math.sin((x + y) / 23_000) + 0.2 * Math.cos((x - 2 * y) / 13_000 + 2.1);

/** Quadtree split probability per depth so that the layer holds about `target` polygons. */
function splitProbability(target: number, blocks: number, coverage: number): number {
  const depth = Math.log2(BLOCK / MIN_CELL);
  const leaves = (q: number) => { let l = 1; for (let d = 0; d < depth; d++) l = 1 - q + q * 4 * l; return l; };
  let lo = 0, hi = 1;
  for (let i = 0; i < 50; i++) { const m = (lo + hi) / 2; if (blocks * coverage * leaves(m) < target) lo = m; else hi = m; }
  return (lo + hi) / 2;
}

async function generateClay(path: string, target: number): Promise<{ polygons: number; vertices: number; mb: number }> {
  const blocks: [number, number][] = [];
  for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) {
    const x = X0 + c * BLOCK, y = Y0 + r * BLOCK;
    // A block is France's when a point of its 4 x 4 grid is.
    let any = false;
    for (let i = 0; i < 4 && !any; i++) for (let j = 0; j < 4 && !any; j++) any = inFrance(x + (i + 0.5) * BLOCK / 4, y + (j + 0.5) * BLOCK / 4);
    if (any) blocks.push([x, y]);
  }
  const q = splitProbability(target, blocks.length, 0.6);
  const rand = rng(15);
  const out = createWriteStream(path);
  const write = async (s: string) => { if (!out.write(s)) await once(out, 'drain'); };
  await write('{\n"type": "FeatureCollection",\n"name": "ExpoArgile_Fxx_L93",\n"crs": { "type": "name", "properties": { "name": "urn:ogc:def:crs:EPSG::2154" } },\n"features": [\n');
  let polygons = 0, vertices = 0;
  const leaf = async (x: number, y: number, s: number) => {
    const cx = x + s / 2, cy = y + s / 2;
    if (field(cx, cy) < -0.25 || !inFrance(cx, cy)) return;
    const f = field(cx + 7_000, cy - 11_000) + (rand() - 0.5) * 0.6;
    const niveau = f > 0.35 ? 3 : f > -0.1 ? 2 : 1;
    const ring = outline(x, y, s);
    vertices += ring.length;
    const coords = ring.map(([a, b]) => `[${a!.toFixed(2)},${b!.toFixed(2)}]`).join(',');
    await write(`${polygons > 0 ? ',\n' : ''}{ "type": "Feature", "properties": { "ID": "ARG-${String(polygons + 1).padStart(7, '0')}", "NIVEAU": ${niveau}, "ALEA": "${['Faible', 'Moyen', 'Fort'][niveau - 1]}" }, "geometry": { "type": "Polygon", "coordinates": [[${coords}]] } }`);
    polygons++;
  };
  const visit = async (x: number, y: number, s: number): Promise<void> => {
    if (s > MIN_CELL && rand() < q) { const h = s / 2; await visit(x, y, h); await visit(x + h, y, h); await visit(x, y + h, h); await visit(x + h, y + h, h); } else await leaf(x, y, s);
  };
  for (const [x, y] of blocks) await visit(x, y, BLOCK);
  await write('\n]\n}\n');
  out.end();
  await once(out, 'finish');
  return { polygons, vertices, mb: +((await stat(path)).size / 1e6).toFixed(0) };
}

/** Communes as 4 km squares (codes 01000, 01001...: departments 01-09 come first), radon.csv and the seismic zoning. */
async function generateCommunes(root: string, dataDir: string): Promise<{ communes: number; ingest: Record<string, number> }> {
  const rows: { code: string; x: number; y: number }[] = [];
  for (let y = Y0; y < Y0 + ROWS * BLOCK; y += COMMUNE) for (let x = X0; x < X0 + COLS * BLOCK; x += COMMUNE) {
    if (inFrance(x + COMMUNE / 2, y + COMMUNE / 2)) rows.push({ code: String(1000 + rows.length).padStart(5, '0'), x, y });
  }
  const source = { id: 'bench.communes', country: 'fr', name: 'bench communes', producer: 'bench' } as unknown as Source;
  const ctx = ctxFor(dataDir);
  const t = performance.now();
  const rejects = new Rejects(dataDir, 'fr', 'zones', 'bench.communes', 0.01);
  await rejects.init();
  const w = await ZonesWriter.open(dataDir, 'fr', 'bench.communes', 'bench.communes');
  for (const r of rows) {
    const ring = [[r.x, r.y], [r.x + COMMUNE, r.y], [r.x + COMMUNE, r.y + COMMUNE], [r.x, r.y + COMMUNE], [r.x, r.y]].map((p) => fromL93.forward(p));
    const why = w.add({ level: 'locality', code: r.code, name: `Commune ${r.code}`, parent_level: null, parent_code: null, geometry: { type: 'Polygon', coordinates: [ring] } });
    if (why) throw new Error(why);
  }
  const communesCsv = join(root, 'communes.txt');
  await (await import('node:fs/promises')).writeFile(communesCsv, rows.map((r) => r.code).join('\n'));
  await rejects.close();
  await publish(ctx, 'fr', 'bench.communes', source, { path: communesCsv }, 'bench.communes', await w.prepare(), rejects);
  const zones_s = (performance.now() - t) / 1000;
  // IRSN's radon.csv: the code as a number (01xxx loses its zero), class 1-3; a few #VALEUR! rows as published.
  const radon = join(root, 'radon.csv');
  const seismic = join(root, 'zonage_sismique_communes.csv');
  const rand = rng(151);
  const rl = ['nom_comm;nom_dept;insee_com;classe_potentiel;reg'];
  const sl = ['code_insee;nom_commune;zone_sismicite'];
  for (const r of rows) {
    const f = field(r.x - 50_000, r.y + 30_000);
    rl.push(`COMMUNE-${r.code};DEPARTEMENT-${r.code.slice(0, 2)};${r.code.startsWith('0') ? r.code.slice(1) : r.code};${rand() < 0.0005 ? '#VALEUR!' : f > 0.4 ? 3 : f > 0 ? 2 : 1};FR`);
    // Seismicity rises to the south-east (Alps, Pyrenees), as the regulatory zoning.
    const z = Math.max(1, Math.min(5, Math.round(1 + (r.x - 300_000) / 250_000 + (6_600_000 - r.y) / 350_000 + (rand() - 0.5))));
    sl.push(`${r.code};Commune ${r.code};${z}`);
  }
  const fs = await import('node:fs/promises');
  await fs.writeFile(radon, rl.join('\n') + '\n');
  await fs.writeFile(seismic, sl.join('\n') + '\n');
  // Generated here: their publication date is today's.
  const written = new Date().toISOString().slice(0, 10);
  let t2 = performance.now();
  await ingestRadon(ctx, { path: radon, publishedAt: written });
  const radon_s = (performance.now() - t2) / 1000;
  t2 = performance.now();
  await ingestSeismic(ctx, { path: seismic, publishedAt: written });
  const seismic_s = (performance.now() - t2) / 1000;
  return { communes: rows.length, ingest: { zones_s: +zones_s.toFixed(1), radon_s: +radon_s.toFixed(2), seismic_s: +seismic_s.toFixed(2) } };
}

const SITE_TYPES: [string, number][] = [['former_industrial_activity', 95], ['contaminated_land', 3], ['soil_information_area', 2]];

async function generateSites(dataDir: string, sites: number): Promise<number> {
  const list = areas();
  const total = list.reduce((s, a) => s + a[2], 0);
  const slots: number[] = [];
  list.forEach((a, i) => { for (let k = 0; k < Math.round((a[2] / total) * 10_000); k++) slots.push(i); });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  registerIngestFunctions(c);
  await c.run(`CREATE TABLE areas AS SELECT * FROM (VALUES ${list.map((a, i) => `(${i}, ${a[0]}, ${a[1]}, ${a[3]})`).join(', ')}) t(idx, lat, lng, sigma)`);
  await c.run(`CREATE TABLE slots AS SELECT * FROM (VALUES ${slots.map((s, i) => `(${i}, ${s})`).join(', ')}) t(slot, idx)`);
  const u = (k: number) => `((hash(i * 8 + ${k}) % 1000000) + 0.5) / 1000000.0`;
  let acc = 0;
  const cat = `CASE ${SITE_TYPES.map(([t, w]) => { acc += w; return `WHEN u3 < ${acc / 100} THEN 'polluted_site.${t}'`; }).join(' ')} END`;
  await mkdir(tableDir(dataDir, 'fr', 'polluted_sites'), { recursive: true });
  const file = partitionPath(dataDir, 'fr', 'polluted_sites', 'bench');
  await c.run(`COPY (WITH g AS (SELECT i, (hash(i * 8) % ${slots.length})::INTEGER AS slot, ${u(1)} AS u1, ${u(2)} AS u2, ${u(3)} AS u3 FROM range(${sites}) t(i)),
      p AS (SELECT g.*, a.lat + sqrt(-2 * ln(u1)) * sin(2 * pi() * u2) * a.sigma / 111.0 AS lat2, a.lng + sqrt(-2 * ln(u1)) * cos(2 * pi() * u2) * a.sigma / (111.0 * cos(radians(a.lat))) AS lng2
        FROM g JOIN slots USING (slot) JOIN areas a USING (idx))
    SELECT 'bench.sites:' || i AS id, h3_cell(lat2, lng2) AS cell, lng2 AS longitude, lat2 AS latitude, CAST(${cat} AS VARCHAR) AS category,
      'Site ' || i AS name, '{"address":"' || (i % 200) || ' rue de l''Usine","status":null,"updated_on":"2024-05-01"}' AS attributes, 'bench.sites' AS source
    FROM p WHERE h3_cell(lat2, lng2) IS NOT NULL ORDER BY cell) TO '${file}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192)`);
  const [[rows]] = (await (await c.run(`SELECT count(*)::INTEGER FROM '${file}'`)).getRows()) as [[number]];
  c.closeSync(); db.closeSync();
  await recordPartition(dataDir, 'fr', { table: 'polluted_sites', partition: 'bench', file: partitionFile('fr', 'polluted_sites', 'bench'), job: 'bench', sources: [], rows, rejects: 0, rejects_file: null, imported_at: new Date().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: '' });
  return rows;
}

/** The same clay polygons, communes with their classes and sites in PostGIS, each with a GiST index. */
async function loadPostgis(root: string, dataDir: string, url: string) {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const csv = (name: string) => join(root, `${name}.csv`);
  await c.run(`COPY (SELECT id, CAST(json_extract_string(attributes, '$.niveau') AS INTEGER), geometry FROM '${tableGlob(dataDir, 'fr', 'hazard_areas')}' WHERE layer = 'clay_shrink_swell') TO '${csv('clay')}' (HEADER false)`);
  await c.run(`COPY (SELECT code, geometry FROM '${tableGlob(dataDir, 'fr', 'zones')}' WHERE level = 'locality') TO '${csv('communes')}' (HEADER false)`);
  await c.run(`COPY (SELECT code, indicator, value FROM '${tableGlob(dataDir, 'fr', 'zone_values')}') TO '${csv('values')}' (HEADER false)`);
  await c.run(`COPY (SELECT id, category, name, attributes, longitude, latitude FROM '${tableGlob(dataDir, 'fr', 'polluted_sites')}') TO '${csv('sites')}' (HEADER false)`);
  c.closeSync(); db.closeSync();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await client.query('DROP TABLE IF EXISTS bench_clay_s, bench_clay, bench_communes_s, bench_communes, bench_values, bench_sites_s, bench_sites');
    await client.query('CREATE UNLOGGED TABLE bench_clay_s (id text, niveau int, g text); CREATE UNLOGGED TABLE bench_communes_s (code text, g text); CREATE UNLOGGED TABLE bench_values (code text, indicator text, value float8); CREATE UNLOGGED TABLE bench_sites_s (id text, category text, name text, attributes text, lng float8, lat float8)');
    let t = performance.now();
    for (const [table, file] of [['bench_clay_s', 'clay'], ['bench_communes_s', 'communes'], ['bench_values', 'values'], ['bench_sites_s', 'sites']]) {
      const r = spawnSync('psql', [url, '-c', `\\copy ${table} FROM '${csv(file!)}' WITH (FORMAT csv)`], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
    }
    await client.query('CREATE UNLOGGED TABLE bench_clay AS SELECT id, niveau, ST_SetSRID(ST_GeomFromGeoJSON(g), 4326) AS geom FROM bench_clay_s');
    await client.query('CREATE UNLOGGED TABLE bench_communes AS SELECT code, ST_SetSRID(ST_GeomFromGeoJSON(g), 4326) AS geom FROM bench_communes_s');
    await client.query('CREATE UNLOGGED TABLE bench_sites AS SELECT id, category, name, attributes, ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography AS geog FROM bench_sites_s');
    await client.query('DROP TABLE bench_clay_s, bench_communes_s, bench_sites_s');
    const load = (performance.now() - t) / 1000;
    t = performance.now();
    await client.query('CREATE INDEX ON bench_clay USING gist (geom); CREATE INDEX ON bench_communes USING gist (geom); CREATE INDEX ON bench_sites USING gist (geog); CREATE INDEX ON bench_values (code, indicator)');
    await client.query('ANALYZE bench_clay; ANALYZE bench_communes; ANALYZE bench_sites; ANALYZE bench_values');
    return { load_s: +load.toFixed(1), index_s: +((performance.now() - t) / 1000).toFixed(1) };
  } finally {
    await client.end();
  }
}

/**
 * `keep`: a folder kept after the run (generated files and tables), reused as is by the next run
 * given the same folder: the layer is generated and ingested once, the queries measured again.
 */
export async function benchRisks(polygons: number, sites: number, queries: number, postgisUrl: string | null, log: (s: string) => void = () => {}, keep: string | null = null, areasIndex = true) {
  const root = keep ?? await mkdtemp(join(tmpdir(), 'bench-risks-'));
  const dataDir = join(root, 'data');
  const reuse = keep !== null && existsSync(join(dataDir, 'fr', 'manifest.json'));
  try {
    let t = performance.now();
    const built = reuse ? JSON.parse(await readFile(join(root, 'built.json'), 'utf8')) : await build();
    async function build() {
    const file = join(root, 'ExpoArgile_Fxx_L93.geojson');
    const clay = await generateClay(file, polygons);
    const clay_generate_s = +((performance.now() - t) / 1000).toFixed(1);
    log(`clay generated: ${JSON.stringify(clay)} in ${clay_generate_s} s`);
    // fr.clay as the CLI runs it, in its own process: wall time and peak memory of the job alone.
    t = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e',
      `const { ingestClay } = await import(${JSON.stringify(join(import.meta.dirname, '../ingest/fr/clay.ts'))});
       const s = await ingestClay({ dataDir: ${JSON.stringify(dataDir)}, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: { write: () => true, isTTY: false } }, { path: ${JSON.stringify(file)} });
       console.log(JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, rows: s.map((p) => [p.table, p.rows]) }));`], { encoding: 'utf8', cwd: join(import.meta.dirname, '..'), maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(r.stderr);
    const job = JSON.parse(r.stdout.trim().split('\n').pop()!);
    const clay_ingest = { s: +((performance.now() - t) / 1000).toFixed(1), peak_rss_mb: Math.round(job.maxRSS / 1024), rows: Object.fromEntries(job.rows) };
    log(`fr.clay: ${JSON.stringify(clay_ingest)}`);
    await rm(file, { force: true });
    const communes = await generateCommunes(root, dataDir);
    log(`communes: ${JSON.stringify(communes)}`);
    const siteRows = sites > 0 ? await generateSites(dataDir, sites) : 0;
    log(`sites: ${siteRows}`);
    const out = { clay: { ...clay, generate_s: clay_generate_s }, clay_ingest, communes, sites: siteRows };
    await writeFile(join(root, 'built.json'), JSON.stringify(out));
    return out;
    }
    const siteRows = built.sites as number;
    // Without the areas index (budget 0) the DuckDB path of areas.ts answers every point: the state before it.
    areasIndexOptions.budget = areasIndex ? AREAS_INDEX_BUDGET : 0;
    const appStart = performance.now();
    const { app, key, sql, warehouse, manifests } = await benchApp(dataDir);
    if (siteRows > 0 && !(await pointsIndexReady(warehouse, 'fr', 'polluted_sites'))) throw new Error('the points index of polluted sites was not built');
    const index = areasIndex ? await areasIndexReady(warehouse, 'fr', 'hazard_areas') : null;
    if (areasIndex && !index) throw new Error('the areas index was not built (over its memory budget?)');
    const app_ready = {
      s: +((performance.now() - appStart) / 1000).toFixed(1), process_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
      areas_index: index ? { areas: index.size, mb: Math.round(index.bytes / 1e6) } : null,
    };
    // Points where people ask: half uniform over France, half near a site (towns).
    const rand = rng(1515);
    const positions: { lat: number; lng: number }[] = [];
    const near = siteRows > 0 ? await warehouse.query<{ latitude: number; longitude: number }>(`SELECT latitude, longitude FROM fr_polluted_sites USING SAMPLE ${queries} ROWS (reservoir, 15)`) : [];
    // A site drawn in the sea (around a coastal city) is skipped: clients ask on land.
    for (let k = 0; positions.length < queries + 20; k++) {
      const n = k % 2 === 0 ? near[k / 2] : undefined;
      const p = n
        ? { lat: +(n.latitude + (rand() - 0.5) * 0.005).toFixed(6), lng: +(n.longitude + (rand() - 0.5) * 0.007).toFixed(6) }
        : { lat: +(42.3 + rand() * 8.8).toFixed(6), lng: +(-4.8 + rand() * 13).toFixed(6) };
      if (isInCountry('fr', p.lng, p.lat)) positions.push(p);
    }
    log(`app ready: ${JSON.stringify(app_ready)}`);
    const postgisLoad = postgisUrl ? await loadPostgis(root, dataDir, postgisUrl) : null;
    log(`postgis: ${JSON.stringify(postgisLoad)}`);
    const client = postgisUrl ? new pg.Client({ connectionString: postgisUrl }) : null;
    await client?.connect();
    const deps = { warehouse, manifests, clock: systemClock, zones: createZoneLookup(warehouse), resolved: createResolvedAddresses(sql), geocoder: null } as unknown as LocationRouteDeps;
    const locations = new Map<string, Location>();
    for (const p of positions) locations.set(`${p.lat},${p.lng}`, (await locate(deps, 'fr', { kind: 'position', lat: p.lat, lng: p.lng }, 'fr')).location);
    const last: { service?: string; core?: string; postgis?: string } = {};
    const geom = `ST_SetSRID(ST_MakePoint($2, $1), 4326)`;
    const runners: Record<string, (p: { lat: number; lng: number }) => Promise<void>> = {
      report: async (p) => {
        const res = await app.inject({ method: 'GET', url: `/api/v1/fr/report?lat=${p.lat}&lng=${p.lng}&include=risks`, headers: { authorization: `Bearer ${key}` } });
        if (res.statusCode !== 200) throw new Error(res.body.slice(0, 300));
        last.service = summaryKey((res.json() as { data: { risks: FrRisks } }).data.risks);
      },
      risks_core: async (p) => {
        const { value } = await frRisks(deps, { country: 'fr', location: locations.get(`${p.lat},${p.lng}`)!, locale: 'fr', radius: 500, fields: [] });
        last.core = summaryKey(value as FrRisks);
      },
      postgis: async (p) => {
        const h = await client!.query(`SELECT (SELECT max(niveau) FROM bench_clay WHERE ST_Intersects(geom, ${geom})) AS clay,
            c.code, (SELECT value FROM bench_values v WHERE v.code = c.code AND indicator = 'hazard.radon_potential') AS radon,
            (SELECT value FROM bench_values v WHERE v.code = c.code AND indicator = 'hazard.seismic_zone') AS seismic
          FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT code FROM bench_communes WHERE ST_Contains(geom, ${geom}) LIMIT 1) c ON true`, [p.lat, p.lng]);
        const point = `${geom}::geography`;
        const counts = await client!.query(`SELECT category, count(*)::int AS n FROM bench_sites WHERE ST_DWithin(geog, ${point}, 500, false) GROUP BY 1`, [p.lat, p.lng]);
        await client!.query(`SELECT id, category, name, attributes, ST_Distance(geog, ${point}, false) AS d FROM bench_sites WHERE ST_DWithin(geog, ${point}, 500, false) ORDER BY geog <-> ${point} LIMIT 10`, [p.lat, p.lng]);
        const row = h.rows[0] as { clay: number | null; radon: number | null; seismic: number | null };
        const n = Object.fromEntries(counts.rows.map((x: { category: string; n: number }) => [x.category.slice('polluted_site.'.length), x.n]));
        last.postgis = `clay=${row.clay ?? '-'} radon=${row.radon ?? '-'} seismic=${row.seismic ?? '-'} sites=${SITE_TYPES.map(([t]) => n[t] ?? 0).join('/')}`;
      },
    };
    log('located');
    const names = Object.keys(runners).filter((n) => client || n !== 'postgis');
    const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (const p of positions.slice(0, 20)) for (const n of names) await runners[n]!(p);
    let agree = 0, differ = 0;
    const examples: string[] = [];
    for (const [i, p] of positions.slice(20).entries()) {
      for (let k = 0; k < names.length; k++) {
        const n = names[(i + k) % names.length]!;
        t = performance.now();
        await runners[n]!(p);
        times[n]!.push(performance.now() - t);
      }
      if (client) {
        if (last.service === last.postgis && last.core === last.postgis) agree++; else { differ++; if (examples.length < 5) examples.push(`${p.lat},${p.lng}: service ${last.service} / postgis ${last.postgis}`); }
      }
    }
    await client?.end();
    await app.close(); await warehouse.close(); await sql.close();
    const s = Object.fromEntries(names.map((n) => [n, stats(times[n]!)]));
    const ratio = (a: string, b: string, k: 'p50_ms' | 'p99_ms') => (s[a] && s[b] ? +(s[a][k] / s[b][k]).toFixed(2) : null);
    return {
      ...built, reused: reuse, areas_index: areasIndex, app_ready, postgis_load: postgisLoad, queries: positions.length - 20, ...s,
      report_to_postgis: { p50: ratio('report', 'postgis', 'p50_ms'), p99: ratio('report', 'postgis', 'p99_ms') },
      core_to_postgis: { p50: ratio('risks_core', 'postgis', 'p50_ms'), p99: ratio('risks_core', 'postgis', 'p99_ms') },
      same_answer: client ? `${agree} / ${agree + differ}` : null, differences: examples,
    };
  } finally {
    if (!keep) await rm(root, { recursive: true, force: true });
  }
}

/** What both sides answer: clay's BRGM class, radon and seismic classes, site counts per type. */
function summaryKey(r: FrRisks): string {
  const level = (t: string) => r.hazards.find((h) => h.type === t)?.level;
  const clay = { low: 1, moderate: 2, high: 3 }[level('clay_shrink_swell') as string] ?? '-';
  const radon = { very_low: 1, low: 2, moderate: 3 }[level('radon') as string] ?? '-';
  const seismic = { very_low: 1, low: 2, moderate: 3, high: 4, very_high: 5 }[level('seismic') as string] ?? '-';
  const c = r.polluted_sites?.counts as Record<string, number | null> | undefined;
  return `clay=${clay} radon=${radon} seismic=${seismic} sites=${SITE_TYPES.map(([t]) => c?.[t] ?? 0).join('/')}`;
}
