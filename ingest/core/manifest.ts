import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Manifest, type ManifestPartition, TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import type { Country } from '../../schemas/common.ts';
import { sourceLicence } from './source-metadata.ts';
import { withLockFile } from './lock-file.ts';
import { pendingPath } from './table-writer.ts';

export function manifestPath(dataDir: string, country: string): string {
  return join(dataDir, country, 'manifest.json');
}

const empty = (country: Country): Manifest => ({ country, schema_version: TABLE_SCHEMA_VERSION, updated_at: new Date(0).toISOString(), partitions: [] });

/** The manifest as written on disk, without the changes of a batch still open in this process. */
async function readManifestFile(dataDir: string, country: Country): Promise<Manifest> {
  try {
    return Manifest.parse(JSON.parse(await readFile(manifestPath(dataDir, country), 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty(country);
    throw e;
  }
}

/**
 * The changes of an open batch (withManifestBatch), per data folder and country: the entry a
 * partition gets, or null when it is removed; in the order they were made.
 */
interface Batch { depth: number; changes: Map<Country, Map<string, ManifestPartition | null>>; now: Date; flushedAt: number; flushEveryMs: number; lastFlushMs: number }
const batches = new Map<string, Batch>();
const keyOf = (table: string, partition: string) => `${table}\u0000${partition}`;
const batchOf = (dataDir: string) => batches.get(resolve(dataDir));

/** The country's manifest, with the changes of a batch still open in this process applied. */
export async function readManifest(dataDir: string, country: Country): Promise<Manifest> {
  const manifest = await readManifestFile(dataDir, country);
  const changes = batchOf(dataDir)?.changes.get(country);
  if (!changes || changes.size === 0) return manifest;
  return { ...manifest, partitions: applied(manifest.partitions, changes) };
}

/** Records a written partition, replacing the previous entry of the same table and partition (atomic file swap). */
export async function recordPartition(dataDir: string, country: Country, entry: ManifestPartition, now = new Date()): Promise<void> {
  // Each source with its licence and attribution, from the catalogue.
  entry = { ...entry, sources: entry.sources.map((s) => { const l = sourceLicence(s.id); return { ...s, licence: l.licence, attribution: l.attribution }; }) };
  await change(dataDir, country, now, entry.table, entry.partition, entry);
}

/** Drops the entry of a partition whose file was removed (its rows now live in other partitions). */
export async function removePartition(dataDir: string, country: Country, table: string, partition: string, now = new Date()): Promise<void> {
  await change(dataDir, country, now, table, partition, null);
}

/** The entry of one partition, if recorded (or recorded by a batch still open in this process). */
export async function partitionEntry(dataDir: string, country: Country, table: string, partition: string): Promise<ManifestPartition | undefined> {
  const pending = batchOf(dataDir)?.changes.get(country)?.get(keyOf(table, partition));
  if (pending !== undefined) return pending ?? undefined;
  return (await readManifestFile(dataDir, country)).partitions.find((p) => p.table === table && p.partition === partition);
}

/**
 * Runs `fn` with the manifest changes of this data folder gathered in memory and written once at
 * the end (one read, one sorted write per country) instead of once per partition: a job
 * publishing many partitions (a cadastre run of thousands of communes) no longer rewrites the
 * whole manifest for each. The changes are written whether `fn` succeeds or fails, since each
 * recorded partition's file is already swapped in: the manifest then says exactly what was
 * published, and the partitions a failed run did not finish keep their previous entries. While a
 * batch is open, this process's readManifest/partitionEntry see its changes; every
 * `flushEverySeconds` (default 60; or 20 times the last write's duration when longer, so that
 * writing a large manifest takes at most 5 % of the run) the gathered changes are written,
 * bounding what a killed process (no `finally`) leaves published but not recorded. Nested calls
 * join the outer batch.
 */
export async function withManifestBatch<T>(dataDir: string, fn: () => Promise<T>, o: { flushEverySeconds?: number } = {}): Promise<T> {
  const key = resolve(dataDir);
  let batch = batches.get(key);
  if (batch) {
    batch.depth++;
  } else {
    batch = { depth: 1, changes: new Map(), now: new Date(), flushedAt: Date.now(), flushEveryMs: 1000 * (o.flushEverySeconds ?? 60), lastFlushMs: 0 };
    batches.set(key, batch);
  }
  try {
    return await fn();
  } finally {
    if (--batch.depth === 0) {
      batches.delete(key);
      await flush(dataDir, batch);
    }
  }
}

async function change(dataDir: string, country: Country, now: Date, table: string, partition: string, entry: ManifestPartition | null): Promise<void> {
  const batch = batchOf(dataDir);
  if (!batch) { await write(dataDir, country, now, new Map([[keyOf(table, partition), entry]])); return; }
  let changes = batch.changes.get(country);
  if (!changes) batch.changes.set(country, changes = new Map());
  changes.set(keyOf(table, partition), entry);
  batch.now = now;
  // A write of a national manifest (70,000 entries, 60 MB of JSON) takes seconds: never more than 5 % of the run.
  if (Date.now() - batch.flushedAt >= Math.max(batch.flushEveryMs, 20 * batch.lastFlushMs)) await flush(dataDir, batch);
}

/** Writes the batch's changes (each country's manifest read again, so another process's entries written meanwhile stay). */
async function flush(dataDir: string, batch: Batch): Promise<void> {
  const started = Date.now();
  for (const [country, changes] of batch.changes) {
    if (changes.size === 0) continue;
    const pending = new Map(changes);
    changes.clear();
    await write(dataDir, country, batch.now, pending);
  }
  batch.flushedAt = Date.now();
  batch.lastFlushMs = batch.flushedAt - started;
}

function applied(partitions: ManifestPartition[], changes: Map<string, ManifestPartition | null>): ManifestPartition[] {
  const out = partitions.filter((p) => !changes.has(keyOf(p.table, p.partition)));
  for (const e of changes.values()) if (e) out.push(e);
  const sortKey = new Map(out.map((p) => [p, p.table + p.partition]));
  return out.sort((a, b) => sortKey.get(a)!.localeCompare(sortKey.get(b)!));
}

async function write(dataDir: string, country: Country, now: Date, changes: Map<string, ManifestPartition | null>): Promise<void> {
  await mkdir(join(dataDir, country), { recursive: true });
  await withLockFile(join(dataDir, country, '.manifest.lock'), async () => {
    const manifest = await readManifestFile(dataDir, country);
    const next: Manifest = { country, schema_version: TABLE_SCHEMA_VERSION, updated_at: now.toISOString(), partitions: applied(manifest.partitions, changes) };
    const path = manifestPath(dataDir, country);
    const pending = pendingPath(path);
    await writeFile(pending, JSON.stringify(next, null, 2) + '\n');
    await rename(pending, path);
  });
}
