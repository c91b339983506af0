import { fileProgress } from './progress.ts';
import { basename } from 'node:path';
import type { Source } from '../../datasets/source.ts';
import type { Country } from '../../schemas/common.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from './job.ts';
import { PointsWriter, type PointInput } from './kinds/points.ts';
import { readCsv, readCsvHeader } from './readers/csv.ts';
import { Rejects } from './rejects.ts';
import { requireColumns } from './columns.ts';

/**
 * What a row of a producer's point file gives: a point, a refusal (a broken row: rejects, with its
 * line) or a leaving-out (a row the producer publishes as it should but the table does not hold:
 * a code outside the taxonomy, a position the producer says it does not have), counted by reason
 * in the job's log line.
 */
export type RowOutcome = PointInput | { reject: string } | { skip: string };

export interface PointsCsvSpec {
  country: Country;
  job: string;
  source: Source;
  partition: string;
  /** What the file is, for the message naming missing columns ("INSEE's BPE geolocated file"). */
  layout: string;
  separator: string;
  encoding?: string;
  /** Columns the row reader needs: a file without one of them is refused whole, naming them. */
  required: readonly string[];
  row: (record: Record<string, string>, line: number) => RowOutcome;
  /**
   * For a producer publishing one row per unit of a place (INSEE's BPE: one row per doctor of a
   * practice): rows of the same id are one point, `merge` folding the next into the first. The
   * points are then held until the end of the file. Without it, a repeated id is refused.
   */
  merge?: (first: PointInput, next: PointInput) => PointInput;
}

/** Checks the header, reads every row through `spec.row`, publishes the partition or nothing. */
export async function ingestPointsCsv(ctx: JobContext, input: JobInput, spec: PointsCsvSpec): Promise<PartitionSummary[]> {
  const table = 'places';
  const header = await readCsvHeader(input.path, { separator: spec.separator, encoding: spec.encoding });
  requireColumns(header, spec.required, `${spec.layout} (${basename(input.path)})`);
  const rejects = new Rejects(ctx.dataDir, spec.country, table, spec.partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, spec.country, table, spec.partition, spec.source.id);
  const skipped = new Map<string, number>();
  const held = new Map<string, { point: PointInput; line: number; record: Record<string, string> }>();
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: spec.separator, encoding: spec.encoding, progress: fileProgress(ctx, spec.job, input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const out = spec.row(record, line);
      if ('reject' in out) { rejects.add(line, out.reject, record); continue; }
      if ('skip' in out) { skipped.set(out.skip, (skipped.get(out.skip) ?? 0) + 1); continue; }
      if (spec.merge) {
        const first = held.get(out.id);
        if (first) first.point = spec.merge(first.point, out); else held.set(out.id, { point: out, line, record });
        continue;
      }
      const why = writer.add(out);
      if (why) rejects.add(line, why, record);
    }
    for (const { point, line, record } of held.values()) {
      const why = writer.add(point);
      if (why) rejects.add(line, why, record);
    }
    rejects.check(total);
    await rejects.close();
    const published = await publish(ctx, spec.country, spec.job, spec.source, input, spec.partition, await writer.prepare(), rejects);
    ctx.log(pointsCsvSummary(spec.job, total, writer.count, rejects.count, skipped));
    return published;
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}

/** The job's log line: rows read, points written, refused, and left out by reason. */
export function pointsCsvSummary(job: string, rows: number, points: number, rejected: number, skipped: ReadonlyMap<string, number>): string {
  const left = [...skipped].sort((a, b) => b[1] - a[1]).map(([why, n]) => `${n} ${why}`).join('; ');
  return `${job}: ${points} points from ${rows} rows, ${rejected} refused${left ? `; left out: ${left}` : ''}`;
}

/** A decimal as producers write it: point or comma, no thousands separator; NaN otherwise. */
export function decimal(raw: string | undefined): number {
  const t = (raw ?? '').trim();
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/.test(t)) return Number.NaN;
  return Number(t.replace(',', '.'));
}
