import type { Country } from '../schemas/common.ts';

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
  /** Tables of data/<country>/ this source feeds. */
  tables: string[];
  /**
   * For a source published as one file per territory: the territory each partition covers. A field
   * it backs is `partial` in the catalog, with the territories ingested, until every one is.
   */
  partition_territories?: Record<string, string>;
  /** Committed format-faithful sample, relative to the repository root. */
  sample: string;
}
