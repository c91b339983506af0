import type { Country } from '../../../schemas/common.ts';
import { POINT_COLUMNS, PointRow } from '../../../schemas/tables/points.ts';
import { pointCellId } from '../point-cell.ts';
import { TableWriter, cleanStaleTemporaries, type PreparedTable } from '../table-writer.ts';

/** A point as a job reads it from its producer's file: typed fields, position in WGS84. */
export interface PointInput {
  id: string;
  longitude: number;
  latitude: number;
  category: string;
  name: string | null;
  /** Other published fields the domain serves; stored as a JSON object. */
  attributes?: Record<string, unknown> | null;
}

/**
 * Stages a partition of a points table (schemas/tables/points.ts): each row checked against the
 * row schema, its cell computed, the file sorted by cell. The caller publishes it (job.ts).
 */
export class PointsWriter {
  private seen = new Set<string>();
  private constructor(private readonly writer: TableWriter, readonly table: string, readonly source: string) {}

  static async open(dataDir: string, country: Country, table: string, partition: string, source: string): Promise<PointsWriter> {
    await cleanStaleTemporaries(dataDir, country, table);
    return new PointsWriter(await TableWriter.open({ dataDir, country, table, partition, columns: POINT_COLUMNS, orderBy: 'cell' }), table, source);
  }

  /** Adds a point; returns why it cannot be used instead (the job writes that to its rejects). */
  add(p: PointInput): string | null {
    if (!Number.isFinite(p.longitude) || !Number.isFinite(p.latitude)) return 'no position';
    if (this.seen.has(p.id)) return `duplicate id ${p.id}`;
    const row = PointRow.safeParse({
      id: p.id, cell: 0n, longitude: p.longitude, latitude: p.latitude, category: p.category, name: p.name?.trim() || null,
      attributes: p.attributes ? JSON.stringify(p.attributes) : null, source: this.source,
    });
    if (!row.success) return row.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    this.seen.add(p.id);
    const r = row.data;
    this.writer.append([r.id, pointCellId(r.latitude, r.longitude), r.longitude, r.latitude, r.category, r.name, r.attributes, r.source]);
    return null;
  }

  get count(): number { return this.writer.rowCount; }

  async prepare(): Promise<{ table: string; prepared: PreparedTable }[]> {
    return [{ table: this.table, prepared: await this.writer.prepare() }];
  }

  async abort(): Promise<void> { await this.writer.abort(); }
}
