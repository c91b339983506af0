import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { registerIngestFunctions } from '../ingest/core/vector-functions.ts';
import { AREA_CELL_COLUMNS, AREA_COLUMNS } from '../schemas/tables/areas.ts';
import { ADDRESS_COLUMNS } from '../schemas/tables/addresses.ts';
import { DIAGNOSIS_COLUMNS } from '../schemas/tables/diagnoses.ts';
import { PROPERTY_COLUMNS, PROPERTY_EVENT_COLUMNS } from '../schemas/tables/properties.ts';
import { SALE_COLUMNS } from '../schemas/tables/sales.ts';
import { BUILDING_LINK_COLUMNS } from '../schemas/tables/buildings.ts';
import { ZONE_COVER_RES } from '../schemas/tables/zones.ts';
import { partitionPath, tableDir } from '../schemas/tables/layout.ts';

/** National counts (issue 17): buildings (RNB), energy diagnoses (DPE), DVF sales since 2014. */
export const NATIONAL = { buildings: 20_000_000, diagnoses: 10_000_000, sales: 17_500_000 };

const REPO = resolve(import.meta.dirname, '..');
const DEPARTMENTS = [...Array.from({ length: 95 }, (_, i) => String(i + 1).padStart(2, '0')).filter((d) => d !== '20'), '2A', '2B'];

/** A COPY of `from` (every column of `columns`, cast to its type, in order) per partition `_p`, sorted by `order`, as the writers lay them out. */
async function writePartitions(c: DuckDBConnection, dataDir: string, table: string, columns: Record<string, string>, from: string, order: string) {
  mkdirSync(tableDir(dataDir, 'fr', table), { recursive: true });
  // Sorted once by partition so each COPY reads its partition's row groups only.
  await c.run(`CREATE OR REPLACE TEMP TABLE part_rows AS SELECT * FROM (${from}) ORDER BY _p, ${order}`);
  const parts = (await c.runAndReadAll('SELECT DISTINCT _p FROM part_rows ORDER BY _p')).getRowObjectsJS().map((r) => r._p as string);
  const cols = Object.entries(columns).map(([k, t]) => `CAST(${k} AS ${t}) AS ${k}`).join(', ');
  for (const p of parts) {
    await c.run(`COPY (SELECT ${cols} FROM part_rows WHERE _p = '${p}' ORDER BY ${order}) TO '${partitionPath(dataDir, 'fr', table, p)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192)`);
  }
  await c.run('DROP TABLE part_rows');
  return parts.length;
}

/**
 * Generates national-shaped tables at `scale` of the national counts, directly in the Parquet
 * layout the jobs write (schemas/tables: same columns, partitions and sort orders: buildings and
 * their cover per department sorted by id and by cell, diagnoses per scheme and department by
 * number, sales per year and department by cell, properties per department by id, their events
 * by property, addresses per department by cell). Buildings are 12 m squares on a grid per
 * department; one in ten holds five flats, two in ten a house; each sale is a property's, each
 * diagnosis at a building's address, attached to its property when it has one. The cover of a
 * building is the resolution-9 cell of its centre (the real cover has one or two). Returns the
 * query points: inside random buildings.
 */
export async function generateBuildingTables(dataDir: string, scale: number, queries: number, log: (s: string) => void) {
  const B = Math.round(NATIONAL.buildings * scale), D = Math.round(NATIONAL.diagnoses * scale), S = Math.round(NATIONAL.sales * scale);
  const tmp = join(dataDir, '..', 'gen-tmp');
  mkdirSync(tmp, { recursive: true });
  const db = await DuckDBInstance.create(':memory:', { memory_limit: '3GB', threads: '2', temp_directory: tmp });
  const c = await db.connect();
  registerIngestFunctions(c);
  const t0 = performance.now();
  await c.run(`CREATE TABLE depts AS SELECT * FROM (VALUES ${DEPARTMENTS.map((d, i) => `(${i}, '${d}')`).join(', ')}) t(d, code)`);
  const h = 0.00006;
  await c.run(`CREATE TABLE bld AS SELECT *, h3_cell(y, x) AS cell15,
      dep || lpad(((j % 500) + 1)::VARCHAR, 3, '0') AS commune,
      dep || lpad(((j % 500) + 1)::VARCHAR, 3, '0') || '000AB' || lpad((j // 500)::VARCHAR, 4, '0') AS parcel,
      dep || lpad(((j % 500) + 1)::VARCHAR, 3, '0') || '_' || lpad((j // 500)::VARCHAR, 4, '0') AS ban0
    FROM (SELECT i AS b, i // 96 AS j, d.code AS dep, 'bld_' || substr(md5('b' || i), 1, 20) AS id,
      -4.45 + (d.d % 12) + ((i // 96) % 2000) * 0.0004 AS x, 42.65 + (d.d // 12) + ((i // 96) // 2000) * 0.0003 AS y
      FROM range(${B}) t(i) JOIN depts d ON d.d = i % 96)`);
  // Resolution-9 parent of the resolution-15 cell: resolution field 9, digits 10 to 15 unused (7).
  const parent9 = `((cell15 & ~(15::BIGINT << 52) & ~262143::BIGINT) | (${ZONE_COVER_RES}::BIGINT << 52) | 262143::BIGINT)`;
  log(`buildings generated (${B}): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const sourced = (v: string, src: string) => `[json_object('value', ${v}, 'document', json_object('type', 'building_record', 'date', NULL), 'source', '${src}')]`;
  const tables: Record<string, number> = {};
  tables.buildings = await writePartitions(c, dataDir, 'buildings', AREA_COLUMNS, `SELECT 'rnb-' || dep AS _p, id, 'building' AS layer,
      json_object('rnb_id', 'RNB' || lpad(b::VARCHAR, 9, '0'), 'bdnb_id', 'bdnb-bg-' || substr(md5('g' || b), 1, 12), 'department', dep,
        'type', CASE WHEN b % 10 = 0 THEN 'apartment_building' ELSE 'house' END,
        'address_ids', CASE WHEN b % 10 = 0 THEN [ban0 || '_00001', ban0 || '_00002'] ELSE [ban0 || '_00001'] END, 'parcels', [parcel], 'footprint_m2', 100.0 + b % 400,
        'construction_year', ${sourced('1850 + b % 170', 'fr.bdnb:ffo')}, 'levels', ${sourced('1 + b % 6', 'fr.bdnb:bdtopo')}, 'dwellings', ${sourced('CASE WHEN b % 10 = 0 THEN 5 ELSE 1 END', 'fr.bdnb:ffo')},
        'height_m', ${sourced('3.0 + b % 18', 'fr.bdnb:bdtopo')}, 'materials', json_object('walls', 'pierre', 'roof', 'tuiles'))::VARCHAR AS attributes,
      x - ${h} AS min_lng, y - ${h} AS min_lat, x + ${h} AS max_lng, y + ${h} AS max_lat,
      '{"type":"Polygon","coordinates":[[' || ${[['-', '-'], ['+', '-'], ['+', '+'], ['-', '+'], ['-', '-']].map(([a, b]) => `'[' || (x ${a} ${h})::VARCHAR || ',' || (y ${b} ${h})::VARCHAR || ']'`).join(` || ',' || `)} || ']]}' AS geometry,
      'fr.rnb' AS source FROM bld`, 'id');
  await writePartitions(c, dataDir, 'buildings_cells', AREA_CELL_COLUMNS, `SELECT 'rnb-' || dep AS _p, ${parent9} AS cell, ${ZONE_COVER_RES} AS res, id, false AS interior FROM bld`, 'cell, id');
  // The RNB's links of each building: its addresses, its parcel, its RNB id (sorted by key in each department's file, as fr.buildings writes them).
  tables.building_links = await writePartitions(c, dataDir, 'building_links', BUILDING_LINK_COLUMNS, `SELECT 'rnb-' || dep AS _p, id AS building_id, 'address' AS kind, ban0 || '_00001' AS key FROM bld
      UNION ALL SELECT 'rnb-' || dep, id, 'address', ban0 || '_00002' FROM bld WHERE b % 10 = 0
      UNION ALL SELECT 'rnb-' || dep, id, 'parcel', parcel FROM bld UNION ALL SELECT 'rnb-' || dep, id, 'rnb', 'RNB' || lpad(b::VARCHAR, 9, '0') FROM bld`, 'key');
  const label = (ban: string) => `${ban} || ' rue de la Bench ' || commune`;
  tables.addresses = await writePartitions(c, dataDir, 'addresses', ADDRESS_COLUMNS, `SELECT 'ban-' || dep AS _p, aid AS id, cell15 AS cell, x AS longitude, y AS latitude, 1 + b % 200 AS number, NULL AS rep,
      'Rue de la Bench' AS street, commune AS postcode, commune AS locality_code, 'Commune ' || commune AS locality_name, ${label('aid')} AS label,
      'rue de la bench' AS street_key, 'commune ' || commune AS locality_key, 'entrée' AS position_kind, [parcel] AS parcels, 'fr.ban' AS source
    FROM (SELECT *, ban0 || '_00001' AS aid FROM bld UNION ALL SELECT *, ban0 || '_00002' FROM bld WHERE b % 10 = 0)`, 'cell, id');
  log(`buildings and addresses written: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Properties: five flats in one building in ten, a house in two in ten.
  await c.run(`CREATE TABLE props AS SELECT row_number() OVER (ORDER BY b, k) - 1 AS n, b, k, dep, parcel, commune, x, y, cell15, ban0,
      'prp_' || substr(md5('p' || b || '-' || k), 1, 20) AS id, CASE WHEN b % 10 = 0 THEN 'apartment' ELSE 'house' END AS type
    FROM bld, range(5) t(k) WHERE (b % 10 = 0) OR (b % 10 IN (1, 2) AND k = 0)`);
  const P = Number((await c.runAndReadAll('SELECT count(*)::BIGINT AS n FROM props')).getRowObjectsJS()[0]!.n);
  tables.properties = await writePartitions(c, dataDir, 'properties', PROPERTY_COLUMNS, `SELECT dep AS _p, id, 'bld_' || substr(md5('b' || b), 1, 20) AS building_id, type,
      CASE WHEN type = 'apartment' THEN lpad((k + 1)::VARCHAR, 3, '0') END AS lot, parcel, k AS floor, 30.0 + (n % 90) AS living_area_m2, 1 + n % 5 AS rooms,
      CASE WHEN type = 'apartment' THEN 29.5 + (n % 90) END AS carrez_area_m2, DATE '2014-01-01' + (n * 37 % 3900)::INTEGER AS last_event_on, dep AS department_code FROM props`, 'id');
  // Sales since 2014, each a property's (a property sold once or twice).
  await c.run(`CREATE TABLE sales_g AS SELECT s, p.*, DATE '2014-01-01' + ((s * 7907) % 3900)::INTEGER AS date FROM range(${S}) t(s) JOIN props p ON p.n = (s * 7919) % ${P}`);
  tables.sales = await writePartitions(c, dataDir, 'sales', SALE_COLUMNS, `SELECT strftime(date, '%Y') || '-' || dep AS _p, strftime(date, '%Y') || '-' || s AS id, date, 'Vente' AS nature, true AS market_sale,
      100000.0 + (s * 37 % 400000) AS price, type AS property_type, 1 AS dwellings, 20.0 + s % 120 AS surface, 1 + s % 5 AS rooms, (100000.0 + (s * 37 % 400000)) / (20.0 + s % 120) AS price_per_m2,
      NULL AS land_surface, 0 AS outbuildings, [parcel] AS parcels, CASE WHEN type = 'apartment' THEN [lpad((k + 1)::VARCHAR, 3, '0')] END AS lots,
      CASE WHEN type = 'apartment' THEN 19.5 + s % 120 END AS carrez_area, NULL AS units, ${label(`ban0 || '_00001'`)} AS address, commune AS commune_code, NULL AS arrondissement_code,
      dep AS department_code, '84' AS region_code, NULL AS iris_code, x AS longitude, y AS latitude, 'parcel' AS position_source, cell15 AS cell, 'fr.dvf' AS source FROM sales_g`, 'cell');
  log(`properties and sales written (${P}, ${S}): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Diagnoses at the buildings' first address; one in twenty replaced.
  await c.run(`CREATE TABLE diag_g AS SELECT d, bld.*, '23' || lpad((d % 97)::VARCHAR, 2, '0') || 'E' || lpad(d::VARCHAR, 8, '0') AS number, DATE '2021-07-01' + (d % 1200)::INTEGER AS date,
      CASE WHEN hash(d) % 4 = 0 THEN 'dpe_v2_new' ELSE 'dpe_v2_existing' END AS scheme, p.id AS property_id
    FROM range(${D}) t(d) JOIN bld ON bld.b = (d * 104729) % ${B}
    LEFT JOIN props p ON p.b = bld.b AND p.k = CASE WHEN bld.b % 10 = 0 THEN d % 5 ELSE 0 END`);
  const cls = (e: string) => `chr((65 + (${e}) % 7)::INTEGER)`;
  tables.diagnoses = await writePartitions(c, dataDir, 'diagnoses', DIAGNOSIS_COLUMNS, `SELECT scheme || '-' || dep AS _p, number, NULL AS replaces, d % 20 = 0 AS superseded, 'evt_' || substr(md5('d' || d), 1, 20) AS event_id,
      date, scheme, 'dwelling' AS level, CASE WHEN b % 10 = 0 THEN 'apartment' ELSE 'house' END AS dwelling_type, ${cls('d')} AS energy_class, 50.0 + d % 400 AS energy_per_m2,
      ${cls('d + 3')} AS climate_class, 5.0 + d % 80 AS climate_per_m2, 20.0 + d % 150 AS surface, d % 6 AS floor, 'Électricité' AS heating_energy, 'individuel' AS heating_system,
      NULL AS building_number, NULL AS rpls, NULL AS tax_invariant, NULL AS copro_number, 1850 + b % 170 AS construction_year, 1 + b % 6 AS building_levels,
      CASE WHEN b % 10 = 0 THEN 5 ELSE 1 END AS building_dwellings, ban0 || '_00001' AS ban_id, ${label(`ban0 || '_00001'`)} AS address, commune AS commune_code, dep AS department_code,
      x AS longitude, y AS latitude, 'fr.dpe' AS source FROM diag_g`, 'number');
  tables.property_events = await writePartitions(c, dataDir, 'property_events', PROPERTY_EVENT_COLUMNS, `SELECT dep AS _p, id AS property_id, 'evt_' || substr(md5('s' || s), 1, 20) AS event_id, 'sale' AS type, date, 'sure' AS level,
      CASE WHEN type = 'apartment' THEN 'lot_in_deed' ELSE 'parcel_in_deed' END AS reason, strftime(date, '%Y') || '-' || s AS ref, NULL AS part, dep AS department_code FROM sales_g
    UNION ALL SELECT dep, property_id, 'evt_' || substr(md5('d' || d), 1, 20), 'energy_diagnosis', date, 'sure', 'dwelling_in_diagnosis', number, NULL, dep FROM diag_g WHERE property_id IS NOT NULL`, 'property_id');
  log(`diagnoses and events written (${D}): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const points = (await c.runAndReadAll(`SELECT x, y, ban0 FROM bld USING SAMPLE reservoir(${queries} ROWS) REPEATABLE (17)`)).getRowObjectsJS() as { x: number; y: number; ban0: string }[];
  const counts = (await c.runAndReadAll(`SELECT (SELECT count(*) FROM bld)::BIGINT AS buildings, (SELECT count(*) FROM props)::BIGINT AS properties, (SELECT count(*) FROM sales_g)::BIGINT AS sales,
    (SELECT count(*) FROM diag_g)::BIGINT AS diagnoses, (SELECT count(*) FROM diag_g WHERE property_id IS NOT NULL)::BIGINT + (SELECT count(*) FROM sales_g)::BIGINT AS events`)).getRowObjectsJS()[0]!;
  c.closeSync(); db.closeSync();
  await rm(tmp, { recursive: true, force: true });
  // Inside the footprint (the middle 80 %), reproducibly.
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return {
    seconds: +((performance.now() - t0) / 1000).toFixed(1), partitions: tables, counts: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
    // Every other point an official address found at its number (its building by the RNB's link), the others positions (by the footprint).
    points: points.map((p, i) => ({ latitude: p.y + (rand() - 0.5) * 1.6 * h, longitude: p.x + (rand() - 0.5) * 1.6 * h, address_id: i % 2 ? `${p.ban0}_00001` : null })),
  };
}

/**
 * What a child process runs over the tree `tree` (this one, or an extract of the commit before):
 * open the warehouse, wait for the building reads' index (the stores here; main's in-memory index,
 * not built past 6 M rows), then for each point the report's building and property: buildingIdAt,
 * buildingRecord, describeBuilding, reportProperty, describeProperty. Prints times, RSS and a
 * digest of each answer.
 */
const CHILD = `
const [tree, dataDir, pointsFile] = process.argv.slice(-3);
const { readFileSync } = await import('node:fs');
const { createHash } = await import('node:crypto');
const { openWarehouse } = await import(tree + '/api/core/warehouse.ts');
const { buildingIdAt } = await import(tree + '/api/location/buildings.ts');
const { buildingRecord, describeBuilding } = await import(tree + '/api/location/domains/building/fr.ts');
const { buildingIndexReady } = await import(tree + '/api/location/domains/building/building-index.ts');
const { reportProperty, describeProperty } = await import(tree + '/api/location/domains/property/fr.ts');
const { createManifests } = await import(tree + '/api/core/manifests.ts');
const { createZoneLookup } = await import(tree + '/api/location/zones/lookup.ts');
const points = JSON.parse(readFileSync(pointsFile, 'utf8'));
const mb = (b) => Math.round(b / 2 ** 20);
const warehouse = await openWarehouse(dataDir, { tables: ['buildings', 'buildings_cells', 'building_links', 'diagnoses', 'sales', 'property_events', 'properties', 'addresses', 'copro', 'id_registry', 'id_merges'], memoryTables: {} });
const clock = { now: () => new Date('2026-11-27T00:00:00Z') };
const deps = { warehouse, zones: createZoneLookup(warehouse), manifests: createManifests(dataDir), clock };
const rss_open_mb = mb(process.memoryUsage().rss);
let t = performance.now();
const index = await buildingIndexReady(warehouse);
const index_s = (performance.now() - t) / 1000;
const rss_index_mb = mb(process.memoryUsage().rss);
const times = [], digests = [];
let found = 0, withProperty = 0;
for (const p of points) {
  t = performance.now();
  const point = { precision: p.address_id ? 'address' : 'input', latitude: p.latitude, longitude: p.longitude, parcel: null };
  const id = await buildingIdAt(warehouse, point, p.address_id);
  const record = id ? await buildingRecord(warehouse, id) : null;
  let building = null, property = null;
  if (id && record) {
    found++;
    building = (await describeBuilding(deps, id, record, 'fr')).value;
    const chosen = await reportProperty(deps, { location: { ...point, building_id: id } });
    if (chosen.property) { withProperty++; property = (await describeProperty(warehouse, clock, chosen.property, 'fr')).value; }
  }
  times.push(performance.now() - t);
  digests.push(createHash('sha256').update(JSON.stringify([id, building, property])).digest('hex').slice(0, 16));
}
const rss_end_mb = mb(process.memoryUsage().rss);
await warehouse.close();
console.log(JSON.stringify({ index: index ? { rows: index.rows ?? null, bytes: index.bytes ?? null, blocks: index.blocks ?? null, written: index.written ?? null } : null, index_s, found, withProperty, times, digests,
  rss_open_mb, rss_index_mb, rss_end_mb, peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024) }));
`;

type ChildResult = { index: { rows: number | null; bytes: number | null; blocks: number | null; written?: { stores: number; input_bytes: number; peak_rss_mb: number | null } | null } | null; index_s: number; found: number; withProperty: number; times: number[]; digests: string[];
  rss_open_mb: number; rss_index_mb: number; rss_end_mb: number; peak_rss_mb: number };

function runChild(tree: string, dataDir: string, pointsFile: string): ChildResult & { load: number[] } {
  const load = loadavg().map((x) => +x.toFixed(1));
  const r = spawnSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', '--input-type=module', '-e', CHILD, '--', tree, dataDir, pointsFile], { encoding: 'utf8', cwd: tree, maxBuffer: 1e9 });
  if (r.status !== 0) throw new Error(`${tree}: ${r.stderr.slice(-3000)}`);
  return { ...(JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult), load };
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1); };

/**
 * `npm run bench -- building-reads [--scale F] [--queries N] [--before REF] [--after REF] [--keep DIR]`:
 * national-shaped tables at F of the national counts (kept in DIR and reused), then N reports'
 * building and property at points inside buildings, in child processes: the tree of the commit
 * before (default main: its SQL path past 6 M rows), the tree after (default HEAD) writing its
 * stores, and again reusing them (a restart). Times, RSS, the load
 * average at each run, and whether the answers are identical.
 */
export async function benchBuildingReads(scale: number, queries: number, o: { before?: string; after?: string; keep?: string } = {}, log: (s: string) => void = () => {}) {
  const root = o.keep ?? await mkdtemp(join(tmpdir(), 'bench-building-reads-'));
  const dataDir = join(root, 'data');
  try {
    const pointsFile = join(root, 'points.json'), generatedFile = join(root, 'generated.json');
    // Kept data is reused when its scale and points are those asked.
    let generated: { seconds: number; counts: Record<string, number>; partitions: Record<string, number>; scale?: number; points?: unknown[]; version?: number } | null =
      existsSync(generatedFile) ? JSON.parse(readFileSync(generatedFile, 'utf8')) : null;
    // (Tables kept before the building links were generated, version 1, are generated again.)
    if (!generated || generated.scale !== scale || generated.points?.length !== queries || generated.version !== 2) {
      rmSync(dataDir, { recursive: true, force: true });
      generated = { ...await generateBuildingTables(dataDir, scale, queries, log), scale, version: 2 };
      writeFileSync(generatedFile, JSON.stringify(generated));
    } else log(`reusing the tables of ${dataDir}`);
    writeFileSync(pointsFile, JSON.stringify(generated.points));
    rmSync(join(dataDir, '.index'), { recursive: true, force: true });
    const diskMb = Math.round(Number(execSync(`du -sb ${JSON.stringify(join(dataDir, 'tables'))}`, { encoding: 'utf8' }).split('\t')[0]) / 2 ** 20);
    // Both trees extracted from their commits (no checkout of any working tree), with this tree's modules:
    // the working tree may change while the bench runs.
    const extract = (ref: string, name: string) => {
      const dir = join(root, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      execSync(`git archive ${ref} | tar -x -C ${JSON.stringify(dir)}`, { cwd: REPO });
      symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
      return { dir, label: `${ref} (${execSync(`git rev-parse --short ${ref}`, { cwd: REPO, encoding: 'utf8' }).trim()})` };
    };
    const before = extract(o.before ?? 'main', 'before'), after = extract(o.after ?? 'HEAD', 'after');
    log(`generated in ${generated.seconds} s (${diskMb} MB of Parquet); before: ${before.label}, after: ${after.label}`);
    const runs: Record<string, ChildResult & { load: number[] }> = {};
    runs.before = runChild(before.dir, dataDir, pointsFile);
    log(`before: p50 ${pct(runs.before.times, 0.5)} ms`);
    // A first start of the tree after: the stores the tree before wrote are not reused (the same format names them alike).
    rmSync(join(dataDir, '.index'), { recursive: true, force: true });
    runs.after_first = runChild(after.dir, dataDir, pointsFile);
    log(`after (stores written): p50 ${pct(runs.after_first.times, 0.5)} ms, ${runs.after_first.index_s.toFixed(1)} s to write`);
    runs.after_restart = runChild(after.dir, dataDir, pointsFile);
    const storesMb = Math.round(Number(execSync(`du -sb ${JSON.stringify(join(dataDir, '.index'))}`, { encoding: 'utf8' }).split('\t')[0]) / 2 ** 20);
    const same = (a: ChildResult, b: ChildResult) => a.digests.filter((d, i) => d === b.digests[i]).length;
    const summary = (r: ChildResult & { load: number[] }) => ({
      p50_ms: pct(r.times, 0.5), p99_ms: pct(r.times, 0.99), mean_ms: +(r.times.reduce((s, x) => s + x, 0) / r.times.length).toFixed(1), found: r.found, with_property: r.withProperty,
      index: r.index, index_s: +r.index_s.toFixed(1), rss_open_mb: r.rss_open_mb, rss_index_mb: r.rss_index_mb, rss_end_mb: r.rss_end_mb, peak_rss_mb: r.peak_rss_mb, load_avg: r.load,
    });
    return {
      scale, queries, generated: { seconds: generated.seconds, ...generated.counts, partitions: generated.partitions, parquet_mb: diskMb }, before_ref: before.label, after_ref: after.label,
      before: summary(runs.before), after_first_start: summary(runs.after_first), after_restart: summary(runs.after_restart), stores_mb: storesMb,
      identical_answers: { after_vs_before: same(runs.after_first, runs.before), restart_vs_before: same(runs.after_restart, runs.before), of: queries },
      ratio_p50: +(pct(runs.before.times, 0.5) / pct(runs.after_restart.times, 0.5)).toFixed(1), ratio_p99: +(pct(runs.before.times, 0.99) / pct(runs.after_restart.times, 0.99)).toFixed(1),
    };
  } finally {
    if (!o.keep) await rm(root, { recursive: true, force: true });
  }
}
