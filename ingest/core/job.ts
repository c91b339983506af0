import { basename } from 'node:path';
import type { Country } from '../../schemas/common.ts';
import { TABLE_SCHEMA_VERSION, type ManifestPartition } from '../../schemas/tables/manifest.ts';
import type { Source } from '../../datasets/source.ts';
import { recordPartition } from './manifest.ts';
import { fileSha256, type PreparedTable } from './table-writer.ts';
import type { Rejects } from './rejects.ts';
import { hasNaturalKey, prepareWithdrawal, type Withdrawal } from './natural-key.ts';

/** What every job receives: where to write, how strict to be, and a clock for the manifest. */
export interface JobContext {
  dataDir: string;
  /** Share of rejected rows past which the job fails and publishes nothing (default 0.01). */
  maxRejectShare: number;
  now: () => Date;
  /** Progress and summaries go here; tests pass a silent stream. */
  log: (line: string) => void;
  progressOut?: NodeJS.WriteStream;
}

export interface PartitionSummary { table: string; partition: string; rows: number; rejects: number; rejectsFile: string | null; file: string }
export interface JobSummary { job: string; partitions: PartitionSummary[]; seconds: number }

/** One input of a manifest entry. */
export type SourceEntry = ManifestPartition['sources'][number];

export interface JobInput { path: string; sha256?: string; publishedAt?: string | null; downloadedFrom?: string | null }

/**
 * Swaps in the prepared tables of one input together and records them in the manifest:
 * nothing is published when any table of the input failed. A table with a natural key
 * (natural-key.ts) then stops serving the new partition's keys from any other partition.
 */
export async function publish(
  ctx: JobContext,
  country: Country,
  job: string,
  source: Source,
  input: JobInput,
  partition: string,
  prepared: { table: string; prepared: PreparedTable }[],
  rejects: Rejects,
  opts: {
    /** Sources of the rows the partition keeps from its previous version, if any. */
    kept?: SourceEntry[];
    /** The other partitions that may hold the new keys (default: all); a job partitioning by content names the others. */
    withdrawFrom?: (partition: string) => boolean;
  } = {},
): Promise<PartitionSummary[]> {
  const kept = opts.kept ?? [];
  const inputSha = input.sha256 ?? (await fileSha256(input.path));
  const withdrawals: Withdrawal[] = [];
  try {
    for (const { table, prepared: p } of prepared) {
      if (hasNaturalKey(table)) withdrawals.push(await prepareWithdrawal(ctx, country, table, [{ partition, path: p.pendingPath }], 'cell', opts.withdrawFrom));
    }
  } catch (e) {
    for (const w of withdrawals) await w.discard();
    throw e;
  }
  const out: PartitionSummary[] = [];
  for (const { table, prepared: p } of prepared) {
    const written = await p.commit();
    await recordPartition(ctx.dataDir, country, {
      table,
      partition,
      file: written.relativePath,
      job,
      sources: [...kept.filter((k) => !(k.id === source.id && k.input_sha256 === inputSha)),
        { id: source.id, input: basename(input.path), input_sha256: inputSha, published_at: input.publishedAt ?? null, downloaded_from: input.downloadedFrom ?? null }],
      rows: written.rows,
      rejects: rejects.count,
      rejects_file: rejects.count > 0 ? rejects.path : null,
      imported_at: ctx.now().toISOString(),
      schema_version: TABLE_SCHEMA_VERSION,
      sha256: written.sha256,
    }, ctx.now());
    out.push({ table, partition, rows: written.rows, rejects: rejects.count, rejectsFile: rejects.count > 0 ? rejects.path : null, file: written.path });
  }
  for (const w of withdrawals) await w.commit();
  return out;
}
