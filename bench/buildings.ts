import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse } from '../api/core/warehouse.ts';
import { buildingIdAt } from '../api/location/buildings.ts';
import { buildingRecord, describeBuilding } from '../api/location/domains/building/fr.ts';
import { buildingIndexReady } from '../api/location/domains/building/building-index.ts';
import { createManifests } from '../api/core/manifests.ts';
import { createZoneLookup } from '../api/location/zones/lookup.ts';
import { fromWgs84 } from '../ingest/core/reproject.ts';
import { rng } from './generate.ts';
import { partitionPath, publishedPartitions } from '../schemas/tables/layout.ts';
import { SALE_COLUMNS } from '../schemas/tables/sales.ts';
import { ZONE_COVER_RES } from '../schemas/tables/zones.ts';
import { coverZone } from '../ingest/core/zone-cover.ts';

const P = 0.00018; // parcel side in degrees of latitude (about 20 m)
const PER_COMMUNE = 10_000;
const COLS = 100; // parcels per row of a commune's grid

/** Writes lines to a file as they are generated, waiting when the stream asks to. */
export function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createWriteStream(path, 'utf8');
    s.on('error', reject);
    (async () => { for (const l of lines) if (!s.write(l)) await new Promise<void>((r) => s.once('drain', () => r())); s.end(() => resolve()); })().catch(reject);
  });
}

/** Parcel i of commune c: a square of the commune's grid (communes side by side). */
function parcelBox(c: number, i: number): [number, number, number, number] {
  const x0 = 2 + (c % 50) * COLS * P * 1.5, y0 = 46 + Math.floor(c / 50) * (PER_COMMUNE / COLS) * P;
  const x = x0 + (i % COLS) * P * 1.4, y = y0 + Math.floor(i / COLS) * P;
  return [x, y, x + P * 1.4, y + P];
}
const commune = (c: number) => `01${String(c + 1).padStart(3, '0')}`;

/** Runs one ingest in its own process: seconds and peak RSS. */
function measured(code: string): { seconds: number; peak_rss_mb: number } {
  const t = performance.now();
  const r = spawnSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', '-e', `${code}\nconsole.log(JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }));`], { encoding: 'utf8', cwd: join(import.meta.dirname, '..'), maxBuffer: 1e8 });
  if (r.status !== 0) throw new Error(r.stderr.slice(-2000));
  const { maxRSS } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return { seconds: +((performance.now() - t) / 1000).toFixed(1), peak_rss_mb: Math.round(maxRSS / 1024) };
}

/**
 * Buildings at scale, generated: `parcels` cadastre parcels in communes of 10,000 (one file each),
 * one building per `parcelsPerBuilding` parcels (RNB + BDNB), one diagnosis per building (DPE,
 * Lambert-93), then building reports at random points inside buildings.
 */
export async function benchBuildings(parcels: number, parcelsPerBuilding: number, queries: number, o: { cadastre?: boolean; salesPerBuilding?: number } = {}) {
  const { cadastre: withCadastre = true, salesPerBuilding = 0 } = o;
  const root = await mkdtemp(join(tmpdir(), 'bench-buildings-'));
  const dataDir = join(root, 'data');
  const ctx = `{ dataDir: ${JSON.stringify(dataDir)}, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: { write: () => true, isTTY: false } }`;
  const communes = Math.ceil(parcels / PER_COMMUNE);
  await mkdir(join(root, 'cadastre'), { recursive: true });
  const tGen = performance.now();
  for (let c = 0; c < communes; c++) {
    const n = Math.min(PER_COMMUNE, parcels - c * PER_COMMUNE);
    await writeLines(join(root, 'cadastre', `cadastre-${commune(c)}-parcelles.json`), (function* () {
      yield '{"type":"FeatureCollection","features":[\n';
      for (let i = 0; i < n; i++) {
        const [x0, y0, x1, y1] = parcelBox(c, i);
        const id = `${commune(c)}000AB${String(i).padStart(4, '0')}`;
        yield `${i ? ',\n' : ''}{"type":"Feature","id":"${id}","geometry":{"type":"Polygon","coordinates":[[[${x0},${y0}],[${x1},${y0}],[${x1},${y1}],[${x0},${y1}],[${x0},${y0}]]]},"properties":{"id":"${id}","commune":"${commune(c)}","prefixe":"000","section":"AB","numero":"${i}","contenance":${400 + (i % 300)}}}`;
      }
      yield ']}\n';
    })());
  }
  const toL93 = fromWgs84('EPSG:2154');
  const buildings: { rnb: string; x: number; y: number; ban: string; parcel: string }[] = [];
  for (let k = 0; k * parcelsPerBuilding < parcels; k++) {
    const i = k * parcelsPerBuilding, c = Math.floor(i / PER_COMMUNE), j = i % PER_COMMUNE;
    const [x0, y0, x1, y1] = parcelBox(c, j);
    buildings.push({ rnb: `B${String(k).padStart(11, '0')}`, x: (x0 + x1) / 2, y: (y0 + y1) / 2, ban: `${commune(c)}_b${String(j).padStart(3, '0')}_00001`, parcel: `${commune(c)}000AB${String(j).padStart(4, '0')}` });
  }
  const h = P * 0.3;
  await writeLines(join(root, 'RNB_01.csv'), (function* () {
    yield 'rnb_id;point;shape;status;ext_ids;addresses\n';
    for (const b of buildings) yield `${b.rnb};POINT (${b.x} ${b.y});POLYGON ((${b.x - h} ${b.y - h}, ${b.x + h} ${b.y - h}, ${b.x + h} ${b.y + h}, ${b.x - h} ${b.y + h}, ${b.x - h} ${b.y - h}));constructed;"[]";"[{""id"":""${b.ban}"",""source"":""ban""}]"\n`;
  })());
  await writeLines(join(root, 'bdnb_01.csv'), (function* () {
    yield 'batiment_groupe_id,code_departement_insee,code_commune_insee,rnb_id,parcelle_unifiee_id,s_geom_groupe,ffo_bat_annee_construction,ffo_bat_nb_log,ffo_bat_nb_niveau,ffo_bat_mat_mur_txt,ffo_bat_mat_toit_txt,ffo_bat_usage_niveau_1_txt,bdtopo_bat_hauteur_mean\n';
    for (const [k, b] of buildings.entries()) yield `bdnb-bg-${k},01,${b.parcel.slice(0, 5)},${b.rnb},${b.parcel},150,${1900 + (k % 120)},${1 + (k % 30)},${1 + (k % 8)},PIERRE,TUILES,Résidentiel collectif,${(3 + (k % 25)).toFixed(1)}\n`;
  })());
  const header = ['N°DPE', 'Date_établissement_DPE', 'N°_DPE_remplacé', 'N°_DPE_immeuble_associé', 'N°_RPLS_logement', 'Invariant_fiscal_logement', 'N°_immatriculation_copropriété', 'Etiquette_DPE', 'Etiquette_GES', 'Conso_5_usages_par_m²_é_primaire', 'Emission_GES_5_usages_par_m²', 'Type_bâtiment', 'Surface_habitable_logement', 'Surface_habitable_immeuble', 'N°_étage_appartement', 'Type_énergie_principale_chauffage', 'Type_installation_chauffage', 'Identifiant__BAN', 'Adresse_(BAN)', 'Code_INSEE_(BAN)', 'N°_département_(BAN)', 'Coordonnée_cartographique_X_(BAN)', 'Coordonnée_cartographique_Y_(BAN)'];
  const rand = rng(7);
  await writeLines(join(root, 'dpe.csv'), (function* () {
    yield `\uFEFF${header.map((c) => `"${c}"`).join(',')}\n`;
    for (const [k, b] of buildings.entries()) {
      const [x, y] = toL93([b.x, b.y]);
      yield `"2401E${String(k).padStart(7, '0')}A","2024-03-01",,,,,,"${'ABCDEFG'[k % 7]}","C",${Math.round(80 + rand() * 300)},12.5,"appartement",${(30 + (k % 90)).toFixed(1)},,${k % 6},"Gaz naturel","collectif","${b.ban}","1 rue X","${b.parcel.slice(0, 5)}","01",${x.toFixed(2)},${y.toFixed(2)}\n`;
    }
  })());
  const generate_s = +((performance.now() - tGen) / 1000).toFixed(1);

  // The cadastre's cover of a parcel, with and without the shortcut for shapes narrower than a cell, in this process.
  const coverTimes = (shortcut: boolean) => {
    const n = Math.min(parcels, 20_000), t = performance.now();
    for (let i = 0; i < n; i++) {
      const [x0, y0, x1, y1] = parcelBox(Math.floor(i / PER_COMMUNE), i % PER_COMMUNE);
      coverZone({ type: 'Polygon', coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]] }, ZONE_COVER_RES, { smallShortcut: shortcut });
    }
    return Math.round(n / ((performance.now() - t) / 1000));
  };
  const cover_parcels_per_s = { walk: coverTimes(false), shortcut: coverTimes(true) };
  // The commune files as one folder run, as `fr.cadastre --input DIR` reads them.
  const cadastre = !withCadastre ? null : measured(`const { ingestCadastreFiles } = await import('./ingest/fr/cadastre.ts'); const { readdirSync } = await import('node:fs');
    await ingestCadastreFiles(${ctx}, readdirSync(${JSON.stringify(join(root, 'cadastre'))}).sort().map((f) => ({ path: ${JSON.stringify(join(root, 'cadastre'))} + '/' + f })));`);
  const rnb = measured(`const { ingestBuildings } = await import('./ingest/fr/buildings.ts'); await ingestBuildings(${ctx}, { rnb: { path: ${JSON.stringify(join(root, 'RNB_01.csv'))} }, bdnb: { path: ${JSON.stringify(join(root, 'bdnb_01.csv'))} } });`);
  const dpe = measured(`const { ingestDpe } = await import('./ingest/fr/dpe.ts'); await ingestDpe(${ctx}, { path: ${JSON.stringify(join(root, 'dpe.csv'))} });`);
  const reingest = measured(`const { ingestBuildings } = await import('./ingest/fr/buildings.ts'); await ingestBuildings(${ctx}, { rnb: { path: ${JSON.stringify(join(root, 'RNB_01.csv'))} }, bdnb: { path: ${JSON.stringify(join(root, 'bdnb_01.csv'))} } });`);
  // Sales on the buildings' parcels since 2014 (one attached property event each), written as
  // fr.dvf and fr.properties publish them: sorted by cell, so a parcel's sales are spread over the file.
  const sales = salesPerBuilding * buildings.length;
  const tSales = performance.now();
  if (sales > 0) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(`CREATE TABLE b AS SELECT * FROM (VALUES ${buildings.map((b, k) => `(${k}, '${b.parcel}')`).join(', ')}) t(k, parcel)`);
    const cols: Record<keyof typeof SALE_COLUMNS, string> = {
      id: `'bs-' || i`, date: `DATE '2014-01-01' + CAST(i % 3900 AS INTEGER)`, nature: `'Vente'`, market_sale: 'true', price: '200000 + (i % 700) * 1000', property_type: `'apartment'`,
      dwellings: '1', surface: '20 + i % 90', rooms: '1 + i % 5', price_per_m2: '(200000 + (i % 700) * 1000) / (20 + i % 90)', land_surface: 'NULL', outbuildings: '0',
      parcels: '[b.parcel]', lots: `[CAST(1 + i % 40 AS VARCHAR)]`, carrez_area: '19 + i % 90', units: 'NULL', address: `'1 RUE X'`, commune_code: 'substr(b.parcel, 1, 5)',
      arrondissement_code: 'NULL', department_code: `'01'`, region_code: `'84'`, iris_code: 'NULL', longitude: 'NULL', latitude: 'NULL', position_source: 'NULL', cell: 'hash(i) % 1000000000', source: `'bench'`,
    };
    await mkdir(join(dataDir, 'tables', 'sales', 'country=fr'), { recursive: true });
    await mkdir(join(dataDir, 'tables', 'property_events', 'country=fr'), { recursive: true });
    await c.run(`COPY (SELECT ${Object.entries(cols).map(([k, e]) => `CAST(${e} AS ${SALE_COLUMNS[k as keyof typeof SALE_COLUMNS]}) AS ${k}`).join(', ')}
      FROM range(${sales}) t(i) JOIN b ON b.k = i % ${buildings.length} ORDER BY cell) TO '${partitionPath(dataDir, 'fr', 'sales', '2020-01')}' (FORMAT parquet, ROW_GROUP_SIZE 8192)`);
    await c.run(`COPY (SELECT 'prp_' || lpad(CAST(i AS VARCHAR), 20, '0') AS property_id, 'evt_' || lpad(CAST(i AS VARCHAR), 20, '0') AS event_id, 'sale' AS type,
        DATE '2014-01-01' + CAST(i % 3900 AS INTEGER) AS date, 'sure' AS level, 'lot_in_deed' AS reason, 'bs-' || i AS ref, NULL::VARCHAR AS part, '01' AS department_code
      FROM range(${sales}) t(i) ORDER BY property_id) TO '${partitionPath(dataDir, 'fr', 'property_events', '01')}' (FORMAT parquet, ROW_GROUP_SIZE 8192)`);
    c.closeSync(); db.closeSync();
  }
  const sales_s = +((performance.now() - tSales) / 1000).toFixed(1);
  // The registry is sharded (bld-rnb-01, evt-dpe-01...): the bytes of every shard of a kind.
  const bytesOf = async (kind: string) => { let n = 0; for (const [p, f] of publishedPartitions(dataDir, 'fr', 'id_registry')) if (p === kind || p.startsWith(`${kind}-`)) n += (await stat(f)).size; return n; };
  const registry = { bld_bytes: await bytesOf('bld'), evt_bytes: await bytesOf('evt') };

  const warehouse = await openWarehouse(dataDir, { tables: ['parcels', 'parcels_cells', 'buildings', 'buildings_cells', 'building_links', 'diagnoses', 'sales', 'property_events', 'properties', 'copro', 'id_registry', 'id_merges'], memoryTables: {} });
  // No zones, market or hazard tables here: the building's place fields answer unavailable, as on a service without them.
  const deps = { warehouse, zones: createZoneLookup(warehouse), manifests: createManifests(dataDir), clock: { now: () => new Date() } };
  const tIndex = performance.now();
  const index = await buildingIndexReady(warehouse);
  const index_build_s = +((performance.now() - tIndex) / 1000).toFixed(1);
  // Each query answered twice in the same process, in rotating order: from the in-memory index,
  // and by SQL (the path before it), so the shared machine's load weighs on both alike.
  const times: number[] = [], sqlTimes: number[] = [];
  let found = 0;
  for (let q = 0; q < queries; q++) {
    const b = buildings[Math.floor(rand() * buildings.length)]!;
    const point = { precision: 'input' as const, latitude: b.y + (rand() - 0.5) * h, longitude: b.x + (rand() - 0.5) * h, parcel: null };
    for (const useIndex of q % 2 === 0 ? [true, false] : [false, true]) {
      const t = performance.now();
      const id = await buildingIdAt(warehouse, point);
      const rec = id ? await buildingRecord(warehouse, id) : null;
      if (id && rec) { await describeBuilding(deps, id, rec, 'fr', useIndex ? index : null); if (useIndex) found++; }
      (useIndex ? times : sqlTimes).push(performance.now() - t);
    }
  }
  await warehouse.close();
  times.sort((a, b) => a - b);
  sqlTimes.sort((a, b) => a - b);
  await rm(root, { recursive: true, force: true });
  return {
    parcels, buildings: buildings.length, diagnoses: buildings.length, sales, generate_s, sales_s,
    cover_parcels_per_s, ingest: { cadastre, buildings: rnb, dpe, buildings_again: reingest },
    registry: { keys: buildings.length * 2 + buildings.length, ...registry },
    building_at_point: { queries, found, index_rows: index?.rows ?? null, index_build_s, p50_ms: +times[Math.floor(times.length / 2)]!.toFixed(1), p99_ms: +times[Math.floor(times.length * 0.99)]!.toFixed(1) },
    building_at_point_sql: { p50_ms: +sqlTimes[Math.floor(sqlTimes.length / 2)]!.toFixed(1), p99_ms: +sqlTimes[Math.floor(sqlTimes.length * 0.99)]!.toFixed(1) },
  };
}
