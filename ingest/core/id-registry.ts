import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { quotedString, type DuckDBConnection } from '@duckdb/node-api';
import type { Country } from '../../schemas/common.ts';
import { TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import { ID_MERGE_COLUMNS, ID_REGISTRY_COLUMNS, type IdKind } from '../../schemas/tables/id-registry.ts';
import { partitionFile, publishedPartitions } from '../../schemas/tables/layout.ts';
import type { JobContext } from './job.ts';
import { withLockFile } from './lock-file.ts';
import { recordPartition } from './manifest.ts';
import { fileSha256, partitionPath, pendingPath } from './table-writer.ts';

export const ID_REGISTRY_TABLE = 'id_registry';
export const ID_MERGES_TABLE = 'id_merges';

export interface Assigned { keys: number; newKeys: number; newIds: number; merges: { from_id: string; to_id: string; reason: string }[] }

const empty = (columns: Record<string, string>) => `SELECT ${Object.entries(columns).map(([k, t]) => `NULL::${t} AS ${k}`).join(', ')} WHERE false`;

/** The registry partition of a shard: `<kind>` (the unsharded partition, read by every run) or `<kind>-<shard>`. */
export const registryPartition = (kind: IdKind, shard: string | null) => (shard === null ? kind : `${kind}-${shard}`);

/**
 * The id registry (spec 2.5): gives each thing named by a source's natural keys an opaque id of
 * ours, kept for good. `request` is a table of the connection with (ref, key) and optionally
 * `shard`: the keys naming each row of the job (a row may carry several keys: an RNB id and a
 * BDNB id; a diagnosis number and the number it replaces). Rows sharing a key are one thing. A
 * thing whose keys are already registered keeps its id; a new thing gets `<kind>_` and the first
 * 20 hex digits of the SHA-256 of its smallest key (deterministic, so a fresh ingest of the same
 * files gives the same ids); when its keys name two registered ids, the earlier is kept and the
 * other recorded in id_merges (answered 301 toward the kept one). Writes `out` (ref, id).
 *
 * The registry is sharded so that a department's run reads and rewrites its own keys, not the
 * nation's: a row's `shard` (`rnb-01`, `dpe-69`, the department of a property) names the
 * partition `<kind>-<shard>` its new keys are saved in, and the run reads only the shards its
 * rows name, plus the unsharded partition `<kind>` (rows without shard, and registries written
 * before the shards: read by every run, never rewritten by a sharded one). A thing whose rows
 * name two shards is looked up in both and its new keys saved in each row's shard (a key named
 * in both: the smaller shard). A key registered in a shard the run does not read (a building the
 * sources move to another department) is not seen: its thing keeps its id only if its smallest
 * key is unchanged (the id is that key's hash), else it gets a new id. The registration order
 * (`seq`) stays national: it continues from the largest `seq` of every shard, read from the
 * Parquet footers. Done in DuckDB so that national counts (tens of millions of keys) stay on disk.
 */
export async function assignIds(c: DuckDBConnection, ctx: JobContext, o: { country: Country; kind: IdKind; source: string; job: string; request: string; out: string }): Promise<Assigned> {
  // One run of a kind at a time (two processes ingesting departments side by side): each reads the
  // registry after the other has saved, so neither reuses the other's `seq` nor loses its merges.
  await mkdir(join(ctx.dataDir, o.country), { recursive: true });
  return withLockFile(join(ctx.dataDir, o.country, `.id-registry-${o.kind}.lock`), () => assign(c, ctx, o));
}

async function assign(c: DuckDBConnection, ctx: JobContext, o: { country: Country; kind: IdKind; source: string; job: string; request: string; out: string }): Promise<Assigned> {
  const mrgFile = partitionPath(ctx.dataDir, o.country, ID_MERGES_TABLE, o.kind);
  const q = async <T>(sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS() as T[];
  const sharded = (await q<{ column_name: string }>(`DESCRIBE ${o.request}`)).some((r) => r.column_name === 'shard');
  await c.run(`CREATE OR REPLACE TEMP TABLE _req AS SELECT DISTINCT ref::VARCHAR AS ref, key::VARCHAR AS key, ${sharded ? 'shard::VARCHAR' : 'NULL::VARCHAR'} AS shard FROM ${o.request} WHERE key IS NOT NULL AND key <> ''`);
  // The shards this run can hit: those its rows name and the unsharded partition.
  const shards = (await q<{ shard: string | null }>(`SELECT DISTINCT shard FROM _req`)).map((r) => r.shard);
  const partitions = [...new Set([o.kind, ...shards.map((s) => registryPartition(o.kind, s))])].sort();
  const files = partitions.map((p) => ({ partition: p, file: partitionPath(ctx.dataDir, o.country, ID_REGISTRY_TABLE, p) })).filter((f) => existsSync(f.file));
  await c.run(`CREATE OR REPLACE TEMP TABLE _reg AS ${files.length > 0 ? files.map((f) => `SELECT *, ${quotedString(f.partition)} AS part FROM read_parquet(${quotedString(f.file)})`).join(' UNION ALL ') : `SELECT *, NULL::VARCHAR AS part FROM (${empty(ID_REGISTRY_COLUMNS)})`}`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _mrg AS ${existsSync(mrgFile) ? `SELECT * FROM read_parquet(${quotedString(mrgFile)})` : empty(ID_MERGE_COLUMNS)}`);
  // Things: rows joined by a shared key (connected components, labelled by their smallest key).
  await c.run(`CREATE OR REPLACE TEMP TABLE _rk AS SELECT DISTINCT ref, key FROM _req`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _lab AS SELECT ref, min(key) AS label FROM _rk GROUP BY ref`);
  for (let i = 0; i < 64; i++) {
    await c.run(`CREATE OR REPLACE TEMP TABLE _next AS
      WITH kl AS (SELECT r.key, min(l.label) AS label FROM _rk r JOIN _lab l USING (ref) GROUP BY r.key)
      SELECT r.ref, min(kl.label) AS label FROM _rk r JOIN kl USING (key) GROUP BY r.ref`);
    const [{ changed }] = await q<{ changed: number }>(`SELECT count(*)::INTEGER AS changed FROM _next n JOIN _lab l USING (ref) WHERE n.label <> l.label`);
    await c.run(`CREATE OR REPLACE TEMP TABLE _lab AS SELECT * FROM _next`);
    if (changed === 0) break;
    if (i === 63) throw new Error('id registry: rows linked by shared keys did not settle in 64 passes');
  }
  // Registered ids of each thing, each resolved through earlier merges, with its first registration.
  const final = new Map<string, string>();
  for (const m of await q<{ from_id: string; to_id: string }>(`SELECT from_id, to_id FROM _mrg`)) final.set(m.from_id, m.to_id);
  const resolve = (id: string) => { let x = id; for (let n = 0; final.has(x) && n < 1000; n++) x = final.get(x)!; return x; };
  await c.run(`CREATE OR REPLACE TEMP TABLE _first AS SELECT id, min(seq) AS seq FROM _reg GROUP BY id`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _hits AS SELECT DISTINCT l.label, g.id, r.key FROM _rk r JOIN _lab l USING (ref) JOIN _reg g USING (key)`);
  const resolved = [...final.keys()].map((k) => [k, resolve(k)]);
  await c.run(`CREATE OR REPLACE TEMP TABLE _final (from_id VARCHAR, to_id VARCHAR)`);
  if (resolved.length > 0) await c.run(`INSERT INTO _final VALUES ${resolved.map(([a, b]) => `(${quotedString(a!)}, ${quotedString(b!)})`).join(', ')}`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _hit AS SELECT h.label, coalesce(f.to_id, h.id) AS id, min(h.key) AS key FROM _hits h LEFT JOIN _final f ON f.from_id = h.id GROUP BY ALL`);
  // Things naming two ids or more: the earlier kept, the others merged into it.
  const merges: Assigned['merges'] = [];
  const several = await q<{ label: string; ids: string[]; keys: string[]; seqs: bigint[] }>(
    `SELECT h.label, list(h.id ORDER BY f.seq, h.id) AS ids, list(h.key ORDER BY f.seq, h.id) AS keys, list(f.seq ORDER BY f.seq, h.id) AS seqs
     FROM _hit h JOIN _first f USING (id) WHERE h.label IN (SELECT label FROM _hit GROUP BY label HAVING count(DISTINCT id) > 1) GROUP BY h.label`);
  for (const s of several) {
    for (let i = 1; i < s.ids.length; i++) if (s.ids[i] !== s.ids[0]) merges.push({ from_id: s.ids[i]!, to_id: s.ids[0]!, reason: `${s.keys[i]} and ${s.keys[0]} name one thing` });
  }
  const kept = several.map((s) => [s.label, s.ids[0]!]);
  await c.run(`CREATE OR REPLACE TEMP TABLE _kept (label VARCHAR, id VARCHAR)`);
  if (kept.length > 0) await c.run(`INSERT INTO _kept VALUES ${kept.map(([l, id]) => `(${quotedString(l!)}, ${quotedString(id!)})`).join(', ')}`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _thing AS
    SELECT l.label, coalesce(k.id, any_value(h.id), ${quotedString(`${o.kind}_`)} || substr(sha256(${quotedString(`${o.kind}:`)} || l.label), 1, 20)) AS id, bool_or(h.label IS NOT NULL) AS known
    FROM (SELECT DISTINCT label FROM _lab) l LEFT JOIN _kept k USING (label) LEFT JOIN _hit h USING (label) GROUP BY l.label, k.id`);
  // A new id equal to one already given to other keys (in the shards read) would make two things one: refuse.
  const clash = await q<{ id: string }>(`SELECT t.id FROM _thing t JOIN _first f USING (id) WHERE NOT t.known LIMIT 1`);
  if (clash.length > 0) throw new Error(`id registry: the new id ${clash[0]!.id} is already given to other keys (hash collision); nothing registered`);
  await c.run(`CREATE OR REPLACE TABLE ${o.out} AS SELECT l.ref, t.id FROM _lab l JOIN _thing t USING (label)`);

  // New keys (an anti-join: a NOT IN over the registry is a nested scan at national counts), each in the shard of its rows.
  await c.run(`CREATE OR REPLACE TEMP TABLE _new AS SELECT r.key, min(l.label) AS label, min(r.shard) AS shard
    FROM _req r JOIN _lab l USING (ref) ANTI JOIN _reg g ON g.key = r.key GROUP BY r.key`);
  const [{ keys, newKeys, newIds }] = await q<{ keys: number; newKeys: number; newIds: number }>(`SELECT
    (SELECT count(*) FROM (SELECT DISTINCT key FROM _rk))::INTEGER AS keys,
    (SELECT count(*) FROM _new)::INTEGER AS newKeys,
    (SELECT count(*) FROM _thing WHERE NOT known)::INTEGER AS newIds`);
  if (newKeys === 0 && merges.length === 0) return { keys, newKeys, newIds, merges };
  const today = ctx.now().toISOString().slice(0, 10);
  if (newKeys > 0) {
    // The order of registration continues the nation's, from every shard's footer (no data read).
    const all = [...publishedPartitions(ctx.dataDir, o.country, ID_REGISTRY_TABLE)].filter(([p]) => p === o.kind || p.startsWith(`${o.kind}-`)).map(([, f]) => f);
    const [{ top }] = all.length === 0 ? [{ top: 0n }] : await q<{ top: bigint | null }>(`SELECT max(TRY_CAST(stats_max_value AS BIGINT)) AS top FROM parquet_metadata([${all.map((f) => quotedString(f)).join(', ')}]) WHERE path_in_schema = 'seq'`);
    await c.run(`CREATE OR REPLACE TEMP TABLE _add AS SELECT n.key, t.id, ${top ?? 0n}::BIGINT + row_number() OVER (ORDER BY n.key) AS seq, ${quotedString(o.source)} AS source, coalesce(${quotedString(`${o.kind}-`)} || n.shard, ${quotedString(o.kind)}) AS part
      FROM _new n JOIN _thing t USING (label)`);
    // Only the shards receiving keys are rewritten.
    const written = (await q<{ part: string }>(`SELECT DISTINCT part FROM _add ORDER BY part`)).map((r) => r.part);
    for (const part of written) {
      const file = partitionPath(ctx.dataDir, o.country, ID_REGISTRY_TABLE, part);
      await save(c, ctx, o, ID_REGISTRY_TABLE, part, file, `SELECT key, id, seq, source FROM _reg WHERE part = ${quotedString(part)} UNION ALL SELECT key, id, seq, source FROM _add WHERE part = ${quotedString(part)} ORDER BY key`);
    }
  }
  if (merges.length > 0) {
    await c.run(`INSERT INTO _mrg VALUES ${merges.map((m) => `(${[m.from_id, m.to_id, m.reason, today, o.source].map((v) => quotedString(v)).join(', ')})`).join(', ')}`);
    await save(c, ctx, o, ID_MERGES_TABLE, o.kind, mrgFile, 'SELECT * FROM _mrg ORDER BY from_id');
  }
  return { keys, newKeys, newIds, merges };
}

async function save(c: DuckDBConnection, ctx: JobContext, o: { country: Country; job: string }, table: string, partition: string, file: string, select: string): Promise<void> {
  const tmp = pendingPath(file);
  await mkdir(dirname(file), { recursive: true });
  try {
    await c.run(`COPY (${select}) TO ${quotedString(tmp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 65536)`);
    const [{ n }] = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${quotedString(tmp)})`)).getRowObjectsJS() as { n: number }[];
    const sha256 = await fileSha256(tmp);
    await rename(tmp, file);
    await recordPartition(ctx.dataDir, o.country, {
      table, partition, file: partitionFile(o.country, table, partition), job: o.job, sources: [], rows: n, rejects: 0, rejects_file: null,
      imported_at: ctx.now().toISOString(), schema_version: TABLE_SCHEMA_VERSION, sha256,
    }, ctx.now());
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
