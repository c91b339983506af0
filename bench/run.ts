import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateBan, rng } from './generate.ts';
import { ingestBanFile } from '../ingest/fr/ban.ts';
import { runSamples } from '../ingest/jobs.ts';
import type { JobContext } from '../ingest/core/job.ts';
import { benchApp } from './app.ts';
import { systemClock } from '../api/core/clock.ts';
import { createResolvedAddresses } from '../api/location/search/resolved.ts';
import { createCredentialRepository } from '../api/listing/credentials.ts';
import { createListingStore } from '../api/listing/store/index.ts';
import { createZoneLookup } from '../api/location/zones/lookup.ts';
import { locate } from '../api/location/locate.ts';
import { benchDvfIngest, benchDvfReport } from './dvf.ts';
import { benchZones, benchZonesMemory } from './zones.ts';
import { benchBuildings } from './buildings.ts';
import { benchBuildingsNational } from './buildings-national.ts';
import { benchBuildingReads } from './building-reads.ts';
import { benchCadastre, benchCadastreLookups, benchCadastreNational } from './cadastre.ts';
import { benchPlaces } from './places.ts';
import { benchGeocode } from './geocode.ts';
import { benchOsmPbf } from './osm-pbf.ts';
import { benchRisks } from './risks.ts';
import { benchGeocodeMemory } from './geocode-memory.ts';
import { benchNearKeys } from './near-keys.ts';

const PARIS: [number, number, number, number] = [2.2600, 48.8200, 2.4100, 48.9000];
const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
const ctxFor = (dataDir: string): JobContext => ({ dataDir, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: devNull });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * fr.ban against DuckDB's own read_csv -> Parquet COPY of the same file, in the same process,
 * alternating baseline and job for several rounds; the median ratio is the figure (one round
 * alone is at the mercy of whatever else the machine is doing).
 */
async function benchIngest(rows: number, rounds: number) {
  const root = await mkdtemp(join(tmpdir(), 'bench-ingest-'));
  const file = join(root, 'adresses-99.csv');
  await generateBan(file, rows, [-4.5, 43.3, 7.5, 50.9]);
  const runs: { baseline_s: number; job_s: number; ratio: number }[] = [];
  let written = 0;
  for (let r = 0; r < rounds; r++) {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    let t = performance.now();
    await c.run(`COPY (SELECT * FROM read_csv('${file}', delim=';', header=true, all_varchar=true)) TO '${join(root, 'baseline.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
    const baseline = (performance.now() - t) / 1000;
    c.closeSync(); db.closeSync();
    t = performance.now();
    const [summary] = await ingestBanFile(ctxFor(join(root, `data-${r}`)), { path: file });
    const job = (performance.now() - t) / 1000;
    written = summary!.rows;
    runs.push({ baseline_s: +baseline.toFixed(2), job_s: +job.toFixed(2), ratio: +(baseline / job).toFixed(3) });
  }
  const size = (await stat(file)).size;
  await rm(root, { recursive: true, force: true });
  const median = <T,>(xs: T[], key: (x: T) => number) => xs.map(key).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    rows: written, mb: +(size / 1e6).toFixed(1), runs,
    baseline_rows_per_s: Math.round(rows / median(runs, (r) => r.baseline_s)), job_rows_per_s: Math.round(rows / median(runs, (r) => r.job_s)),
    median_ratio: median(runs, (r) => r.ratio),
  };
}

/** Location lookups by position and by address on a Paris-sized address table (samples' zones). */
async function benchLookups(addresses: number, queries: number) {
  const root = await mkdtemp(join(tmpdir(), 'bench-lookups-'));
  const dataDir = join(root, 'data');
  await runSamples(ctxFor(dataDir));
  const file = join(root, 'adresses-bench.csv');
  await generateBan(file, addresses, PARIS);
  await ingestBanFile(ctxFor(dataDir), { path: file });
  const { app, key, sql, warehouse } = await benchApp(dataDir, (state) => ({
    listing: { store: createListingStore(state), credentials: createCredentialRepository(state) },
  }));
  const rand = rng(7);
  const addressRows = await warehouse.query<{ label: string }>(`SELECT label FROM fr_addresses WHERE source = 'fr.ban' USING SAMPLE ${queries} ROWS (reservoir, 7)`);
  const run = async (urls: string[]) => {
    const lat: number[] = [];
    const t0 = performance.now();
    for (const url of urls) {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      lat.push(performance.now() - t);
    }
    const total = (performance.now() - t0) / 1000;
    lat.sort((a, b) => a - b);
    return { queries: urls.length, per_s: Math.round(urls.length / total), p50_ms: +percentile(lat, 50).toFixed(2), p99_ms: +percentile(lat, 99).toFixed(2) };
  };
  // Baseline in the same run: the raw DuckDB reads a lookup needs, without the API around them.
  const positions = Array.from({ length: queries }, () => [PARIS[1] + rand() * (PARIS[3] - PARIS[1]), PARIS[0] + rand() * (PARIS[2] - PARIS[0])]);
  const byPosition = await run(positions.map(([la, ln]) => `/api/v1/fr/location?lat=${la!.toFixed(6)}&lng=${ln!.toFixed(6)}`));
  // Baseline in the same run: the same positions answered by the location core alone (DuckDB
  // reads, zone tests), without HTTP, keys, limits and serialisation.
  const deps = { warehouse, zones: createZoneLookup(warehouse), resolved: createResolvedAddresses(sql), geocoder: null, clock: systemClock };
  const core: number[] = [];
  const t0 = performance.now();
  for (const [la, ln] of positions) {
    const t = performance.now();
    await locate(deps, 'fr', { kind: 'position', lat: Number(la!.toFixed(6)), lng: Number(ln!.toFixed(6)) }, 'fr');
    core.push(performance.now() - t);
  }
  const coreTotal = (performance.now() - t0) / 1000;
  core.sort((a, b) => a - b);
  const coreOnly = { queries: core.length, per_s: Math.round(core.length / coreTotal), p50_ms: +percentile(core, 50).toFixed(2), p99_ms: +percentile(core, 99).toFixed(2) };
  const byAddress = await run(addressRows.map((r) => `/api/v1/fr/location?address=${encodeURIComponent(r.label)}`));
  await app.close(); await warehouse.close(); await sql.close();
  await rm(root, { recursive: true, force: true });
  return { addresses, by_position: byPosition, by_address: byAddress, core_by_position: coreOnly, api_to_core_p50: +(byPosition.p50_ms / coreOnly.p50_ms).toFixed(2) };
}

/** Peak memory of fr.ban on growing inputs, each in its own process. */
async function benchMemory(sizes: number[]) {
  const out: { rows: number; peak_rss_mb: number }[] = [];
  for (const rows of sizes) {
    const root = await mkdtemp(join(tmpdir(), 'bench-mem-'));
    const file = join(root, 'adresses-99.csv');
    await generateBan(file, rows, [-4.5, 43.3, 7.5, 50.9]);
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e',
      `const { ingestBanFile } = await import(${JSON.stringify(join(import.meta.dirname, '../ingest/fr/ban.ts'))});
       await ingestBanFile({ dataDir: ${JSON.stringify(join(root, 'data'))}, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: { write: () => true, isTTY: false } }, { path: ${JSON.stringify(file)} });
       console.log(JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }));`], { encoding: 'utf8', cwd: join(import.meta.dirname, '..') });
    if (r.status !== 0) throw new Error(r.stderr);
    const { maxRSS } = JSON.parse(r.stdout.trim().split('\n').pop()!);
    out.push({ rows, peak_rss_mb: Math.round(maxRSS / 1024) });
    await rm(root, { recursive: true, force: true });
  }
  return { runs: out, ratio_largest_to_smallest: +(out.at(-1)!.peak_rss_mb / out[0]!.peak_rss_mb).toFixed(2) };
}

// npm run bench -- [all|ingest|lookups|memory|dvf|zones] [--rows N] [--rounds N] [--queries N]
// zones: [--iris N] (default 50,000 IRIS x 30 indicators x 5 years) [--queries N] [--keep DIR] (the generated tables kept there and reused)
// zones-memory: --data DIR/data (the tables of zones --keep DIR): RSS of a process building the zone-values index alone;
//   run as `node --expose-gc --import tsx bench/run.ts zones-memory ...`
// buildings: [--parcels N] (default 200,000) [--per-building N] (parcels per building, default 5) [--queries N] [--sales-per-building N] (default 0) [--no-cadastre]
// geocode: [--addresses N] (France-like; Quebec and Belgium beside it at 4/26 and 6/26) [--queries N] [--concurrency N]
//   [--keep DIR] (tables ingested there once and reused) [--no-baseline] (skip the DuckDB baseline)
// geocode-memory: --data DIR/data (tables kept by geocode --keep) [--fresh] (indexes built from DuckDB, else loaded; the
//   three countries at once, as the server starts them; peak RSS while they are made);
//   run as `node --expose-gc --import tsx bench/run.ts geocode-memory ...` for RSS after a collection
// dvf: [--lines N] (ingest file; 0 skips) [--sales N] (national table; 0 skips) [--queries N] [--radius M] [--postgis URL | --no-postgis]
const args = process.argv.slice(2);
const what = args.find((a) => !a.startsWith('--')) ?? 'all';
const opt = (name: string, def: number) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : def; };
const results: Record<string, unknown> = {};
if (what === 'all' || what === 'ingest') results.ingest = await benchIngest(opt('rows', 1_000_000), opt('rounds', 5));
if (what === 'all' || what === 'lookups') results.lookups = await benchLookups(150_000, opt('queries', 10_000));
if (what === 'all' || what === 'memory') results.memory = await benchMemory([250_000, 1_000_000, 2_000_000]);
if (what === 'all' || what === 'dvf') {
  const i = args.indexOf('--postgis');
  const postgis = args.includes('--no-postgis') ? null : i >= 0 ? args[i + 1]! : process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (opt('lines', 1_000_000) > 0) results.dvf_ingest = await benchDvfIngest(opt('lines', 1_000_000));
  if (opt('sales', 20_000_000) > 0) results.dvf_report = await benchDvfReport(opt('sales', 20_000_000), opt('queries', 2_000), opt('radius', 500), postgis);
}
// buildings --departments N: fr.buildings and fr.dpe department after department into one data folder (the registry grows as
//   nationally), then fr.properties over all; per department [--buildings-per-department N] (default 200,000)
//   [--diagnoses-per-department N] (100,000) [--sales-per-department N] (200,000); [--baseline REF] (the same inputs by the jobs of a git ref,
//   alternately, same run) [--timeout S] (a run stopped past S seconds, default 3,600) [--prefill-departments K] (the registry starts
//   with K other departments' keys, as each tree keeps them: national size without ingesting the nation first)
//   [--properties-per-department] (this tree's fr.properties --departments <dep> after each department, instead of one national run)
if (what === 'buildings' && args.includes('--departments')) {
  const i = args.indexOf('--baseline');
  results.buildings_national = await benchBuildingsNational({ departments: opt('departments', 3), buildings: opt('buildings-per-department', 200_000), diagnoses: opt('diagnoses-per-department', 100_000), sales: opt('sales-per-department', 200_000) },
    { baseline: i >= 0 ? args[i + 1] : undefined, timeoutSeconds: opt('timeout', 3600), prefill: opt('prefill-departments', 0), propertiesPerDepartment: args.includes('--properties-per-department'), log: (s) => console.error(s) });
} else if (what === 'buildings') results.buildings = await benchBuildings(opt('parcels', 200_000), opt('per-building', 5), opt('queries', 500), { cadastre: !args.includes('--no-cadastre'), salesPerBuilding: opt('sales-per-building', 0) });
// building-reads: [--scale F] (of the national counts: 20 M buildings, 10 M diagnoses, 17.5 M sales; default 0.1) [--queries N] [--before REF] (default main) [--after REF] (default HEAD) [--keep DIR] (tables kept there, reused)
if (what === 'building-reads') {
  const arg = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
  results.building_reads = await benchBuildingReads(opt('scale', 0.1), opt('queries', 500), { keep: arg('keep'), before: arg('before'), after: arg('after') }, (s) => console.error(s));
}
// cadastre: [--communes N] (generated commune files, default 1,000) [--parcels-per-commune N] (default 20) [--template FILE] (each commune a real commune file re-coded and shifted instead: Etalab's layout, one feature per line) [--manifest-entries N] (default 70,000; 0 skips) [--no-before] (skip the file-by-file run) [--baseline REF] (the folder run by the job of a git ref and by this tree, alternately) [--departments] (the files as two department folders: two fr.cadastre processes one after the other, then at once)
// cadastre --national: [--template FILE] (default the real Juvisy file of ../shared/realdata) [--departments-count N] (default 96) [--communes-per-department N] (default 365: 35,040 communes of the template's 2,859 parcels, 100 M) [--jobs N] (departments at once, default 2) [--keep DIR]
// cadastre --national --lookups DIR[,DIR...]: the parcel lookups alone over data folders kept by runs of the same --departments-count and --communes-per-department (DIR/data), each in turn, twice [--queries N] (default 200) [--trees DIR,DIR] (the reader of each worktree in turn, e.g. one of an earlier commit; default this tree)
if (what === 'cadastre' && args.includes('--national') && args.includes('--lookups')) {
  const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  results.cadastre_lookups = benchCadastreLookups(arg('--template') ?? join(import.meta.dirname, '../../shared/realdata/fr/cadastre/cadastre-91326-parcelles.json'),
    arg('--lookups')!.split(',').map((d) => join(d, 'data')), opt('departments-count', 96), opt('communes-per-department', 365), opt('queries', 200),
    { trees: arg('--trees')?.split(','), log: (s) => console.error(s) });
} else if (what === 'cadastre' && args.includes('--national')) {
  const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  results.cadastre_national = await benchCadastreNational(arg('--template') ?? join(import.meta.dirname, '../../shared/realdata/fr/cadastre/cadastre-91326-parcelles.json'),
    opt('departments-count', 96), opt('communes-per-department', 365), opt('jobs', 2), { keep: arg('--keep'), log: (s) => console.error(s) });
} else if (what === 'cadastre') {
  const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  results.cadastre = await benchCadastre(opt('communes', 1_000), opt('parcels-per-commune', 20), opt('manifest-entries', 70_000), { before: !args.includes('--no-before'), template: arg('--template'), baseline: arg('--baseline'), departments: args.includes('--departments') });
}
if (what === 'all' || what === 'zones') results.zones = await benchZones(opt('iris', 50_000), opt('queries', 1_000), args.includes('--keep') ? args[args.indexOf('--keep') + 1] : undefined);
if (what === 'zones-memory') {
  if (!args.includes('--data')) throw new Error('zones-memory: --data DIR/data (the tables of zones --keep DIR)');
  results.zones_memory = await benchZonesMemory(args[args.indexOf('--data') + 1]!);
}
// places: [--equipment N] [--stops N] [--queries N] [--postgis URL | --no-postgis] (a bench-only database, e.g. bench_places with CREATE EXTENSION postgis)
if (what === 'all' || what === 'places') {
  const i = args.indexOf('--postgis');
  const postgis = args.includes('--no-postgis') ? null : i >= 0 ? args[i + 1]! : process.env.BENCH_PLACES_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_places';
  results.places = await benchPlaces(opt('equipment', 2_500_000), opt('stops', 500_000), opt('queries', 1_000), postgis);
}
// osm-pbf: [--nodes N] (default 4,000,000) [--rounds N]: the .osm.pbf reader against inflating the same blobs
if (what === 'all' || what === 'osm-pbf') results.osm_pbf = await benchOsmPbf(opt('nodes', 4_000_000), opt('rounds', 3));
// risks: [--polygons N] (clay layer, default 300,000) [--sites N] (default 300,000) [--queries N] [--keep DIR] (keep the generated data there; reused when present) [--no-areas-index] (the DuckDB path of areas alone) [--postgis URL | --no-postgis] (a bench-only database, e.g. bench_risks)
if (what === 'risks') {
  const i = args.indexOf('--postgis');
  const postgis = args.includes('--no-postgis') ? null : i >= 0 ? args[i + 1]! : process.env.BENCH_RISKS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_risks';
  const k = args.indexOf('--keep');
  results.risks = await benchRisks(opt('polygons', 300_000), opt('sites', 300_000), opt('queries', 1_000), postgis, (s) => console.error(s), k >= 0 ? args[k + 1]! : null, !args.includes('--no-areas-index'));
}
// Not in `all`: national scale takes long and most of the machine's memory.
if (what === 'geocode') results.geocode = await benchGeocode(opt('addresses', 1_000_000), opt('queries', 2_000), opt('concurrency', 4), (s) => console.error(s), {
  keep: args.includes('--keep') ? args[args.indexOf('--keep') + 1] : undefined, noBaseline: args.includes('--no-baseline'),
});
if (what === 'geocode-memory') {
  if (!args.includes('--data')) throw new Error('geocode-memory: --data DIR/data (the tables of geocode --keep DIR)');
  results.geocode_memory = await benchGeocodeMemory(args[args.indexOf('--data') + 1]!, args.includes('--fresh'));
}
// near-keys: --data DIR/data [--country fr] [--queries N]: the spelling-variant search over every street key, with and without its prefilter
if (what === 'near-keys') {
  if (!args.includes('--data')) throw new Error('near-keys: --data DIR/data (a data folder with an addresses table)');
  const k = args.indexOf('--country');
  results.near_keys = await benchNearKeys(args[args.indexOf('--data') + 1]!, k >= 0 ? args[k + 1]! : 'fr', opt('queries', 300));
}
console.log(JSON.stringify(results, null, 2));
