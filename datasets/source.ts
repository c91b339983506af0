import type { Country } from '../schemas/common.ts';
import type { TableName } from '../schemas/tables/index.ts';

/** A producer's dataset as the catalogue knows it (DESIGN.md, datasets/). */
export interface Source {
  id: string;
  country: Country;
  name: string;
  producer: string;
  licence: string;
  licence_url: string;
  /** Text to reproduce where the data is shown. */
  attribution: string;
  /** Producer's page describing the dataset. */
  url: string;
  /** Direct download address used by `--download`; `{part}` is replaced by a partition (department...). */
  download_url: string | null;
  format: 'csv' | 'geojson' | 'shapefile' | 'xml';
  crs: string;
  encoding: string;
  update_frequency: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'half_yearly' | 'yearly' | 'irregular';
  /** Tables of data/<country>/ this source feeds (the jobs reading it write them: test/ingest/parity.test.ts). */
  tables: TableName[];
  /** Committed format-faithful sample, relative to the repository root. */
  sample: string;
}
