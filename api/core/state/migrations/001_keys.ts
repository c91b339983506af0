import type { Migration } from '../migrations.ts';

/**
 * API keys (stored by fingerprint only), monthly/periodic quota counters and
 * the cache of geocoded addresses.
 */
export const migration: Migration = {
  id: '001_keys',
  statements: [
    `CREATE TABLE api_keys (
       fingerprint  text PRIMARY KEY CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
       prefix_hint  text NOT NULL,
       label        text,
       sandbox      boolean NOT NULL DEFAULT false,
       countries    text[] NOT NULL CHECK (cardinality(countries) > 0),
       domains      text[] CHECK (domains IS NULL OR cardinality(domains) > 0),
       created_at   timestamptz NOT NULL DEFAULT now(),
       revoked_at   timestamptz
     )`,
    `COMMENT ON COLUMN api_keys.fingerprint IS 'hex SHA-256 of the full key; the key itself is never stored'`,
    `COMMENT ON COLUMN api_keys.domains IS 'NULL means all domains'`,
    `CREATE TABLE quota_usage (
       fingerprint  text NOT NULL REFERENCES api_keys (fingerprint) ON DELETE CASCADE,
       period_start date NOT NULL,
       units        bigint NOT NULL DEFAULT 0 CHECK (units >= 0),
       PRIMARY KEY (fingerprint, period_start)
     )`,
    `CREATE TABLE resolved_addresses (
       normalized_query text NOT NULL,
       country          text NOT NULL,
       label            text,
       latitude         double precision,
       longitude        double precision,
       precision        text,
       source           text NOT NULL DEFAULT 'geocoder',
       raw              jsonb,
       resolved_at      timestamptz NOT NULL DEFAULT now(),
       hits             integer NOT NULL DEFAULT 0,
       PRIMARY KEY (normalized_query, country)
     )`,
  ],
};
