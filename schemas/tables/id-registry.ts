import { z } from 'zod';

/** Kinds of our identifiers (spec 2.5): building, property, event. */
export const ID_KINDS = ['bld', 'prp', 'evt'] as const;
export const IdKind = z.enum(ID_KINDS);
export type IdKind = z.infer<typeof IdKind>;

/** Shape of our identifiers: `<kind>_` and 20 lowercase hexadecimal characters. */
export const OUR_ID = /^(bld|prp|evt)_[0-9a-f]{20}$/;
export const idPattern = (kind: IdKind) => new RegExp(`^${kind}_[0-9a-f]{20}$`);

/**
 * Row of `id_registry` (partitions `<kind>-<shard>`: the department's keys of a source, `bld-rnb-75`,
 * `evt-dpe-69`, `prp-33`; `<kind>` for keys registered without shard): one natural key of a source
 * (`rnb:<RNB id>`, `dpe:<N°DPE>`, `dvf-lots:<parcel>:<lots>`...) and the opaque id of ours it was
 * given. Several keys may name one id (the RNB and BDNB ids of a building); a key never changes id.
 */
export const IdRegistryRow = z.object({
  key: z.string().min(1).describe('natural key: source prefix and the source\'s own key'),
  id: z.string().regex(/^(bld|prp|evt)_[0-9a-f]{20}$/).describe('our identifier, given when the key was first registered'),
  seq: z.bigint().describe('order of registration: of two ids found to be one, the earlier is kept'),
  source: z.string().describe('source id of the job that registered the key'),
});
export type IdRegistryRow = z.infer<typeof IdRegistryRow>;
export const ID_REGISTRY_COLUMNS = { key: 'VARCHAR', id: 'VARCHAR', seq: 'BIGINT', source: 'VARCHAR' } as const satisfies Record<keyof IdRegistryRow, string>;

/**
 * Row of `id_merges` (data/<country>/id_merges/<kind>.parquet): an abandoned id and the id kept
 * when a source showed the two to be one thing; the abandoned id answers 301 toward the kept one.
 */
export const IdMergeRow = z.object({
  from_id: z.string().describe('abandoned identifier'),
  to_id: z.string().describe('identifier kept'),
  reason: z.string().describe('the key that joined them (a natural key named with both)'),
  merged_on: z.string().describe('date of the ingest that found it, YYYY-MM-DD'),
  source: z.string(),
});
export type IdMergeRow = z.infer<typeof IdMergeRow>;
export const ID_MERGE_COLUMNS = { from_id: 'VARCHAR', to_id: 'VARCHAR', reason: 'VARCHAR', merged_on: 'VARCHAR', source: 'VARCHAR' } as const satisfies Record<keyof IdMergeRow, string>;
