import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Manifest, type ManifestPartition, TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import type { Country } from '../../schemas/common.ts';
import { sourceLicence } from './source-metadata.ts';
import { pendingPath } from './table-writer.ts';

export function manifestPath(dataDir: string, country: string): string {
  return join(dataDir, country, 'manifest.json');
}

export async function readManifest(dataDir: string, country: Country): Promise<Manifest> {
  try {
    return Manifest.parse(JSON.parse(await readFile(manifestPath(dataDir, country), 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { country, schema_version: TABLE_SCHEMA_VERSION, updated_at: new Date(0).toISOString(), partitions: [] };
    }
    throw e;
  }
}

/** Records a written partition, replacing the previous entry of the same table and partition (atomic file swap). */
export async function recordPartition(dataDir: string, country: Country, entry: ManifestPartition, now = new Date()): Promise<Manifest> {
  // Each source with its licence and attribution, from the catalogue.
  entry = { ...entry, sources: entry.sources.map((s) => { const l = sourceLicence(s.id); return { ...s, licence: l.licence, attribution: l.attribution }; }) };
  return updateManifest(dataDir, country, now, (partitions) => [...partitions.filter((p) => !(p.table === entry.table && p.partition === entry.partition)), entry]);
}

/** Drops the entry of a partition whose file was removed (its rows now live in other partitions). */
export async function removePartition(dataDir: string, country: Country, table: string, partition: string, now = new Date()): Promise<Manifest> {
  return updateManifest(dataDir, country, now, (partitions) => partitions.filter((p) => !(p.table === table && p.partition === partition)));
}

/** The entry of one partition, if recorded. */
export async function partitionEntry(dataDir: string, country: Country, table: string, partition: string): Promise<ManifestPartition | undefined> {
  return (await readManifest(dataDir, country)).partitions.find((p) => p.table === table && p.partition === partition);
}

async function updateManifest(dataDir: string, country: Country, now: Date, change: (partitions: ManifestPartition[]) => ManifestPartition[]): Promise<Manifest> {
  const manifest = await readManifest(dataDir, country);
  const partitions = change(manifest.partitions);
  partitions.sort((a, b) => (a.table + a.partition).localeCompare(b.table + b.partition));
  const next: Manifest = { country, schema_version: TABLE_SCHEMA_VERSION, updated_at: now.toISOString(), partitions };
  await mkdir(join(dataDir, country), { recursive: true });
  const path = manifestPath(dataDir, country);
  const pending = pendingPath(path);
  await writeFile(pending, JSON.stringify(next, null, 2) + '\n');
  await rename(pending, path);
  return next;
}
