import { publishedPartitions } from '../../schemas/tables/layout.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import type { Country } from '../../schemas/common.ts';
import type { JobContext } from './job.ts';
import { partitionEntry, recordPartition, removePartition } from './manifest.ts';
import { Stage } from './stage.ts';
import { partitionPath, type PreparedTable } from './table-writer.ts';

/**
 * Tables whose rows carry a producer's natural key, and that key's column. A key is the
 * producer's (the row's `source`) id: two producers' ids are different keys even when equal
 * (Adresses Québec's IdAdr and the Montreal roll's ID_UEV are both numbers). The rule
 * (docs/architecture.md, "Partitions and identity"): a key is served by one partition of its
 * table only; the latest ingest that publishes it takes it from whichever partition held it.
 */
export const NATURAL_KEYS = { addresses: 'id', sales: 'id' } as const satisfies Record<string, string>;
export type KeyedTable = keyof typeof NATURAL_KEYS;

export function hasNaturalKey(table: string): table is KeyedTable {
  return Object.hasOwn(NATURAL_KEYS, table);
}

export interface Withdrawal {
  /** Partitions that held some of the keys: their rows left, and whether the partition is gone. */
  withdrawn: { partition: string; rows: number; removed: boolean }[];
  /** Swaps the rewritten partitions in and removes the emptied ones (after the new partitions are published). */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Prepares the withdrawal of the keys of the fresh partitions (pending files, not yet published)
 * from every other published partition of the table: each partition holding some of them is
 * rewritten without those rows (sorted as before), or removed when nothing is left.
 */
export async function prepareWithdrawal(
  ctx: JobContext, country: Country, table: KeyedTable, fresh: { partition: string; path: string }[], orderBy = 'cell',
  mayHold: (partition: string) => boolean = () => true,
): Promise<Withdrawal> {
  const own = new Set(fresh.map((f) => f.partition));
  const others = [...publishedPartitions(ctx.dataDir, country, table)].filter(([p]) => !own.has(p) && mayHold(p));
  const none: Withdrawal = { withdrawn: [], commit: async () => {}, discard: async () => {} };
  if (others.length === 0 || fresh.length === 0) return none;
  const key = NATURAL_KEYS[table];
  const stage = await Stage.open(ctx.dataDir, `${country}-${table}-withdraw`);
  const rewritten: { partition: string; table: PreparedTable }[] = [];
  const removed: string[] = [];
  const withdrawn: Withdrawal['withdrawn'] = [];
  try {
    const c = stage.connection;
    await c.run(`CREATE TABLE fresh_keys AS SELECT DISTINCT ${key} AS k, source AS s FROM read_parquet([${fresh.map((f) => quotedString(f.path)).join(', ')}], union_by_name = true)`);
    const list = `[${others.map(([, path]) => quotedString(path)).join(', ')}]`;
    const hits = (await c.runAndReadAll(`SELECT filename, count(f.k)::BIGINT AS taken, count(*)::BIGINT AS total
      FROM read_parquet(${list}, filename = true, union_by_name = true) t LEFT JOIN fresh_keys f ON f.k = t.${key} AND f.s = t.source
      GROUP BY filename HAVING taken > 0 ORDER BY filename`)).getRowObjectsJS() as { filename: string; taken: bigint; total: bigint }[];
    for (const h of hits) {
      const partition = others.find(([, path]) => path === h.filename)![0];
      if (h.taken === h.total) {
        removed.push(partition);
      } else {
        rewritten.push({ partition, table: await stage.prepareParquet(`SELECT t.* FROM read_parquet(${quotedString(h.filename)}) t ANTI JOIN fresh_keys f ON f.k = t.${key} AND f.s = t.source`, { dataDir: ctx.dataDir, country, table, partition, orderBy }) });
      }
      withdrawn.push({ partition, rows: Number(h.taken), removed: h.taken === h.total });
      ctx.log(`${country}/${table}/${partition}: ${h.taken} row(s) whose ${key} the new partition(s) now serve withdrawn${h.taken === h.total ? ' (partition removed)' : ''}`);
    }
  } catch (e) {
    for (const r of rewritten) await r.table.discard();
    throw e;
  } finally {
    await stage.close().catch(() => {});
  }
  if (withdrawn.length === 0) return none;
  return {
    withdrawn,
    commit: async () => {
      for (const r of rewritten) {
        const written = await r.table.commit();
        const entry = await partitionEntry(ctx.dataDir, country, table, r.partition);
        // Its sources are unchanged; only its rows and file are.
        if (entry) await recordPartition(ctx.dataDir, country, { ...entry, rows: written.rows, sha256: written.sha256 }, ctx.now());
      }
      for (const partition of removed) {
        await rm(partitionPath(ctx.dataDir, country, table, partition), { force: true });
        await removePartition(ctx.dataDir, country, table, partition, ctx.now());
      }
    },
    discard: async () => { for (const r of rewritten) await r.table.discard(); },
  };
}
