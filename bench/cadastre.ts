import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readManifest, recordPartition, withManifestBatch } from '../ingest/core/manifest.ts';
import { TABLE_SCHEMA_VERSION, type ManifestPartition } from '../schemas/tables/manifest.ts';

const P = 0.00018; // parcel side in degrees of latitude (about 20 m)
const COLS = 100;

/** An INSEE-like commune code for the c-th generated commune (900 per department). */
const communeCode = (c: number) => `${String(1 + Math.floor(c / 900)).padStart(2, '0')}${String(1 + (c % 900)).padStart(3, '0')}`;

function write(path: string, lines: Iterable<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createWriteStream(path, 'utf8');
    s.on('error', reject);
    (async () => { for (const l of lines) if (!s.write(l)) await new Promise<void>((r) => s.once('drain', () => r())); s.end(() => resolve()); })().catch(reject);
  });
}

/** Runs code in its own niced process; it prints a JSON line last. */
function child(code: string): Record<string, unknown> & { seconds: number; peak_rss_mb: number } {
  const t = performance.now();
  const r = spawnSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', '-e', `${code}\nconsole.log(JSON.stringify({ ...(globalThis.__out ?? {}), maxRSS: process.resourceUsage().maxRSS }));`], { encoding: 'utf8', cwd: join(import.meta.dirname, '..'), maxBuffer: 1e8 });
  if (r.status !== 0) throw new Error(r.stderr.slice(-2000));
  const { maxRSS, ...rest } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return { ...rest, seconds: +((performance.now() - t) / 1000).toFixed(1), peak_rss_mb: Math.round(maxRSS / 1024) };
}

function entry(table: string, partition: string): ManifestPartition {
  return {
    table, partition, file: `tables/${table}/country=fr/${partition}.parquet`, job: 'fr.cadastre',
    sources: [{ id: 'fr.cadastre', input: `${partition}-parcelles.json.gz`, input_sha256: 'f'.repeat(64), published_at: null, downloaded_from: null }],
    rows: 3000, rejects: 0, rejects_file: null, imported_at: new Date().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: 'e'.repeat(64),
  };
}

/**
 * The cadastre's fixed costs at many communes: `communes` generated commune files of
 * `perCommune` parcels, ingested file by file (ingestCadastre per file: a staging database per
 * commune and table, the manifest rewritten per partition: the job before) and as one folder run
 * (ingestCadastreFiles: one staging database, one manifest write), each in its own niced
 * process; then the manifest alone at `manifestEntries` entries (national: about 70,000): one
 * partition recorded alone, and 1,000 recorded in a batch.
 */
export async function benchCadastre(communes: number, perCommune: number, manifestEntries: number, o: { before?: boolean } = {}) {
  const root = await mkdtemp(join(tmpdir(), 'bench-cadastre-'));
  try {
    const dir = join(root, 'cadastre');
    await mkdir(dir, { recursive: true });
    const tGen = performance.now();
    for (let c = 0; c < communes; c++) {
      const code = communeCode(c);
      const x0 = -4 + (c % 200) * COLS * P * 1.5, y0 = 43 + Math.floor(c / 200) * P * (1 + perCommune / COLS);
      await write(join(dir, `cadastre-${code}-parcelles.json`), (function* () {
        yield '{"type":"FeatureCollection","features":[\n';
        for (let i = 0; i < perCommune; i++) {
          const x = x0 + (i % COLS) * P * 1.4, y = y0 + Math.floor(i / COLS) * P;
          const id = `${code}000AB${String(i + 1).padStart(4, '0')}`;
          yield `${i ? ',\n' : ''}{"type":"Feature","id":"${id}","geometry":{"type":"Polygon","coordinates":[[[${x},${y}],[${x + P * 1.4},${y}],[${x + P * 1.4},${y + P}],[${x},${y + P}],[${x},${y}]]]},"properties":{"id":"${id}","commune":"${code}","prefixe":"000","section":"AB","numero":"${i + 1}","contenance":${400 + (i % 300)}}}`;
        }
        yield ']}\n';
      })());
    }
    const generate_s = +((performance.now() - tGen) / 1000).toFixed(1);
    const ctx = (d: string) => `{ dataDir: ${JSON.stringify(join(root, d))}, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: { write: () => true, isTTY: false } }`;
    const files = `(await import('node:fs')).readdirSync(${JSON.stringify(dir)}).sort().map((f) => ({ path: ${JSON.stringify(dir)} + '/' + f }))`;
    // Seconds for each quarter of the files (the manifest's cost grows with the entries already there).
    const fileByFile = o.before === false ? null : child(`const { ingestCadastre } = await import('./ingest/fr/cadastre.ts'); const files = ${files};
      const quarters = []; let t = performance.now();
      for (const [i, f] of files.entries()) { await ingestCadastre(${ctx('file-by-file')}, f); if ((i + 1) % Math.ceil(files.length / 4) === 0 || i === files.length - 1) { quarters.push(+((performance.now() - t) / 1000).toFixed(1)); t = performance.now(); } }
      globalThis.__out = { quarters_s: quarters, ingest_s: +quarters.reduce((a, b) => a + b, 0).toFixed(1) };`);
    // The quarters of a folder run from the files' final progress lines (a file read, before its partitions are written).
    const folder = child(`const { ingestCadastreFiles } = await import('./ingest/fr/cadastre.ts'); const files = ${files}; const t = performance.now();
      const marks = []; const ctx = { ...${ctx('folder')}, progressOut: { isTTY: false, write: (s) => { if (s.endsWith('done\\n')) marks.push(performance.now()); return true; } } };
      await ingestCadastreFiles(ctx, files); const end = performance.now();
      const q = Math.ceil(files.length / 4), cuts = [t, ...[1, 2, 3].map((k) => marks[k * q - 1]), end];
      globalThis.__out = { quarters_s: cuts.slice(1).map((c, i) => +((c - cuts[i]) / 1000).toFixed(1)), ingest_s: +((end - t) / 1000).toFixed(1) };`);
    const partitions = async (d: string) => (await readManifest(join(root, d), 'fr')).partitions.map((p) => `${p.table}/${p.partition}:${p.rows}:${p.sha256}`).join('\n');
    const same_tables = fileByFile ? (await partitions('file-by-file')) === (await partitions('folder')) : null;

    // The manifest alone at national size.
    const m = join(root, 'manifest');
    const base: ManifestPartition[] = [];
    for (let c = 0; base.length < manifestEntries; c++) for (const t of ['parcels', 'parcels_cells']) base.push(entry(t, `cadastre-${String(c).padStart(6, '0')}`));
    await withManifestBatch(m, async () => { for (const e of base) await recordPartition(m, 'fr', e); });
    let t = performance.now();
    for (let i = 0; i < 5; i++) await recordPartition(m, 'fr', entry('parcels', `cadastre-new-${i}`));
    const one_record_ms = +((performance.now() - t) / 5).toFixed(1);
    t = performance.now();
    await withManifestBatch(m, async () => { for (let i = 0; i < 1000; i++) await recordPartition(m, 'fr', entry('parcels_cells', `cadastre-new-${i}`)); });
    const batch_of_1000_ms = +(performance.now() - t).toFixed(1);
    return {
      communes, parcels_per_commune: perCommune, generate_s,
      // seconds: the process (start included); ingest_s: the ingest alone.
      file_by_file: fileByFile && { ...fileByFile, ms_per_file: +((1000 * (fileByFile.ingest_s as number)) / communes).toFixed(1) },
      folder: { ...folder, ms_per_file: +((1000 * (folder.ingest_s as number)) / communes).toFixed(1) },
      same_tables,
      manifest: { entries: manifestEntries, one_record_ms, batch_of_1000_ms },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
