import type { Source } from '../../../../datasets/source.ts';
import type { Manifest } from '../../../../schemas/tables/manifest.ts';

/**
 * Days after which a value lags its source's update rhythm (spec 2.5 `stale`): the rhythm plus a
 * grace for the producer's usual delay (DVF is published each April and October).
 */
export const STALE_AFTER_DAYS: Record<Source['update_frequency'], number | null> = {
  daily: 3, weekly: 14, monthly: 45, quarterly: 120, half_yearly: 215, yearly: 400, irregular: null,
};

/**
 * updated_on of a table's values: the producer's publication date when the manifest knows it
 * (recorded by --download), else the import date; null when the table is not in the manifest.
 */
export function updatedOn(manifest: Manifest, table: string): string | null {
  const parts = manifest.partitions.filter((p) => p.table === table);
  if (parts.length === 0) return null;
  const published = parts.flatMap((p) => p.sources.map((s) => s.published_at)).filter((d): d is string => d !== null).sort().at(-1);
  return (published ?? parts.map((p) => p.imported_at).sort().at(-1)!).slice(0, 10);
}

export function isStale(updated: string, frequency: Source['update_frequency'], now: Date): boolean {
  const days = STALE_AFTER_DAYS[frequency];
  if (days === null) return false;
  return now.getTime() - Date.parse(`${updated}T00:00:00Z`) > days * 86_400_000;
}
