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
  format: 'csv' | 'geojson' | 'shapefile' | 'xml' | 'geopackage' | 'osm_pbf' | 'xlsx';
  crs: string;
  encoding: string;
  update_frequency: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'half_yearly' | 'yearly' | 'irregular';
  /** Tables of data/<country>/ this source feeds (the jobs reading it write them: test/ingest/parity.test.ts). */
  tables: TableName[];
  /**
   * For a source published as one file per territory: the territory each partition covers. A field
   * it backs is `partial` in the catalog, with the territories ingested, until every one is.
   */
  partition_territories?: Record<string, string>;
  /** Committed format-faithful sample, relative to the repository root. */
  sample: string;
  /**
   * For a places source publishing only part of a group's places of the country (one Community's
   * schools in Belgium): the regions (administrative_area_level1 codes) where the group is complete
   * with it. Elsewhere, while no other source completes it, the group's count and nearest are null
   * (not_covered), never a count of a part.
   */
  places_complete_in?: {
    group: string;
    administrative_area_level1: readonly string[];
    /**
     * Regions where the group is complete with this source and the sources named in `with`, once
     * all are ingested (Brussels: the schools of both Communities, each published by its own).
     */
    together?: { administrative_area_level1: readonly string[]; with: readonly string[] };
    /** What is not published with this source alone, for the warning. */
    missing: string;
  };
}

/**
 * Days after which data lags its source's update rhythm: the rhythm plus a grace for the
 * producer's usual delay (DVF is published each April and October). The one table behind every
 * `stale` (spec 2.5) and `fresh` (spec 2.12) the service serves.
 */
export const STALE_AFTER_DAYS: Record<Source['update_frequency'], number | null> = {
  daily: 3, weekly: 14, monthly: 45, quarterly: 120, half_yearly: 215, yearly: 400, irregular: null,
};

/** Does data dated `date` (YYYY-MM-DD or a timestamp) lag the rhythm at `now`? Never for an irregular source. */
export function isStale(date: string, frequency: Source['update_frequency'], now: Date): boolean {
  const days = STALE_AFTER_DAYS[frequency];
  if (days === null) return false;
  return now.getTime() - Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date) > days * 86_400_000;
}
