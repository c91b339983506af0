import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManifests } from '../../../api/core/manifests.ts';
import { TABLE_SCHEMA_VERSION } from '../../../schemas/tables/manifest.ts';

let dataDir: string;
beforeAll(async () => { dataDir = await mkdtemp(join(tmpdir(), 'lds-manifests-')); });
afterAll(async () => { await rm(dataDir, { recursive: true, force: true }); });

const write = async (updatedAt: string, mtime: Date) => {
  const file = join(dataDir, 'fr', 'manifest.json');
  await mkdir(join(dataDir, 'fr'), { recursive: true });
  await writeFile(file, JSON.stringify({ country: 'fr', schema_version: TABLE_SCHEMA_VERSION, updated_at: updatedAt, partitions: [] }));
  await utimes(file, mtime, mtime);
};

describe('manifests', () => {
  it('answers an empty manifest before any ingest, then the file, re-read when it changes', async () => {
    const manifests = createManifests(dataDir);
    expect(await manifests.get('fr')).toMatchObject({ country: 'fr', updated_at: new Date(0).toISOString(), partitions: [] });
    await write('2026-11-20T00:00:00Z', new Date('2026-11-20T00:00:00Z'));
    expect((await manifests.get('fr')).updated_at).toBe('2026-11-20T00:00:00Z');
    const first = await manifests.get('fr');
    expect(await manifests.get('fr')).toBe(first);
    await write('2026-11-21T00:00:00Z', new Date('2026-11-21T00:00:00Z'));
    expect((await manifests.get('fr')).updated_at).toBe('2026-11-21T00:00:00Z');
  });
});
