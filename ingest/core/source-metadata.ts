import { quotedIdentifier, type DuckDBConnection } from '@duckdb/node-api';
import { SOURCES } from '../../datasets/catalogue.ts';

/**
 * What a file says of its sources (key `sources` of its key-value metadata) and a manifest entry
 * of each source it lists: the producer, the licence and the attribution to reproduce, from the
 * catalogue (datasets/). A source the catalogue does not know (the generic jobs' operator-named
 * `<country>.<partition>`) has them null: the operator knows its licence, the platform does not.
 */
export interface SourceLicence {
  id: string;
  name: string | null;
  producer: string | null;
  licence: string | null;
  licence_url: string | null;
  attribution: string | null;
}

export function sourceLicence(id: string): SourceLicence {
  const s = SOURCES.find((x) => x.id === id);
  return { id, name: s?.name ?? null, producer: s?.producer ?? null, licence: s?.licence ?? null, licence_url: s?.licence_url ?? null, attribution: s?.attribution ?? null };
}

/** Where the source ids of a file's rows are read: given, or the `source` column of a relation. */
export type SourcesOf = readonly string[] | { from: string };

/** The distinct source ids of the rows, sorted. */
export async function sourceIdsOf(connection: DuckDBConnection, sources: SourcesOf): Promise<string[]> {
  if (Array.isArray(sources)) return [...new Set(sources as readonly string[])].sort();
  const { from } = sources as { from: string };
  const col = quotedIdentifier('source');
  const reader = await connection.runAndReadAll(`SELECT DISTINCT ${col} AS s FROM ${from} WHERE ${col} IS NOT NULL ORDER BY 1`);
  return reader.getRowObjectsJS().map((r) => r.s as string);
}
