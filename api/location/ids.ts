import type { Country } from '../../schemas/common.ts';
import { idPattern, type IdKind } from '../../schemas/tables/id-registry.ts';
import type { Warehouse } from '../core/warehouse.ts';

/** Tables of the id registry the by-id routes read (written by ingest/core/id-registry.ts). */
export const ID_TABLES = ['id_registry', 'id_merges'];

/** Is this a well-formed id of the kind (`bld_` and 20 hex digits)? */
export const isOurId = (kind: IdKind, id: string) => idPattern(kind).test(id);

/**
 * Where an id of ours stands: the id kept when it was merged into another (301 toward it), else
 * itself. Chains of merges are followed to their end.
 */
export async function keptId(warehouse: Warehouse, country: Country, kind: IdKind, id: string): Promise<string> {
  if (!warehouse.has(country, 'id_merges')) return id;
  let at = id;
  for (let n = 0; n < 100; n++) {
    const rows = await warehouse.query<{ to_id: string }>(`SELECT to_id FROM ${country}_id_merges WHERE from_id = $1 AND starts_with(from_id, $2) LIMIT 1`, [at, `${kind}_`]);
    if (rows.length === 0) return at;
    at = rows[0]!.to_id;
  }
  return at;
}
