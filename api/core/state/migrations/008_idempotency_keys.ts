import type { Migration } from '../migrations.ts';

/**
 * Idempotency-Key on the marketplace's token debit (issue 19): the response of a debit made
 * with a key, kept per access for a while (MARKETPLACE_IDEMPOTENCY_TTL_H), so a debit retried
 * with the same key after a timeout is answered from here instead of debiting again. The row
 * is written by the debit's own transaction: it exists exactly when the debit happened.
 */
export const migration: Migration = {
  id: '008_idempotency_keys',
  statements: [
    `CREATE TABLE mkt_idempotency_keys (
       access_id    bigint NOT NULL REFERENCES mkt_accesses (id),
       key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
       request_hash text NOT NULL,
       status_code  integer NOT NULL,
       response     json NOT NULL,
       created_at   timestamptz NOT NULL,
       expires_at   timestamptz NOT NULL,
       PRIMARY KEY (access_id, key)
     )`,
    `CREATE INDEX mkt_idempotency_keys_expiry ON mkt_idempotency_keys (expires_at)`,
  ],
};
