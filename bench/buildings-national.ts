import { execSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { fromWgs84 } from '../ingest/core/reproject.ts';
import { partitionPath, tableDir } from '../schemas/tables/layout.ts';
import { SALE_COLUMNS } from '../schemas/tables/sales.ts';
import { writeLines as write } from './buildings.ts';

const REPO = join(import.meta.dirname, '..');
const STEP = 0.0002; // spacing of generated buildings in degrees (about 20 m)
const ROW = 500; // buildings per row of a department's grid

/** Metropolitan department codes in order (numeric ones: the generated keys embed them as digits). */
const departmentCode = (i: number) => String(i + 1 + (i >= 19 ? 1 : 0)).padStart(2, '0');

/** The i-th generated building of a department: RNB id, position, BAN address, parcel. */
function building(dep: string, d: number, k: number) {
  // Departments side by side over metropolitan France's extent, each a grid of buildings.
  const x0 = -1.5 + (d % 10) * 0.8, y0 = 43.5 + Math.floor(d / 10) * 0.6;
  const x = x0 + (k % ROW) * STEP, y = y0 + Math.floor(k / ROW) * STEP;
  const commune = `${dep}${String(1 + Math.floor(k / 2000)).padStart(3, '0')}`;
  return { rnb: `${dep}${k.toString(36).toUpperCase().padStart(10, '0')}`, x, y, ban: `${commune}_${String(k).padStart(6, '0')}_00001`, parcel: `${commune}000AB${String(k % 2000).padStart(4, '0')}` };
}

export interface NationalSizes { departments: number; buildings: number; diagnoses: number; sales: number }

/** One department's source files as the producers publish them (RNB, BDNB compiled export, DPE v2 existing dwellings). */
export async function generateDepartment(dir: string, d: number, n: NationalSizes): Promise<void> {
  const dep = departmentCode(d);
  const h = STEP * 0.3;
  await write(join(dir, `RNB_${dep}.csv`), (function* () {
    yield 'rnb_id;point;shape;status;ext_ids;addresses\n';
    for (let k = 0; k < n.buildings; k++) {
      const b = building(dep, d, k);
      yield `${b.rnb};POINT (${b.x} ${b.y});POLYGON ((${b.x - h} ${b.y - h}, ${b.x + h} ${b.y - h}, ${b.x + h} ${b.y + h}, ${b.x - h} ${b.y + h}, ${b.x - h} ${b.y - h}));constructed;"[]";"[{""id"":""${b.ban}"",""source"":""ban""}]"\n`;
    }
  })());
  await write(join(dir, `bdnb_${dep}.csv`), (function* () {
    yield 'batiment_groupe_id,code_departement_insee,code_commune_insee,rnb_id,parcelle_unifiee_id,s_geom_groupe,ffo_bat_annee_construction,ffo_bat_nb_log,ffo_bat_nb_niveau,ffo_bat_mat_mur_txt,ffo_bat_mat_toit_txt,ffo_bat_usage_niveau_1_txt,bdtopo_bat_hauteur_mean\n';
    for (let k = 0; k < n.buildings; k++) {
      const b = building(dep, d, k);
      yield `bdnb-bg-${dep}-${k},${dep},${b.parcel.slice(0, 5)},${b.rnb},${b.parcel},150,${1900 + (k % 120)},${1 + (k % 30)},${1 + (k % 8)},PIERRE,TUILES,Résidentiel collectif,${(3 + (k % 25)).toFixed(1)}\n`;
    }
  })());
  const header = ['N°DPE', 'Date_établissement_DPE', 'N°_DPE_remplacé', 'N°_DPE_immeuble_associé', 'N°_RPLS_logement', 'Invariant_fiscal_logement', 'N°_immatriculation_copropriété', 'Etiquette_DPE', 'Etiquette_GES', 'Conso_5_usages_par_m²_é_primaire', 'Emission_GES_5_usages_par_m²', 'Type_bâtiment', 'Surface_habitable_logement', 'Surface_habitable_immeuble', 'N°_étage_appartement', 'Type_énergie_principale_chauffage', 'Type_installation_chauffage', 'Identifiant__BAN', 'Adresse_(BAN)', 'Code_INSEE_(BAN)', 'N°_département_(BAN)', 'Coordonnée_cartographique_X_(BAN)', 'Coordonnée_cartographique_Y_(BAN)', 'Année_construction', 'Période_construction'];
  const toL93 = fromWgs84('EPSG:2154');
  await write(join(dir, `dpe_${dep}.csv`), (function* () {
    yield `\uFEFF${header.map((c) => `"${c}"`).join(',')}\n`;
    for (let k = 0; k < n.diagnoses; k++) {
      // Dwellings of the buildings: one in twenty corrects an earlier diagnosis, three in ten name their tax invariant.
      const j = (k * 7) % n.buildings, b = building(dep, d, j);
      const [x, y] = toL93([b.x, b.y]);
      const replaces = k % 20 === 0 ? `23${dep}E${String(k).padStart(7, '0')}B` : '';
      const invariant = k % 10 < 3 ? `"${dep}${String(k).padStart(8, '0')}"` : '';
      yield `"24${dep}E${String(k).padStart(7, '0')}A","2024-03-01",${replaces ? `"${replaces}"` : ''},,,${invariant},,"${'ABCDEFG'[k % 7]}","C",${80 + (k % 300)},12.5,"appartement",${20 + (Math.floor(k / n.buildings) * 7 + j) % 90},,${k % 6},"Gaz naturel","collectif","${b.ban}","1 rue X","${b.parcel.slice(0, 5)}","${dep}",${x.toFixed(2)},${y.toFixed(2)},${1900 + (k % 120)},"1948-1974"\n`;
    }
  })());
}

/** A department's DVF sales as fr.dvf publishes them (one flat of one lot each, on the buildings' parcels), written into `dataDir`. */
export async function writeSales(c: import('@duckdb/node-api').DuckDBConnection, dataDir: string, d: number, n: NationalSizes): Promise<void> {
  const dep = departmentCode(d);
  const commune = `'${dep}' || lpad(CAST(1 + (i % ${n.buildings}) // 2000 AS VARCHAR), 3, '0')`;
  const parcel = `${commune} || '000AB' || lpad(CAST((i % ${n.buildings}) % 2000 AS VARCHAR), 4, '0')`;
  const cols: Record<keyof typeof SALE_COLUMNS, string> = {
    id: `'${dep}-' || i`, date: `DATE '2014-01-01' + CAST(i % 3900 AS INTEGER)`, nature: `'Vente'`, market_sale: 'true', price: '200000 + (i % 700) * 1000', property_type: `'apartment'`,
    // Surfaces as the diagnoses' of the same building, so that some attach `probable`.
    dwellings: '1', surface: `20 + ((i // ${n.buildings}) * 7 + i % ${n.buildings}) % 90`, rooms: '1 + i % 5', price_per_m2: '(200000 + (i % 700) * 1000) / (20 + i % 90)', land_surface: 'NULL', outbuildings: '0',
    parcels: `[${parcel}]`, lots: `[CAST(1 + (i // ${n.buildings}) % 40 AS VARCHAR)]`, carrez_area: '19 + i % 90', units: 'NULL', address: `'1 RUE X'`, commune_code: commune,
    arrondissement_code: 'NULL', department_code: `'${dep}'`, region_code: `'84'`, iris_code: 'NULL', longitude: 'NULL', latitude: 'NULL', position_source: 'NULL', cell: 'hash(i) % 1000000000', source: `'bench'`,
  };
  await mkdir(tableDir(dataDir, 'fr', 'sales'), { recursive: true });
  await c.run(`COPY (SELECT ${Object.entries(cols).map(([k, e]) => `CAST(${e} AS ${SALE_COLUMNS[k as keyof typeof SALE_COLUMNS]}) AS ${k}`).join(', ')}
    FROM range(${n.sales}) t(i) ORDER BY cell) TO ${quotedString(partitionPath(dataDir, 'fr', 'sales', `bench-${dep}`))} (FORMAT parquet, ROW_GROUP_SIZE 65536)`);
}

/**
 * The registry the nation's other departments would have left: `departments` departments' keys
 * (an RNB and a BDNB key per building, a DPE key per diagnosis and one in twenty replaced), with
 * the ids the jobs give them, written as each tree keeps them: one partition per kind (`bld`,
 * `evt`: the tree before the shards) or one per department and source (`bld-rnb-<dep>`,
 * `evt-dpe-<dep>`). Departments numbered after the run's, so no key is shared with them.
 */
async function prefillRegistry(c: import('@duckdb/node-api').DuckDBConnection, dataDir: string, first: number, departments: number, n: NationalSizes, sharded: boolean): Promise<void> {
  await mkdir(tableDir(dataDir, 'fr', 'id_registry'), { recursive: true });
  const keys = (kind: 'bld' | 'evt', d: number) => {
    const dep = departmentCode(d);
    const rows = kind === 'bld'
      ? `SELECT 'rnb:' || '${dep}' || lpad(i::VARCHAR, 10, '0') AS key, 'rnb:' || '${dep}' || lpad(i::VARCHAR, 10, '0') AS thing FROM range(${n.buildings}) t(i)
         UNION ALL SELECT 'bdnb:bdnb-bg-${dep}-' || i, 'rnb:' || '${dep}' || lpad(i::VARCHAR, 10, '0') FROM range(${n.buildings}) t(i)`
      : `SELECT 'dpe:24${dep}E' || lpad(i::VARCHAR, 7, '0') || 'A' AS key, 'dpe:24${dep}E' || lpad(i::VARCHAR, 7, '0') || 'A' AS thing FROM range(${n.diagnoses}) t(i)
         UNION ALL SELECT 'dpe:23${dep}E' || lpad(i::VARCHAR, 7, '0') || 'B', 'dpe:24${dep}E' || lpad(i::VARCHAR, 7, '0') || 'A' FROM range(${n.diagnoses}) t(i) WHERE i % 20 = 0`;
    // The id of a thing is the hash of its smallest key, as the registry gives it.
    return `SELECT key, '${kind}_' || substr(sha256('${kind}:' || min(key) OVER (PARTITION BY thing)), 1, 20) AS id, ${d}::BIGINT * 10000000 + row_number() OVER (ORDER BY key) AS seq, 'bench' AS source FROM (${rows})`;
  };
  for (const kind of ['bld', 'evt'] as const) {
    const all = Array.from({ length: departments }, (_, i) => first + i);
    if (sharded) {
      for (const d of all) await c.run(`COPY (${keys(kind, d)} ORDER BY key) TO ${quotedString(partitionPath(dataDir, 'fr', 'id_registry', `${kind}-${kind === 'bld' ? 'rnb' : 'dpe'}-${departmentCode(d)}`))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 65536)`);
    } else {
      await c.run(`COPY (${all.map((d) => keys(kind, d)).join(' UNION ALL ')} ORDER BY key) TO ${quotedString(partitionPath(dataDir, 'fr', 'id_registry', kind))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 65536)`);
    }
  }
}

/** The tree of a git ref (`git archive`), with this tree's node_modules, to run the jobs as they were. */
function treeOf(ref: string, root: string): string {
  const dir = join(root, 'baseline');
  execSync(`mkdir -p ${JSON.stringify(dir)} && git archive ${ref} | tar -x -C ${JSON.stringify(dir)}`, { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/** Runs one ingest in its own niced process of the tree: seconds, peak RSS, load average before. */
function measured(tree: string, code: string, timeoutSeconds: number): { seconds: number; peak_rss_mb: number | null; load: number; stopped?: true } {
  const load = +loadavg()[0]!.toFixed(1);
  const t = performance.now();
  const r = spawnSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', '-e', `${code}\nconsole.log(JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }));`], { encoding: 'utf8', cwd: tree, maxBuffer: 1e8, timeout: timeoutSeconds * 1000, killSignal: 'SIGKILL' });
  const seconds = +((performance.now() - t) / 1000).toFixed(1);
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { seconds, peak_rss_mb: null, load, stopped: true };
  if (r.status !== 0) throw new Error(`${tree}: ${r.stderr.slice(-2000)}`);
  const { maxRSS } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return { seconds, peak_rss_mb: Math.round(maxRSS / 1024), load };
}

/** The id registry of a data folder: bytes on disk and keys, per kind. */
async function registryOf(c: import('@duckdb/node-api').DuckDBConnection, dataDir: string) {
  const dir = tableDir(dataDir, 'fr', 'id_registry');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.parquet') && !f.startsWith('.'));
  const out: Record<string, { files: number; bytes: number; keys: number }> = {};
  for (const f of files) {
    const kind = f.slice(0, 3);
    const o = (out[kind] ??= { files: 0, bytes: 0, keys: 0 });
    o.files++;
    o.bytes += (await stat(join(dir, f))).size;
    const [{ n }] = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${quotedString(join(dir, f))})`)).getRowObjectsJS() as { n: number }[];
    o.keys += n;
  }
  return out;
}

/**
 * fr.buildings and fr.dpe department after department into one data folder, as the nation is
 * ingested (the id registry grows as it does), then fr.properties over every department: per
 * department the seconds and peak RSS of each run (its own niced process), and the registry's
 * bytes and keys after it. Sizes per department default to the nation's / 100 (200,000 RNB
 * buildings with their BDNB groups, 100,000 diagnoses, 200,000 sales). With `baseline`, the
 * same inputs are ingested by the jobs of that git ref into a second data folder, alternately
 * with this tree's, in the same run; runs past `timeoutSeconds` are stopped and said so. With
 * `prefill`, the registry starts with that many other departments' keys (prefillRegistry): the
 * runs then meet a registry of national size without ingesting the whole nation first.
 */
export async function benchBuildingsNational(n: NationalSizes, o: { baseline?: string; timeoutSeconds?: number; prefill?: number; propertiesPerDepartment?: boolean; log?: (s: string) => void } = {}) {
  const log = o.log ?? (() => {});
  // Two-digit department codes (20 skipped, as Corsica's): the generated RNB ids embed them, and a 99th would be '100'.
  if (n.departments + (o.prefill ?? 0) > 98) throw new Error(`at most 98 departments (run and prefilled), not ${n.departments + (o.prefill ?? 0)}: their two-digit codes are in the generated ids`);
  const timeout = o.timeoutSeconds ?? 3600;
  const root = await mkdtemp(join(tmpdir(), 'bench-buildings-national-'));
  const trees: { name: string; dir: string; data: string }[] = [{ name: 'after', dir: REPO, data: join(root, 'after', 'data') }];
  if (o.baseline) trees.unshift({ name: 'before', dir: treeOf(o.baseline, root), data: join(root, 'before', 'data') });
  if (o.baseline) await symlink(join(REPO, 'node_modules'), join(trees[0]!.dir, 'node_modules'));
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const ctx = (data: string) => `{ dataDir: ${JSON.stringify(data)}, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: { write: () => true, isTTY: false } }`;
  const departments: Record<string, unknown>[] = [];
  try {
    let prefill_s: number | null = null;
    if (o.prefill) {
      const t = performance.now();
      for (const t of trees) await prefillRegistry(c, t.data, n.departments, o.prefill, n, t.name === 'after');
      prefill_s = +((performance.now() - t) / 1000).toFixed(1);
      log(JSON.stringify({ prefill_s, registry: await registryOf(c, trees.at(-1)!.data) }));
    }
    for (let d = 0; d < n.departments; d++) {
      const dep = departmentCode(d), inputs = join(root, 'in', dep);
      await mkdir(inputs, { recursive: true });
      const tGen = performance.now();
      await generateDepartment(inputs, d, n);
      for (const t of trees) await writeSales(c, t.data, d, n);
      const row: Record<string, unknown> = { department: dep, generate_s: +((performance.now() - tGen) / 1000).toFixed(1) };
      // Each tree in turn at each step, so that the shared machine's load weighs on both alike.
      for (const t of trees) {
        row[`buildings_${t.name}`] = measured(t.dir, `const { ingestBuildings } = await import('./ingest/fr/buildings.ts'); await ingestBuildings(${ctx(t.data)}, { rnb: { path: ${JSON.stringify(join(inputs, `RNB_${dep}.csv`))} }, bdnb: { path: ${JSON.stringify(join(inputs, `bdnb_${dep}.csv`))} } });`, timeout);
      }
      for (const t of trees) {
        row[`dpe_${t.name}`] = measured(t.dir, `const { ingestDpe } = await import('./ingest/fr/dpe.ts'); await ingestDpe(${ctx(t.data)}, { path: ${JSON.stringify(join(inputs, `dpe_${dep}.csv`))} });`, timeout);
      }
      // This tree's fr.properties of the department alone (--departments; the tree before has no such option).
      if (o.propertiesPerDepartment) row.properties_after = measured(REPO, `const { buildProperties } = await import('./ingest/fr/properties.ts'); await buildProperties(${ctx(trees.at(-1)!.data)}, { departments: [${JSON.stringify(dep)}] });`, timeout);
      for (const t of trees) row[`registry_${t.name}`] = await registryOf(c, t.data);
      await rm(inputs, { recursive: true, force: true });
      departments.push(row);
      log(JSON.stringify(row));
    }
    const properties: Record<string, unknown> = {};
    // After per-department runs, this tree's national run would re-register nothing: the tree before's alone then.
    for (const t of trees.filter((x) => !(o.propertiesPerDepartment && x.name === 'after'))) {
      properties[t.name] = measured(t.dir, `const { buildProperties } = await import('./ingest/fr/properties.ts'); await buildProperties(${ctx(t.data)});`, timeout);
      properties[`registry_${t.name}`] = await registryOf(c, t.data);
      log(JSON.stringify({ properties: t.name, ...(properties[t.name] as object) }));
    }
    return { sizes_per_department: n, baseline: o.baseline ?? null, prefilled_departments: o.prefill ?? 0, prefill_s, departments, properties };
  } finally {
    c.closeSync();
    db.closeSync();
    await rm(root, { recursive: true, force: true });
  }
}
