import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Country } from '../../schemas/common.ts';
import { Manifest, TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';

/** The per-country manifests written by the ingest, re-read when their file changes. */
export interface Manifests { get(country: Country): Promise<Manifest> }

function mtimeOf(path: string): number {
  try { return statSync(path).mtimeMs; } catch { return -1; }
}

export function createManifests(dataDir: string): Manifests {
  const cache = new Map<Country, { mtime: number; manifest: Manifest }>();
  return {
    async get(country) {
      const path = join(dataDir, country, 'manifest.json');
      // A synchronous stat (a few µs on a local disk): the asynchronous one waits for a libuv pool
      // thread, which on a busy machine cost reports ~0.2 ms at p50 and several ms at p99.
      const mtime = mtimeOf(path);
      const hit = cache.get(country);
      if (hit && hit.mtime === mtime) return hit.manifest;
      const manifest = mtime < 0
        ? { country, schema_version: TABLE_SCHEMA_VERSION, updated_at: new Date(0).toISOString(), partitions: [] }
        : Manifest.parse(JSON.parse(await readFile(path, 'utf8')));
      cache.set(country, { mtime, manifest });
      return manifest;
    },
  };
}
