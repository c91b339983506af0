import { z } from 'zod';
import { Country } from '../common.ts';

/**
 * Version of the Parquet table layouts; bumped when a column changes (2: data/tables/ hive layout,
 * BIGINT cells, sales' lists, GeoParquet; 3: addresses.parcels a list).
 */
export const TABLE_SCHEMA_VERSION = 3;

/** One written partition of a table, as recorded in data/<country>/manifest.json. */
export const ManifestPartition = z.object({
  table: z.string(),
  partition: z.string(),
  file: z.string().describe('path relative to the data folder (schemas/tables/layout.ts)'),
  job: z.string(),
  sources: z.array(z.object({
    id: z.string(),
    input: z.string().describe('file name of the input read'),
    input_sha256: z.string(),
    published_at: z.string().nullable().describe("producer's publication date when known"),
    downloaded_from: z.string().nullable(),
    licence: z.string().nullable().optional().describe('licence of the source (datasets/ catalogue); null when the catalogue does not know it'),
    attribution: z.string().nullable().optional().describe('text to reproduce where the data is shown'),
  })),
  rows: z.number().int(),
  rejects: z.number().int(),
  rejects_file: z.string().nullable(),
  imported_at: z.string(),
  schema_version: z.number().int(),
  sha256: z.string().describe('checksum of the Parquet file'),
});
export type ManifestPartition = z.infer<typeof ManifestPartition>;

export const Manifest = z.object({
  country: Country,
  schema_version: z.number().int(),
  updated_at: z.string(),
  partitions: z.array(ManifestPartition),
});
export type Manifest = z.infer<typeof Manifest>;
