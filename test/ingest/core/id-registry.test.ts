import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { assignIds } from '../../../ingest/core/id-registry.ts';
import { Stage } from '../../../ingest/core/stage.ts';
import { readManifest } from '../../../ingest/core/manifest.ts';
import { idPattern } from '../../../schemas/tables/id-registry.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { partitionPath, tableGlob } from '../../../schemas/tables/layout.ts';
import { fileSha256 } from '../../../ingest/core/table-writer.ts';
import { existsSync } from 'node:fs';

/** Runs the registry on rows (ref, keys...) and answers ref -> id. */
async function assign(dataDir: string, rows: [string, ...string[]][], kind: 'bld' | 'prp' = 'prp', shardOf?: (ref: string) => string | null) {
  const stage = await Stage.open(dataDir, 'ids-test');
  try {
    await stage.connection.run(`CREATE TABLE req (ref VARCHAR, key VARCHAR${shardOf ? ', shard VARCHAR' : ''})`);
    const values = rows.flatMap(([ref, ...keys]) => keys.map((k) => `(${quotedString(ref)}, ${quotedString(k)}${shardOf ? `, ${shardOf(ref) === null ? 'NULL' : quotedString(shardOf(ref)!)}` : ''})`));
    await stage.connection.run(`INSERT INTO req VALUES ${values.join(', ')}`);
    const r = await assignIds(stage.connection, silentContext(dataDir), { country: 'fr', kind, source: 'test', job: 'test', request: 'req', out: 'ids' });
    const ids = Object.fromEntries((await stage.connection.runAndReadAll('SELECT ref, id FROM ids')).getRowObjectsJS().map((x) => [x.ref, x.id])) as Record<string, string>;
    return { ...r, ids };
  } finally { await stage.close(); }
}

describe('id registry', () => {
  it('gives each thing an opaque id, rows sharing a key one id, and the same ids on a re-run and on a fresh registry', async () => {
    const rows: [string, ...string[]][] = [['a', 'dpe:1'], ['b', 'dpe:2', 'rpls:9'], ['c', 'rpls:9'], ['d', 'inv:5', 'dpe:4'], ['e', 'dpe:4', 'dpe:3']];
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ids-')), 'data');
    const first = await assign(dataDir, rows);
    expect(first).toMatchObject({ keys: 6, newKeys: 6, newIds: 3, merges: [] });
    for (const id of Object.values(first.ids)) expect(id).toMatch(idPattern('prp'));
    expect(first.ids.b).toBe(first.ids.c);
    expect(first.ids.d).toBe(first.ids.e);
    expect(new Set(Object.values(first.ids)).size).toBe(3);

    const again = await assign(dataDir, rows);
    expect(again).toMatchObject({ newKeys: 0, newIds: 0, merges: [] });
    expect(again.ids).toEqual(first.ids);
    const fresh = await assign(join(await mkdtemp(join(tmpdir(), 'lds-ids-fresh-')), 'data'), rows);
    expect(fresh.ids).toEqual(first.ids);
    // A new key of a known thing joins its id; the registry says which keys name it.
    const more = await assign(dataDir, [['x', 'rpls:9', 'inv:77']]);
    expect(more).toMatchObject({ newKeys: 1, newIds: 0 });
    expect(more.ids.x).toBe(first.ids.b);
    const reg = await duckRows<{ key: string; id: string }>(`SELECT key, id FROM '${partitionPath(dataDir, 'fr', 'id_registry', 'prp')}' ORDER BY key`);
    expect(reg.filter((r) => r.id === first.ids.b).map((r) => r.key)).toEqual(['dpe:2', 'inv:77', 'rpls:9']);
    const manifest = await readManifest(dataDir, 'fr');
    expect(manifest.partitions.find((p) => p.table === 'id_registry')).toMatchObject({ partition: 'prp', rows: 7 });
  });

  it('merges two ids a source shows to be one: the earlier kept, the other recorded', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ids-merge-')), 'data');
    const one = await assign(dataDir, [['lot', 'dvf-lots:75111000AQ0029:81']]);
    const two = await assign(dataDir, [['dwelling', 'inv:123']]);
    expect(one.ids.lot).not.toBe(two.ids.dwelling);
    const joined = await assign(dataDir, [['dpe', 'inv:123', 'dvf-lots:75111000AQ0029:81']]);
    expect(joined.ids.dpe).toBe(one.ids.lot);
    expect(joined.merges).toEqual([{ from_id: two.ids.dwelling, to_id: one.ids.lot, reason: 'inv:123 and dvf-lots:75111000AQ0029:81 name one thing' }]);
    expect(await duckRows(`SELECT from_id, to_id, merged_on FROM '${partitionPath(dataDir, 'fr', 'id_merges', 'prp')}'`)).toEqual([{ from_id: two.ids.dwelling, to_id: one.ids.lot, merged_on: '2026-11-20' }]);
    // Later rows naming only the abandoned key get the kept id; nothing merges twice.
    const later = await assign(dataDir, [['x', 'inv:123']]);
    expect(later).toMatchObject({ ids: { x: one.ids.lot }, merges: [], newKeys: 0 });
  });

  it('keeps each shard\'s keys in its partition: a run reads and rewrites only the shards its rows name, the order of registration national', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ids-shards-')), 'data');
    const dep = (ref: string) => `rnb-${ref.slice(0, 2)}`;
    const flat = await assign(join(await mkdtemp(join(tmpdir(), 'lds-ids-flat-')), 'data'), [['01a', 'rnb:A1', 'bdnb:G1'], ['01b', 'rnb:B1'], ['02a', 'rnb:A2'], ['02b', 'rnb:B2', 'bdnb:G2']], 'bld');
    const one = await assign(dataDir, [['01a', 'rnb:A1', 'bdnb:G1'], ['01b', 'rnb:B1']], 'bld', dep);
    const file = (p: string) => partitionPath(dataDir, 'fr', 'id_registry', p);
    const before01 = await fileSha256(file('bld-rnb-01'));
    const two = await assign(dataDir, [['02a', 'rnb:A2'], ['02b', 'rnb:B2', 'bdnb:G2']], 'bld', dep);
    // Ids are those of one unsharded registry (the hash of the smallest key); shard 01 untouched by 02's run.
    expect({ ...one.ids, ...two.ids }).toEqual(flat.ids);
    expect(await fileSha256(file('bld-rnb-01'))).toBe(before01);
    expect(existsSync(file('bld'))).toBe(false);
    const reg = await duckRows<{ key: string; seq: bigint; part: string }>(`SELECT key, seq, parse_filename(filename, true) AS part FROM read_parquet('${tableGlob(dataDir, 'fr', 'id_registry')}', filename = true) ORDER BY seq`);
    expect(reg.map((r) => [r.key, r.part])).toEqual([['bdnb:G1', 'bld-rnb-01'], ['rnb:A1', 'bld-rnb-01'], ['rnb:B1', 'bld-rnb-01'], ['bdnb:G2', 'bld-rnb-02'], ['rnb:A2', 'bld-rnb-02'], ['rnb:B2', 'bld-rnb-02']]);
    expect(reg.map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5, 6]);
    // A thing whose rows name two shards: found in both, its new key saved in its row's shard, the earlier id kept.
    const joined = await assign(dataDir, [['01b', 'rnb:B1'], ['02x', 'rnb:B1', 'rnb:B2', 'rnb:C2']], 'bld', dep);
    expect(joined.ids['02x']).toBe(one.ids['01b']);
    expect(joined.merges).toEqual([{ from_id: two.ids['02b'], to_id: one.ids['01b'], reason: 'rnb:B2 and rnb:B1 name one thing' }]);
    expect(await duckRows(`SELECT key, seq FROM '${file('bld-rnb-02')}' WHERE key = 'rnb:C2'`)).toEqual([{ key: 'rnb:C2', seq: 7n }]);
    expect(await fileSha256(file('bld-rnb-01'))).toBe(before01);
    // Shard 02 alone now: the merge is known to it through id_merges.
    expect((await assign(dataDir, [['02b', 'rnb:B2']], 'bld', dep)).ids['02b']).toBe(one.ids['01b']);
  });

  it('runs a kind one run at a time: two runs at once (other departments) give every key its own place in the order of registration', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ids-concurrent-')), 'data');
    const rows = (dep: string) => Array.from({ length: 50 }, (_, i) => [`${dep}-${i}`, `dvf-lots:${dep}000AB${i}:1`] as [string, string]);
    const [a, b] = await Promise.all([assign(dataDir, rows('01'), 'prp', () => '01'), assign(dataDir, rows('69'), 'prp', () => '69')]);
    expect([a.newKeys, b.newKeys]).toEqual([50, 50]);
    const reg = await duckRows<{ key: string; seq: bigint }>(`SELECT key, seq FROM read_parquet('${tableGlob(dataDir, 'fr', 'id_registry')}')`);
    expect(reg).toHaveLength(100);
    expect(new Set(reg.map((r) => r.seq)).size).toBe(100);
  });

  it('reads a registry written before the shards (the unsharded partition) in every sharded run, and leaves it as it is', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ids-legacy-')), 'data');
    const old = await assign(dataDir, [['01a', 'rnb:A1'], ['02a', 'rnb:A2']], 'bld');
    const legacy = await fileSha256(partitionPath(dataDir, 'fr', 'id_registry', 'bld'));
    const now = await assign(dataDir, [['01a', 'rnb:A1', 'bdnb:G1']], 'bld', (ref) => `rnb-${ref.slice(0, 2)}`);
    // bdnb:G1 sorts before rnb:A1: a fresh id would differ, the registered one is kept.
    expect(now).toMatchObject({ ids: { '01a': old.ids['01a'] }, newKeys: 1, newIds: 0 });
    expect(await fileSha256(partitionPath(dataDir, 'fr', 'id_registry', 'bld'))).toBe(legacy);
    expect(await duckRows(`SELECT key, id FROM '${partitionPath(dataDir, 'fr', 'id_registry', 'bld-rnb-01')}'`)).toEqual([{ key: 'bdnb:G1', id: old.ids['01a'] }]);
    // A row without shard in a sharded run: its new key goes to the unsharded partition.
    await assign(dataDir, [['01a', 'rnb:A1'], ['xx', 'rnb:X']], 'bld', (ref) => (ref === 'xx' ? null : `rnb-${ref.slice(0, 2)}`));
    expect((await duckRows<{ key: string }>(`SELECT key FROM '${partitionPath(dataDir, 'fr', 'id_registry', 'bld')}' ORDER BY key`)).map((r) => r.key)).toEqual(['rnb:A1', 'rnb:A2', 'rnb:X']);
  });
});
