import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../api/core/warehouse.ts';
import { PARCELS_TABLE, parcelAt } from '../../../api/location/locate.ts';
import { ingestCadastre, ingestCadastreFiles, parcelOf, parcelReference } from '../../../ingest/fr/cadastre.ts';
import { cadastreFiles, cadastreJob } from '../../../ingest/fr/cadastre.job.ts';
import { readManifest } from '../../../ingest/core/manifest.ts';
import { UsageError } from '../../../ingest/core/options.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { box, silentContext } from '../../helpers/fixture-data.ts';
import { partitionPath } from '../../../schemas/tables/layout.ts';

const SAMPLES = join(REPO_ROOT, 'datasets/fr/cadastre');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/cadastre/cadastre-91326-parcelles.json');
const tables = { tables: [PARCELS_TABLE, `${PARCELS_TABLE}_cells`], memoryTables: {} };

type Feature = { id: string; geometry: { type: 'Polygon'; coordinates: number[][][] }; properties: Record<string, unknown> };
const featuresOf = (text: string): Feature[] => (JSON.parse(text) as { features: Feature[] }).features;
const collection = (features: object[]) => `{"type":"FeatureCollection","features":[\n${features.map((f) => JSON.stringify(f)).join(',\n')}]}`;

describe('fr.cadastre: reading a parcel', () => {
  it('writes the reference as on a deed, with the prefix of an associated commune', () => {
    expect(parcelReference('000', 'AB', '237')).toBe('AB 237');
    expect(parcelReference('000', '0A', '0012')).toBe('A 12');
    expect(parcelReference('012', 'B', '5')).toBe('012 B 5');
  });

  it('keeps an absent contenance as null, never zero, and refuses an id that disagrees with its parts', () => {
    const base = { id: '91326000AB0483', commune: '91326', prefixe: '000', section: 'AB', numero: '483' };
    expect(parcelOf(base)).toMatchObject({ parcel_id: '91326000AB0483', reference: 'AB 483', area_m2: null });
    expect(parcelOf({ ...base, contenance: 0 })).toMatchObject({ area_m2: 0 });
    expect(parcelOf({ ...base, contenance: 12.5 })).toMatch(/contenance 12.5 is not a whole number/);
    expect(parcelOf({ ...base, numero: '484' })).toMatch(/disagrees with commune, prefixe, section and numero \(91326000AB0484\)/);
    expect(parcelOf({ ...base, id: '9132600AB483' })).toMatch(/not a 14-character parcel id/);
  });
});

describe('fr.cadastre: the samples', () => {
  let dataDir: string;
  let warehouse: Warehouse;
  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'lds-cadastre-')), 'data');
    for (const c of ['75111', '33001']) {
      const file = join(SAMPLES, `cadastre-${c}-parcelles.json${c === '33001' ? '.gz' : ''}`);
      const summary = await ingestCadastre(silentContext(dataDir), { path: file });
      expect(summary.map((s) => [s.table, s.partition, s.rejects])).toEqual([['parcels', `cadastre-${c}`, 0], ['parcels_cells', `cadastre-${c}`, 0]]);
    }
    warehouse = await openWarehouse(dataDir, tables);
  });
  afterAll(() => warehouse?.close());

  it('writes every parcel of a file (gzipped too) with its reference and contenance', async () => {
    const text = gunzipSync(await readFile(join(SAMPLES, 'cadastre-33001-parcelles.json.gz'))).toString('utf8');
    const published = featuresOf(text);
    const rows = await duckRows<{ id: string; attributes: string }>(`SELECT id, attributes FROM '${partitionPath(dataDir, 'fr', 'parcels', 'cadastre-33001')}' ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual(published.map((f) => `fr.cadastre:${f.id}`).sort());
    for (const f of published) {
      const a = JSON.parse(rows.find((r) => r.id === `fr.cadastre:${f.id}`)!.attributes);
      expect(a.area_m2).toBe(f.properties.contenance ?? null);
      expect(a.reference).toBe(`${String(f.properties.section).replace(/^0/, '')} ${Number(f.properties.numero)}`);
    }
    expect(published.filter((f) => !('contenance' in f.properties)).map((f) => f.id)).toEqual(['33001000XK0052']);
  });

  it('serves the parcel containing the address of the BAN sample that names it', async () => {
    const ban = (await readFile(join(REPO_ROOT, 'datasets/fr/ban/adresses-33.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';'));
    const named = ban.filter((c) => c[22] && c[6] === '33001');
    expect(named.length).toBeGreaterThan(10);
    for (const c of named) expect((await parcelAt({ warehouse }, 'fr', Number(c[12]), Number(c[13])))?.id).toBe(c[22]);
  });

  it('a file of the same commune under another name replaces the partition; a file of two communes lands in each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cadastre-two-'));
    const one = featuresOf(await readFile(join(SAMPLES, 'cadastre-75111-parcelles.json'), 'utf8')).slice(0, 3);
    const two = featuresOf(await readFile(join(SAMPLES, 'cadastre-75112-parcelles.json'), 'utf8')).slice(0, 2);
    const file = join(dir, 'export.json');
    await writeFile(file, collection([...one, ...two]));
    const ctx = silentContext(join(dir, 'data'));
    const summary = await ingestCadastre(ctx, { path: file });
    expect(summary.filter((s) => s.table === 'parcels').map((s) => [s.partition, s.rows])).toEqual([['cadastre-75111', 3], ['cadastre-75112', 2]]);
    await writeFile(join(dir, 'renamed.json'), collection(one.slice(0, 1)));
    await ingestCadastre(ctx, { path: join(dir, 'renamed.json') });
    expect(await duckRows(`SELECT count(*)::INTEGER AS n FROM '${partitionPath(join(dir, 'data'), 'fr', 'parcels', 'cadastre-75111')}'`)).toEqual([{ n: 1 }]);
  });

  it('refuses broken rows with their feature number, and a file without the parcel properties naming them, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cadastre-bad-'));
    const sq = box(2.37, 48.85, 2.3701, 48.8501);
    const ok = (n: number) => ({ type: 'Feature', id: `75111000AB${String(n).padStart(4, '0')}`, geometry: sq, properties: { id: `75111000AB${String(n).padStart(4, '0')}`, commune: '75111', prefixe: '000', section: 'AB', numero: String(n), contenance: 10 } });
    const file = join(dir, 'bad.json');
    await writeFile(file, collection([ok(1), { ...ok(2), properties: { ...ok(2).properties, contenance: 'dix' } }, { ...ok(3), geometry: { type: 'Point', coordinates: [2.37, 48.85] } }]));
    const [s] = await ingestCadastre({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file });
    expect(s).toMatchObject({ rows: 1, rejects: 2 });
    const rejects = await readFile(join(dir, 'data/fr/rejects/parcels.cadastre-75111.csv'), 'utf8');
    expect(rejects).toMatch(/^2;"contenance ""dix"" is not a whole number/m);
    expect(rejects).toMatch(/^3;geometry must be a Polygon or MultiPolygon, not Point/m);

    await writeFile(join(dir, 'other.json'), collection([{ type: 'Feature', geometry: sq, properties: { id: 'x', nom: 'y' } }]));
    await expect(ingestCadastre(silentContext(join(dir, 'data2')), { path: join(dir, 'other.json') })).rejects.toThrow(/lack the properties commune, prefixe, section, numero; found id, nom/);
    expect(existsSync(join(dir, 'data2/fr/parcels'))).toBe(false);
  });
});

describe('fr.cadastre: a folder of commune files in one run', () => {
  const FILES = ['75103', '75104', '75111', '75112', '75113', '33001'].map((c) => `cadastre-${c}-parcelles.json${c === '33001' ? '.gz' : ''}`);
  /** Every partition of both tables as DuckDB reads it (rows in file order), with the manifest's checksums. */
  async function tablesOf(dataDir: string) {
    const m = await readManifest(dataDir, 'fr');
    const out: Record<string, unknown> = {};
    for (const p of m.partitions) {
      const rows = await duckRows(`SELECT * FROM '${partitionPath(dataDir, 'fr', p.table, p.partition)}'`);
      out[`${p.table}/${p.partition}`] = { rows: JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? String(v) : v)), count: p.rows, sha256: p.sha256, inputs: p.sources.map((s) => s.input_sha256) };
    }
    return out;
  }

  it('writes the same tables and manifest entries as file-by-file runs, whatever the files are named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cadastre-folder-'));
    for (const f of FILES) await ingestCadastre(silentContext(join(dir, 'one')), { path: join(SAMPLES, f) });
    const byFile = await tablesOf(join(dir, 'one'));
    expect(Object.keys(byFile)).toHaveLength(12);

    // The job on the samples' folder: one run.
    const summary = await cadastreJob.run(silentContext(join(dir, 'folder')), ['--input', SAMPLES]);
    expect(summary.filter((s) => s.table === 'parcels').map((s) => s.partition)).toEqual(['cadastre-33001', 'cadastre-75103', 'cadastre-75104', 'cadastre-75111', 'cadastre-75112', 'cadastre-75113']);
    expect(await tablesOf(join(dir, 'folder'))).toEqual(byFile);

    // The same files under other names (and another order): the same tables.
    await mkdir(join(dir, 'renamed'));
    for (const [i, f] of FILES.entries()) await copyFile(join(SAMPLES, f), join(dir, 'renamed', `cadastre-x${9 - i}-parcelles.json${f.endsWith('.gz') ? '.gz' : ''}`));
    await ingestCadastreFiles(silentContext(join(dir, 'renamed-data')), cadastreFiles(join(dir, 'renamed')).map((path) => ({ path })));
    expect(await tablesOf(join(dir, 'renamed-data'))).toEqual(byFile);
    // No staging database left behind.
    expect(await readdir(join(dir, 'renamed-data', '.tmp'))).toEqual([]);
  });

  it('refuses a commune given in two files of the run, naming both; the files before it stay published and recorded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cadastre-twice-'));
    await mkdir(join(dir, 'in'));
    const one = featuresOf(await readFile(join(SAMPLES, 'cadastre-75111-parcelles.json'), 'utf8'));
    await copyFile(join(SAMPLES, 'cadastre-75104-parcelles.json'), join(dir, 'in', 'cadastre-75104-parcelles.json'));
    await writeFile(join(dir, 'in', 'cadastre-75111-parcelles.json'), collection(one.slice(0, 3)));
    await writeFile(join(dir, 'in', 'cadastre-75112-parcelles.json'), collection(one.slice(3, 5)));
    const data = join(dir, 'data');
    await expect(cadastreJob.run(silentContext(data), ['--input', join(dir, 'in')])).rejects.toThrow('commune 75111 is both in cadastre-75111-parcelles.json and in cadastre-75112-parcelles.json');
    const m = await readManifest(data, 'fr');
    expect(m.partitions.map((p) => `${p.table}/${p.partition}`)).toEqual(['parcels_cells/cadastre-75104', 'parcels_cells/cadastre-75111', 'parcels/cadastre-75104', 'parcels/cadastre-75111']);
    expect(m.partitions.find((p) => p.table === 'parcels' && p.partition === 'cadastre-75111')?.rows).toBe(3);
    for (const p of m.partitions) expect((await duckRows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM '${partitionPath(data, 'fr', p.table, p.partition)}'`))[0]!.n).toBe(p.rows);

    // The same commune file gzipped and not is refused before anything is read.
    await copyFile(join(SAMPLES, 'cadastre-33001-parcelles.json.gz'), join(dir, 'in', 'cadastre-75104-parcelles.json.gz'));
    expect(() => cadastreFiles(join(dir, 'in'))).toThrow(UsageError);
    expect(() => cadastreFiles(join(dir, 'in'))).toThrow('cadastre-75104-parcelles.json and cadastre-75104-parcelles.json.gz');
  });
});

describe('fr.cadastre: edges', () => {
  it('answers the parcel on each side of a shared edge, and none outside', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cadastre-edge-'));
    const p = (n: number, geometry: object) => ({ type: 'Feature', id: `33001000AB000${n}`, geometry, properties: { id: `33001000AB000${n}`, commune: '33001', prefixe: '000', section: 'AB', numero: String(n), contenance: 100 + n } });
    // Two parcels sharing the slanted edge (-0.1200, 45.0100)-(-0.1196, 45.0104).
    const west = { type: 'Polygon', coordinates: [[[-0.1204, 45.0100], [-0.1200, 45.0100], [-0.1196, 45.0104], [-0.1204, 45.0104], [-0.1204, 45.0100]]] };
    const east = { type: 'Polygon', coordinates: [[[-0.1200, 45.0100], [-0.1192, 45.0100], [-0.1192, 45.0104], [-0.1196, 45.0104], [-0.1200, 45.0100]]] };
    await writeFile(join(dir, 'c.json'), collection([p(1, west), p(2, east)]));
    await ingestCadastre(silentContext(join(dir, 'data')), { path: join(dir, 'c.json') });
    const warehouse = await openWarehouse(join(dir, 'data'), tables);
    try {
      const e = 1e-7;
      for (let t = 0.05; t < 1; t += 0.1) {
        const x = -0.1200 + 0.0004 * t, y = 45.0100 + 0.0004 * t;
        expect((await parcelAt({ warehouse }, 'fr', x - e, y))?.id).toBe('33001000AB0001');
        expect((await parcelAt({ warehouse }, 'fr', x + e, y))).toEqual({ id: '33001000AB0002', reference: 'AB 2', area_m2: 102 });
      }
      expect(await parcelAt({ warehouse }, 'fr', -0.1204 - e, 45.0102)).toBeNull();
      expect(await parcelAt({ warehouse }, 'fr', -0.1198, 45.0104 + e)).toBeNull();
      expect((await parcelAt({ warehouse }, 'fr', -0.1198, 45.0104 - e))?.id).toBe('33001000AB0001');
    } finally { await warehouse.close(); }
  });
});

describe.skipIf(!existsSync(REAL))('fr.cadastre: the real Juvisy-sur-Orge file (91326)', () => {
  let warehouse: Warehouse;
  let published: Feature[];
  beforeAll(async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-cadastre-real-')), 'data');
    const [s] = await ingestCadastre(silentContext(dataDir), { path: REAL });
    published = featuresOf(await readFile(REAL, 'utf8'));
    expect(s).toMatchObject({ table: 'parcels', partition: 'cadastre-91326', rows: 2859, rejects: 0 });
    warehouse = await openWarehouse(dataDir, tables);
  });
  afterAll(() => warehouse?.close());

  it('gives the parcel of a point with its reference and area', async () => {
    // Inside AL 236 (14 m2): the mean of its first four vertices.
    const al236 = published.find((f) => f.id === '91326000AL0236')!;
    const ring = al236.geometry.coordinates[0]!.slice(0, 4);
    const x = ring.reduce((s, p) => s + p[0]!, 0) / 4, y = ring.reduce((s, p) => s + p[1]!, 0) / 4;
    expect(await parcelAt({ warehouse }, 'fr', x, y)).toEqual({ id: '91326000AL0236', reference: 'AL 236', area_m2: 14 });
  });

  it('serves the four parcels without contenance with a null area, not zero', async () => {
    const without = published.filter((f) => !('contenance' in f.properties)).map((f) => f.id).sort();
    expect(without).toEqual(['91326000AB0483', '91326000AE0529', '91326000AE0530', '91326000AI0570']);
    const rows = await warehouse.query<{ attributes: string }>(`SELECT attributes FROM fr_parcels WHERE id IN (${without.map((id) => `'fr.cadastre:${id}'`).join(', ')})`);
    expect(rows.map((r) => JSON.parse(r.attributes).area_m2)).toEqual([null, null, null, null]);
  });
});
