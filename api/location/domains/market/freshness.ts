import type { Manifest } from '../../../../schemas/tables/manifest.ts';

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

export { isStale } from '../../../../datasets/source.ts';
