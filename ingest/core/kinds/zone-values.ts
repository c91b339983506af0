import { dateValue } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import { ZONE_VALUE_COLUMNS, ZoneValueRow } from '../../../schemas/tables/zone-values.ts';
import type { Source } from '../../../datasets/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../job.ts';
import { requirePublishedOn } from '../published-on.ts';
import { Rejects } from '../rejects.ts';
import { TableWriter, cleanStaleTemporaries, type PreparedTable } from '../table-writer.ts';

/** A value as a job reads it: the source and the publication date are the writer's, the same for every row of a partition. */
export type ZoneValueInput = Omit<ZoneValueRow, 'source' | 'published_on' | 'suppressed' | 'range_low' | 'range_high' | 'sample_size' | 'reliability'> & {
  sample_size?: number | null; reliability?: ZoneValueRow['reliability']; range_low?: number | null; range_high?: number | null;
  /** The producer withholds the value (an empty cell of a table with statistical secrecy): served null, reason suppressed. */
  suppressed?: boolean;
};

const DAY_MS = 86_400_000;
const date = (iso: string | null) => (iso === null ? null : dateValue(Date.parse(`${iso}T00:00:00Z`) / DAY_MS));

/**
 * Stages a partition of a zone-values table (schemas/tables/zone-values.ts): one row per zone,
 * indicator, breakdown and period, checked against the row schema. A value is never invented:
 * a withheld one is kept as null with `suppressed`. Every row carries the producer's publication
 * date of the edition (`publishedOn`, served as Measure.updated_on): a partition cannot be
 * written without one.
 */
export class ZoneValuesWriter {
  private seen = new Set<string>();
  private constructor(private readonly writer: TableWriter, readonly table: string, readonly source: string, readonly publishedOn: string) {}

  static async open(dataDir: string, country: Country, table: string, partition: string, source: string, publishedOn: string): Promise<ZoneValuesWriter> {
    if (!ZoneValueRow.shape.published_on.unwrap().safeParse(publishedOn).success) throw new Error(`${source}: publication date ${JSON.stringify(publishedOn)} is not a date YYYY-MM-DD`);
    await cleanStaleTemporaries(dataDir, country, table);
    return new ZoneValuesWriter(await TableWriter.open({ dataDir, country, table, partition, columns: ZONE_VALUE_COLUMNS, orderBy: 'code' }), table, source, publishedOn);
  }

  /** Adds a value; returns why it cannot be used instead. */
  add(v: ZoneValueInput): string | null {
    const suppressed = v.suppressed ?? false;
    const row = ZoneValueRow.safeParse({
      ...v, sample_size: v.sample_size ?? null, reliability: v.reliability ?? null, range_low: v.range_low ?? null, range_high: v.range_high ?? null,
      value: suppressed ? null : v.value, suppressed, source: this.source, published_on: this.publishedOn,
    });
    if (!row.success) return row.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    const r = row.data;
    if (r.value === null && !r.suppressed) return `${r.indicator} of ${r.level} ${r.code}: no value (a withheld value is marked suppressed)`;
    if (r.value !== null && !Number.isFinite(r.value)) return `${r.indicator} of ${r.level} ${r.code}: value is not a finite number`;
    const key = `${r.level}|${r.code}|${r.indicator}|${r.breakdown ?? ''}|${r.period_start ?? ''}|${r.period_end ?? ''}`;
    if (this.seen.has(key)) return `duplicate value of ${r.indicator} for ${r.level} ${r.code} (${r.breakdown ?? 'all'}, ${r.period_start ?? '-'} to ${r.period_end ?? '-'})`;
    this.seen.add(key);
    this.writer.append([r.level, r.code, r.indicator, r.breakdown, date(r.period_start), date(r.period_end), r.value, r.unit, r.sample_size,
      r.reliability, r.range_low, r.range_high, r.suppressed, r.source, date(r.published_on)]);
    return null;
  }

  get count(): number { return this.writer.rowCount; }

  async prepare(): Promise<{ table: string; prepared: PreparedTable }[]> {
    return [{ table: this.table, prepared: await this.writer.prepare() }];
  }

  async abort(): Promise<void> { await this.writer.abort(); }
}

export interface ZoneValuesJobSpec {
  country: Country;
  /** The job id recorded in the manifest (`fr.filosofi`). */
  job: string;
  source: Source;
  /** `publishedAt`: the producer's publication date of the edition (required: see requirePublishedOn). */
  input: JobInput;
  /** Names the rejects file: the partition itself, or the source id when rows choose their partitions. */
  rejectsPartition: string;
}

export interface ZoneValuesSink {
  rejects: Rejects;
  /** The writer of a partition of `<country>/zone_values`, opened on first use. */
  writer(partition: string): Promise<ZoneValuesWriter>;
}

/**
 * The frame of every zone-values job: `read` fills the sink and returns how many rows it read;
 * then the reject share is checked, every partition is prepared before any is published (a
 * failure publishes nothing) and each is published in the order of its name. On any failure
 * the rejects file is closed and every writer aborted. Without the producer's publication date of
 * the input it fails before opening anything; the date goes in every row and in the manifest.
 */
export async function runZoneValuesJob(ctx: JobContext, spec: ZoneValuesJobSpec, read: (sink: ZoneValuesSink) => Promise<number>): Promise<PartitionSummary[]> {
  const publishedOn = requirePublishedOn(spec.job, spec.input);
  const rejects = new Rejects(ctx.dataDir, spec.country, 'zone_values', spec.rejectsPartition, ctx.maxRejectShare);
  await rejects.init();
  const writers = new Map<string, ZoneValuesWriter>();
  const writer = async (partition: string) => {
    let w = writers.get(partition);
    if (!w) { w = await ZoneValuesWriter.open(ctx.dataDir, spec.country, 'zone_values', partition, spec.source.id, publishedOn); writers.set(partition, w); }
    return w;
  };
  try {
    const total = await read({ rejects, writer });
    rejects.check(total);
    await rejects.close();
    const prepared = [];
    for (const [partition, w] of [...writers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) prepared.push({ partition, tables: await w.prepare() });
    const out: PartitionSummary[] = [];
    for (const { partition, tables } of prepared) out.push(...await publish(ctx, spec.country, spec.job, spec.source, spec.input, partition, tables, rejects));
    return out;
  } catch (e) {
    await rejects.close();
    for (const w of writers.values()) await w.abort();
    throw e;
  }
}
