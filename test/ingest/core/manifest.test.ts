import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestPath, partitionEntry, readManifest, recordPartition, removePartition, withManifestBatch } from '../../../ingest/core/manifest.ts';
import { Manifest, TABLE_SCHEMA_VERSION, type ManifestPartition } from '../../../schemas/tables/manifest.ts';

const NOW = new Date('2026-11-25T04:00:00Z');

/** A cadastre-like entry (two per commune: parcels and their cells). */
function entry(table: string, commune: string, rows = 10): ManifestPartition {
  return {
    table, partition: `cadastre-${commune}`, file: `tables/${table}/country=fr/cadastre-${commune}.parquet`, job: 'fr.cadastre',
    sources: [{ id: 'fr.cadastre', input: `cadastre-${commune}-parcelles.json`, input_sha256: `sha-${commune}`, published_at: null, downloaded_from: null }],
    rows, rejects: 0, rejects_file: null, imported_at: NOW.toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256: `file-${table}-${commune}-${rows}`,
  };
}
const communes = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `01${String(from + i).padStart(3, '0')}`);
const entries = (cs: string[], rows = 10) => cs.flatMap((c) => [entry('parcels', c, rows), entry('parcels_cells', c, rows)]);
const onDisk = async (dataDir: string) => (await readFile(manifestPath(dataDir, 'fr'), 'utf8'));
const newDir = async () => join(await mkdtemp(join(tmpdir(), 'lds-manifest-')), 'data');

describe('manifest: a batch of a run', () => {
  it('writes the same manifest as recording partition by partition', async () => {
    const [one, batch] = [await newDir(), await newDir()];
    // Both start from the same manifest, some entries of which the run replaces or removes.
    for (const d of [one, batch]) for (const e of entries(communes(5, 200))) await recordPartition(d, 'fr', e, NOW);
    const run = [...entries(communes(120)), ...entries(communes(2, 200), 99)];
    for (const e of run) await recordPartition(one, 'fr', e, NOW);
    await removePartition(one, 'fr', 'parcels', 'cadastre-01202', NOW);
    await withManifestBatch(batch, async () => {
      for (const e of run) await recordPartition(batch, 'fr', e, NOW);
      await removePartition(batch, 'fr', 'parcels', 'cadastre-01202', NOW);
    });
    expect(await onDisk(batch)).toBe(await onDisk(one));
    const m = Manifest.parse(JSON.parse(await onDisk(batch)));
    expect(m.partitions).toHaveLength(2 * 125 - 1);
    expect(m.partitions.find((p) => p.table === 'parcels' && p.partition === 'cadastre-01200')?.rows).toBe(99);
    // Sorted as before (localeCompare of table + partition).
    expect(m.partitions.map((p) => p.table + p.partition)).toEqual(m.partitions.map((p) => p.table + p.partition).sort((a, b) => a.localeCompare(b)));
  });

  it('writes the manifest once, at the end; meanwhile this process reads the changes and the file stays as it was', async () => {
    const d = await newDir();
    await recordPartition(d, 'fr', entry('parcels', '01001'), NOW);
    const before = await onDisk(d);
    const mtime = (await stat(manifestPath(d, 'fr'))).mtimeMs;
    await withManifestBatch(d, async () => {
      for (const e of entries(communes(50, 2))) await recordPartition(d, 'fr', e, NOW);
      await removePartition(d, 'fr', 'parcels', 'cadastre-01001', NOW);
      expect(await onDisk(d)).toBe(before);
      expect((await stat(manifestPath(d, 'fr'))).mtimeMs).toBe(mtime);
      expect(await partitionEntry(d, 'fr', 'parcels_cells', 'cadastre-01010')).toEqual(expect.objectContaining({ rows: 10, sha256: 'file-parcels_cells-01010-10' }));
      expect(await partitionEntry(d, 'fr', 'parcels', 'cadastre-01001')).toBeUndefined();
      expect((await readManifest(d, 'fr')).partitions).toHaveLength(100);
    });
    expect((await readManifest(d, 'fr')).partitions).toHaveLength(100);
    expect(await partitionEntry(d, 'fr', 'parcels', 'cadastre-01001')).toBeUndefined();
  });

  it('a run failing before it records anything leaves the manifest as it was, byte for byte', async () => {
    const d = await newDir();
    for (const e of entries(communes(3))) await recordPartition(d, 'fr', e, NOW);
    const before = await onDisk(d);
    await expect(withManifestBatch(d, async () => { throw new Error('bad file'); })).rejects.toThrow('bad file');
    expect(await onDisk(d)).toBe(before);
    // And a data folder without a manifest gets none.
    const empty = await newDir();
    await expect(withManifestBatch(empty, async () => { throw new Error('bad file'); })).rejects.toThrow('bad file');
    expect(existsSync(manifestPath(empty, 'fr'))).toBe(false);
  });

  it('a run failing midway records exactly the partitions it published; the others keep their previous entries', async () => {
    const d = await newDir();
    for (const e of entries(communes(6))) await recordPartition(d, 'fr', e, NOW);
    await expect(withManifestBatch(d, async () => {
      for (const c of communes(3)) for (const t of ['parcels', 'parcels_cells']) await recordPartition(d, 'fr', entry(t, c, 42), NOW);
      throw new Error('commune 01004: 5 of 10 rows rejected');
    })).rejects.toThrow(/01004/);
    const m = await readManifest(d, 'fr');
    expect(m.partitions.filter((p) => p.table === 'parcels').map((p) => [p.partition, p.rows])).toEqual(
      [['cadastre-01001', 42], ['cadastre-01002', 42], ['cadastre-01003', 42], ['cadastre-01004', 10], ['cadastre-01005', 10], ['cadastre-01006', 10]]);
  });

  it('keeps the entries another process wrote while the batch was open', async () => {
    const d = await newDir();
    await recordPartition(d, 'fr', entry('parcels', '01001'), NOW);
    await withManifestBatch(d, async () => {
      await recordPartition(d, 'fr', entry('parcels', '01002'), NOW);
      // Another process records a partition of another table meanwhile (the file as it writes it).
      const other = Manifest.parse(JSON.parse(await onDisk(d)));
      other.partitions.push({ ...entry('addresses', '01999'), partition: '01', job: 'fr.ban' });
      await writeFile(manifestPath(d, 'fr'), JSON.stringify(other, null, 2) + '\n');
    });
    expect((await readManifest(d, 'fr')).partitions.map((p) => `${p.table}/${p.partition}`)).toEqual(['addresses/01', 'parcels/cadastre-01001', 'parcels/cadastre-01002']);
  });

  it('writes what it gathered every flushEverySeconds, and nested batches join the outer one', async () => {
    const d = await newDir();
    await withManifestBatch(d, async () => {
      await withManifestBatch(d, async () => { await recordPartition(d, 'fr', entry('parcels', '01001'), NOW); });
      // The inner batch ended: nothing written yet, the outer one is still open.
      expect(existsSync(manifestPath(d, 'fr'))).toBe(false);
    });
    expect((await readManifest(d, 'fr')).partitions).toHaveLength(1);
    const e = await newDir();
    await withManifestBatch(e, async () => {
      await recordPartition(e, 'fr', entry('parcels', '01001'), NOW);
      expect(Manifest.parse(JSON.parse(await onDisk(e))).partitions).toHaveLength(1);
    }, { flushEverySeconds: 0 });
  });

  it('never loses an entry when runs write at the same time (a lock around read, change, write), and takes over the lock of a dead process', async () => {
    const d = await newDir();
    // 40 runs, each its own batch written at its end, all at once.
    await Promise.all(communes(40).map((c) => recordPartition(d, 'fr', entry('parcels', c), NOW)));
    expect((await readManifest(d, 'fr')).partitions).toHaveLength(40);
    expect(existsSync(join(d, 'fr', '.manifest.lock'))).toBe(false);
    // A lock left by a process that died.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    await mkdir(join(d, 'fr'), { recursive: true });
    await writeFile(join(d, 'fr', '.manifest.lock'), dead);
    await recordPartition(d, 'fr', entry('parcels', '01999'), NOW);
    expect((await readManifest(d, 'fr')).partitions).toHaveLength(41);
    expect(existsSync(join(d, 'fr', '.manifest.lock'))).toBe(false);
  });
});
