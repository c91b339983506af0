import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the tables' Parquet files live: the one place every job, the API and the tests take
 * their paths from (docs/architecture.md, Files for analysts).
 *
 *   data/tables/<table>/country=<cc>/<partition>.parquet
 *
 * One table is one folder with hive-style country partitions, so one path reads every country
 * with the country as a column: DuckDB `read_parquet('data/tables/addresses/*\/*.parquet',
 * hive_partitioning = true)`, Spark `spark.read.parquet('data/tables/addresses')`, Trino's Hive
 * connector with `partitioned_by = ARRAY['country']` on that folder. The files do not hold the
 * country column (Spark refuses a column in both the files and the path). The manifest and the
 * rejects stay per country (data/<cc>/manifest.json, data/<cc>/rejects/).
 *
 * The layout before it (data/<cc>/<table>/<partition>.parquet) is migrated by the ingest CLI
 * (ingest/core/migrate-layout.ts).
 */
export const TABLES_FOLDER = 'tables';
export const PARTITION_KEY = 'country';

/** The folder of one country's partitions of a table. */
export function tableDir(dataDir: string, country: string, table: string): string {
  return join(dataDir, TABLES_FOLDER, table, `${PARTITION_KEY}=${country}`);
}

/** The folder of a table, every country (what Spark and Trino are pointed at). */
export function tableRoot(dataDir: string, table: string): string {
  return join(dataDir, TABLES_FOLDER, table);
}

/** The glob of one country's partitions of a table. */
export function tableGlob(dataDir: string, country: string, table: string): string {
  return join(tableDir(dataDir, country, table), '*.parquet');
}

/** The published Parquet files of a country's table, by partition name (a file being written, `.`-prefixed, excluded). */
export function publishedPartitions(dataDir: string, country: string, table: string): Map<string, string> {
  const dir = tableDir(dataDir, country, table);
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).sort()) if (f.endsWith('.parquet') && !f.startsWith('.')) out.set(f.slice(0, -'.parquet'.length), join(dir, f));
  return out;
}

/** Whether a country's table has any published partition. */
export function hasPartitions(dataDir: string, country: string, table: string): boolean {
  return publishedPartitions(dataDir, country, table).size > 0;
}

/** Path of a partition, relative to the data folder (as the manifest records it). */
export function partitionFile(country: string, table: string, partition: string): string {
  return join(TABLES_FOLDER, table, `${PARTITION_KEY}=${country}`, `${partition}.parquet`);
}

/** Absolute path of a partition. */
export function partitionPath(dataDir: string, country: string, table: string, partition: string): string {
  return join(dataDir, partitionFile(country, table, partition));
}

/** The folder of a table in the layout before this one (data/<cc>/<table>/), read only by the migration. */
export function legacyTableDir(dataDir: string, country: string, table: string): string {
  return join(dataDir, country, table);
}

/**
 * The GeoParquet columns the writer adds (ingest/core/geoparquet.ts) to a table with a geometry:
 * `geom` (WKB) and its `bbox` covering.
 */
export type GeoShape = 'geojson' | 'point';
export const GEOMETRY_COLUMN = 'geom';
export const BBOX_COLUMN = 'bbox';
export const EXTENT_COLUMNS = ['min_lng', 'min_lat', 'max_lng', 'max_lat'] as const;

/** The geometry a table's files carry, from its column names (null: none). */
export function geoShapeOf(columns: readonly string[]): GeoShape | null {
  const has = (c: string) => columns.includes(c);
  if (has('geometry') && EXTENT_COLUMNS.every(has)) return 'geojson';
  if (has('longitude') && has('latitude')) return 'point';
  return null;
}
