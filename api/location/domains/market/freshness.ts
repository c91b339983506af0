import type { Manifest } from '../../../../schemas/tables/manifest.ts';
import type { UpdatedOn } from '../../kinds/zone-values.ts';

/**
 * updated_on of a DVF table's values (sales, market_indicators): the latest publication date its
 * partitions' sources record (fr.dvf requires --published-on, or a download's Last-Modified);
 * for partitions written before it was required, which record none, their latest import date,
 * `published: false` for the caller to say so in meta.warnings; null when the table is not in
 * the manifest.
 */
export function updatedOn(manifest: Manifest, table: string): UpdatedOn | null {
  const parts = manifest.partitions.filter((p) => p.table === table);
  if (parts.length === 0) return null;
  const published = parts.flatMap((p) => p.sources.map((s) => s.published_at)).filter((d): d is string => d !== null).sort().at(-1);
  if (published) return { date: published.slice(0, 10), published: true };
  return { date: parts.map((p) => p.imported_at).sort().at(-1)!.slice(0, 10), published: false };
}

export { isStale } from '../../../../datasets/source.ts';
export { publicationDateUnknown } from '../../kinds/zone-values.ts';
