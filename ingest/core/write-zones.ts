import { simplify } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import { ZONE_CELL_COLUMNS, ZONE_COLUMNS, ZONE_COVER_RES } from '../../schemas/tables/zones.ts';
import { cellToBigint } from '../../schemas/tables/cells.ts';
import { coverZone, type ZoneCover } from './zone-cover.ts';
import { TableWriter, cleanStaleTemporaries, type PreparedTable } from './table-writer.ts';
import { getResolution } from 'h3-js';

export interface ZoneInput {
  level: ZoneLevel;
  code: string;
  name: string | null;
  parent_level: ZoneLevel | null;
  parent_code: string | null;
  /** WGS84, [lng, lat]. */
  geometry: Polygon | MultiPolygon;
}

/** Stages a partition of `zones` and of `zone_cells`; the caller publishes both together. */
export class ZonesWriter {
  private seen = new Set<string>();
  private constructor(private readonly zones: TableWriter, private readonly cells: TableWriter, readonly source: string) {}

  static async open(dataDir: string, country: Country, partition: string, source: string): Promise<ZonesWriter> {
    await cleanStaleTemporaries(dataDir, country, 'zones');
    await cleanStaleTemporaries(dataDir, country, 'zone_cells');
    const zones = await TableWriter.open({ dataDir, country, table: 'zones', partition, columns: ZONE_COLUMNS, orderBy: 'code' });
    const cells = await TableWriter.open({ dataDir, country, table: 'zone_cells', partition, columns: ZONE_CELL_COLUMNS, orderBy: ['cell', 'level', 'code'] });
    return new ZonesWriter(zones, cells, source);
  }

  /**
   * Adds a zone; returns an error message instead when it cannot be used. `cover` is the zone's
   * H3 cover when the caller already has it (a union derived from its children's), else it is computed.
   */
  add(z: ZoneInput, cover?: ZoneCover): string | null {
    const key = `${z.level}:${z.code}`;
    if (this.seen.has(key)) return `duplicate zone ${z.level} ${z.code}`;
    const [minLng, minLat, maxLng, maxLat] = bbox(z.geometry);
    if (!(minLng >= -180 && maxLng <= 180 && minLat >= -90 && maxLat <= 90)) {
      return `coordinates outside WGS84 bounds (${minLng}, ${minLat}, ${maxLng}, ${maxLat}): wrong CRS?`;
    }
    this.seen.add(key);
    const simplified = simplify(z.geometry, { tolerance: 0.0001, highQuality: false, mutate: false });
    this.zones.append([z.level, z.code, z.name, z.parent_level, z.parent_code, minLng, minLat, maxLng, maxLat,
      JSON.stringify(z.geometry), JSON.stringify(simplified), this.source]);
    cover ??= coverZone(z.geometry);
    for (const c of cover.interior) this.cells.append([cellToBigint(c), getResolution(c), z.level, z.code, true]);
    for (const c of cover.border) this.cells.append([cellToBigint(c), ZONE_COVER_RES, z.level, z.code, false]);
    return null;
  }

  get count(): number { return this.zones.rowCount; }

  async prepare(): Promise<{ table: string; prepared: PreparedTable }[]> {
    return [
      { table: 'zones', prepared: await this.zones.prepare() },
      { table: 'zone_cells', prepared: await this.cells.prepare() },
    ];
  }

  async abort(): Promise<void> {
    await this.zones.abort();
    await this.cells.abort();
  }
}

function bbox(g: Polygon | MultiPolygon): [number, number, number, number] {
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const p of polys) for (const r of p) for (const [x, y] of r) {
    if (x! < a) a = x!; if (y! < b) b = y!; if (x! > c) c = x!; if (y! > d) d = y!;
  }
  return [a, b, c, d];
}
