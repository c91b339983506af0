import { hasPartitions, tableDir } from '../../schemas/tables/layout.ts';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import { DOUBLE, DuckDBScalarFunction, VARCHAR, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import type { MultiPolygon, Polygon } from 'geojson';
import { cellKey, pointCellKeys } from '../core/cell-keys.ts';
import { ZONE_COVER_RES } from '../../schemas/tables/zones.ts';
import { zonesOfPoint } from '../../schemas/tables/zone-of-point.ts';

type Out = { setItem(i: number, v: unknown): void; flush(): void };

/**
 * The IRIS of a position, from the zone cover already published (fr.zones): interior cells answer
 * at once, border cells by an exact point-in-polygon test, as the location routes do. Without a
 * published IRIS cover every sale gets null, and the finer levels simply have no indicator.
 */
export async function registerIrisFunction(c: DuckDBConnection, dataDir: string): Promise<number> {
  const cells = new Map<number, { code: string; interior: boolean }[]>();
  const outlines = new Map<string, Polygon | MultiPolygon>();
  const dir = (t: string) => tableDir(dataDir, 'fr', t);
  const has = (t: string) => hasPartitions(dataDir, 'fr', t);
  if (has('zone_cells') && has('zones')) {
    const glob = (t: string) => quotedString(join(dir(t), '*.parquet'));
    const rows = (await c.runAndReadAll(`SELECT cell, code, interior FROM read_parquet(${glob('zone_cells')}, union_by_name = true) WHERE level = 'sublocality_level2'`)).getRowObjectsJS() as { cell: bigint; code: string; interior: boolean }[];
    for (const r of rows) {
      const key = cellKey(r.cell);
      cells.set(key, [...(cells.get(key) ?? []), { code: r.code, interior: r.interior }]);
    }
    const zones = (await c.runAndReadAll(`SELECT code, geometry FROM read_parquet(${glob('zones')}, union_by_name = true) WHERE level = 'sublocality_level2'`)).getRowObjectsJS() as { code: string; geometry: string }[];
    for (const z of zones) outlines.set(z.code, JSON.parse(z.geometry) as Polygon | MultiPolygon);
  }
  const keys = new Float64Array(ZONE_COVER_RES + 1);
  const hits: { level: string; code: string; interior: boolean }[] = [];
  const irisAt = (lat: number, lng: number): string | null => {
    if (cells.size === 0) return null;
    hits.length = 0;
    const n = pointCellKeys(lat, lng, ZONE_COVER_RES, keys);
    for (let k = 0; k < n; k++) for (const z of cells.get(keys[k]!) ?? []) hits.push({ level: 'sublocality_level2', code: z.code, interior: z.interior });
    const [iris] = zonesOfPoint(hits, (z) => {
      const g = outlines.get(z.code);
      return g !== undefined && booleanPointInPolygon([lng, lat], g);
    });
    return iris?.code ?? null;
  };
  c.registerScalarFunction(DuckDBScalarFunction.create({
    name: 'iris_code', returnType: VARCHAR, parameterTypes: [DOUBLE, DOUBLE],
    mainFunction: (_info, input, output) => {
      const lat = input.getColumnValues(0) as (number | null)[];
      const lng = input.getColumnValues(1) as (number | null)[];
      const out = output as unknown as Out;
      for (let i = 0; i < input.rowCount; i++) out.setItem(i, lat[i] == null || lng[i] == null ? null : irisAt(lat[i]!, lng[i]!));
      out.flush();
    },
  }));
  return outlines.size;
}
