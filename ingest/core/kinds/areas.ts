import { getResolution } from 'h3-js';
import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../../schemas/common.ts';
import { AREA_CELL_COLUMNS, AREA_COLUMNS, AreaRow, areaCellsTable } from '../../../schemas/tables/areas.ts';
import { cellToBigint } from '../../../schemas/tables/cells.ts';
import { ZONE_COVER_RES } from '../../../schemas/tables/zones.ts';
import { blobValue } from '@duckdb/node-api';
import { polygonWkb } from '../geoparquet.ts';
import { StageDatabase, TableWriter, cleanStaleTemporaries, type PreparedTable } from '../table-writer.ts';
import { coverZone } from '../zone-cover.ts';

/** An area as a job reads it: an outline in WGS84 [lng, lat], a layer and published fields. */
export interface AreaInput {
  id: string;
  layer: string;
  geometry: Polygon | MultiPolygon;
  attributes?: Record<string, unknown> | null;
}

function bbox(g: Polygon | MultiPolygon): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat();
  for (const ring of rings) for (const [x, y] of ring) {
    if (x! < minX) minX = x!; if (x! > maxX) maxX = x!; if (y! < minY) minY = y!; if (y! > maxY) maxY = y!;
  }
  return [minX, minY, maxX, maxY];
}

/**
 * Stages a partition of an areas table and of its cover (`<table>_cells`), covered as zones are
 * (interior cells compacted, border cells for the exact test); the caller publishes both together.
 */
/** The staged column holding each outline's WKB (polygonWkb), written as the file's `geom`. */
const WKB = 'geom_wkb';

export class AreasWriter {
  private seen = new Set<string>();
  /** What the file's `geo` metadata says, kept as rows are added: geometry types and extent. */
  private types = new Set<string>();
  private extent: [number, number, number, number] | null = null;
  private constructor(private readonly areas: TableWriter, private readonly cells: TableWriter, readonly table: string, readonly source: string) {}

  /**
   * With `stage`, a run's shared staging database (two tables of it), whose opener has removed
   * the leftovers of killed runs (AreasWriter.cleanStale) once for the run.
   */
  static async open(dataDir: string, country: Country, table: string, partition: string, source: string, stage?: StageDatabase): Promise<AreasWriter> {
    const cellsTable = areaCellsTable(table);
    if (!stage) await AreasWriter.cleanStale(dataDir, country, table);
    const areas = await TableWriter.open({ dataDir, country, table, partition, columns: { ...AREA_COLUMNS, [WKB]: 'BLOB' }, orderBy: 'id' }, stage);
    const cells = await TableWriter.open({ dataDir, country, table: cellsTable, partition, columns: AREA_CELL_COLUMNS, orderBy: ['cell', 'id'] }, stage);
    return new AreasWriter(areas, cells, table, source);
  }

  /** Removes what killed runs left of the table and its cover (pending files, staging databases). */
  static async cleanStale(dataDir: string, country: Country, table: string): Promise<void> {
    await cleanStaleTemporaries(dataDir, country, table);
    await cleanStaleTemporaries(dataDir, country, areaCellsTable(table));
  }

  /** Adds an area; returns why it cannot be used instead. */
  add(a: AreaInput): string | null {
    if (this.seen.has(a.id)) return `duplicate id ${a.id}`;
    if (a.geometry?.type !== 'Polygon' && a.geometry?.type !== 'MultiPolygon') return `geometry must be a Polygon or MultiPolygon, not ${(a.geometry as { type?: string } | null)?.type ?? 'none'}`;
    const [minLng, minLat, maxLng, maxLat] = bbox(a.geometry);
    if (!(minLng >= -180 && maxLng <= 180 && minLat >= -90 && maxLat <= 90)) return `coordinates outside WGS84 bounds (${minLng}, ${minLat}, ${maxLng}, ${maxLat}): wrong CRS?`;
    const row = AreaRow.safeParse({
      id: a.id, layer: a.layer, attributes: a.attributes ? JSON.stringify(a.attributes) : null,
      min_lng: minLng, min_lat: minLat, max_lng: maxLng, max_lat: maxLat, geometry: JSON.stringify(a.geometry), source: this.source,
    });
    if (!row.success) return row.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    this.seen.add(a.id);
    const r = row.data;
    const wkb = polygonWkb(a.geometry);
    this.areas.append([r.id, r.layer, r.attributes, r.min_lng, r.min_lat, r.max_lng, r.max_lat, r.geometry, r.source, wkb && blobValue(wkb)]);
    this.types.add(a.geometry.type);
    const e = this.extent;
    if (!e) this.extent = [r.min_lng, r.min_lat, r.max_lng, r.max_lat];
    else { e[0] = Math.min(e[0], r.min_lng); e[1] = Math.min(e[1], r.min_lat); e[2] = Math.max(e[2], r.max_lng); e[3] = Math.max(e[3], r.max_lat); }
    const cover = coverZone(a.geometry);
    for (const c of cover.interior) this.cells.append([cellToBigint(c), getResolution(c), r.id, true]);
    for (const c of cover.border) this.cells.append([cellToBigint(c), ZONE_COVER_RES, r.id, false]);
    return null;
  }

  get count(): number { return this.areas.rowCount; }

  async prepare(): Promise<{ table: string; prepared: PreparedTable }[]> {
    return [
      // The sources, WKB, extent and count the writer has: the staged rows are not scanned again for them.
      { table: this.table, prepared: await this.areas.prepare({ sources: this.count > 0 ? [this.source] : [], wkb: WKB, geo: { types: [...this.types], bbox: this.extent }, rows: true }) },
      { table: areaCellsTable(this.table), prepared: await this.cells.prepare({ rows: true }) },
    ];
  }

  async abort(): Promise<void> { await this.areas.abort(); await this.cells.abort(); }
}
