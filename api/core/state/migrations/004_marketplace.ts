import type { Migration } from '../migrations.ts';

/**
 * Marketplace (spec partner-signin-and-marketplace.md, sections 1-8): stores, partners and
 * their per-store accesses (credentials stored hashed), products and price plans, client
 * profiles (keyed by the shared `users` row, never a copy of it), purchases, one
 * authorization per purchase or subscription period, and the webhook outbox (events and
 * their deliveries, with every attempt logged).
 */
export const migration: Migration = {
  id: '004_marketplace',
  statements: [
    `CREATE TABLE mkt_stores (
       id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       slug       text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
       name       text NOT NULL CHECK (name <> ''),
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE mkt_partners (
       id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       code       text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{2,32}$'),
       name       text NOT NULL CHECK (name <> ''),
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    // A partner's access to one store: its level, credentials and webhook receiver there.
    `CREATE TABLE mkt_accesses (
       id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       partner_id      bigint NOT NULL REFERENCES mkt_partners (id),
       store_id        bigint NOT NULL REFERENCES mkt_stores (id),
       level           text NOT NULL CHECK (level IN ('marketplace', 'supplier')),
       api_key_hash    text NOT NULL UNIQUE,
       api_token_hash  text NOT NULL,
       key_hint        text NOT NULL,
       webhook_url     text,
       webhook_secret  text NOT NULL CHECK (webhook_secret LIKE 'whsec_%'),
       oauth_client_uid text,
       revoked_at      timestamptz,
       created_at      timestamptz NOT NULL DEFAULT now(),
       UNIQUE (partner_id, store_id)
     )`,
    `COMMENT ON COLUMN mkt_accesses.webhook_secret IS 'HMAC key of Standard Webhooks signatures: kept in clear because signing needs it'`,
    `CREATE TABLE mkt_products (
       id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       partner_id bigint NOT NULL REFERENCES mkt_partners (id),
       sku        text NOT NULL UNIQUE CHECK (sku ~ '^[A-Z0-9]{2,32}-[A-Z0-9]{1,32}$'),
       name       text NOT NULL CHECK (name <> ''),
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE mkt_plans (
       id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       product_id      bigint NOT NULL REFERENCES mkt_products (id),
       sku             text NOT NULL UNIQUE CHECK (sku ~ '^[A-Z0-9]{2,32}-[A-Z0-9]{1,32}-[A-Z0-9]{1,32}$'),
       name            text NOT NULL CHECK (name <> ''),
       mode            text NOT NULL CHECK (mode IN ('plan_month', 'plan_year', 'tokens')),
       tokens          integer CHECK (tokens > 0),
       validity_months integer NOT NULL CHECK (validity_months > 0),
       options         jsonb NOT NULL DEFAULT '[]',
       created_at      timestamptz NOT NULL DEFAULT now(),
       CHECK ((mode = 'tokens') = (tokens IS NOT NULL))
     )`,
    // Marketplace-only profile fields of a user (spec 2.3); the rest comes from users/agencies.
    `CREATE TABLE mkt_clients (
       id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       user_id          bigint NOT NULL UNIQUE REFERENCES users (id),
       reference        bigint NOT NULL UNIQUE,
       profile          jsonb NOT NULL,
       created_at       timestamptz NOT NULL,
       updated_at       timestamptz NOT NULL
     )`,
    `CREATE SEQUENCE mkt_client_reference START 100001`,
    `CREATE TABLE mkt_purchases (
       id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       store_id     bigint NOT NULL REFERENCES mkt_stores (id),
       user_id      bigint NOT NULL REFERENCES users (id),
       plan_id      bigint NOT NULL REFERENCES mkt_plans (id),
       options      jsonb NOT NULL DEFAULT '[]',
       purchased_at timestamptz NOT NULL,
       cancelled_at timestamptz
     )`,
    `COMMENT ON COLUMN mkt_purchases.cancelled_at IS 'subscriptions: no renewal after this; the current period runs to its end'`,
    `CREATE TABLE mkt_authorizations (
       id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       purchase_id    bigint NOT NULL REFERENCES mkt_purchases (id),
       period         integer NOT NULL CHECK (period >= 0),
       store_id       bigint NOT NULL REFERENCES mkt_stores (id),
       user_id        bigint NOT NULL REFERENCES users (id),
       product_id     bigint NOT NULL REFERENCES mkt_products (id),
       plan_id        bigint NOT NULL REFERENCES mkt_plans (id),
       mode           text NOT NULL,
       status         text NOT NULL CHECK (status IN ('active', 'inactive')),
       validity_start timestamptz NOT NULL,
       validity_end   timestamptz NOT NULL,
       inactive_at    timestamptz,
       tokens         integer CHECK (tokens >= 0),
       debited        boolean NOT NULL DEFAULT false,
       created_at     timestamptz NOT NULL,
       updated_at     timestamptz NOT NULL,
       UNIQUE (purchase_id, period),
       CHECK ((mode = 'tokens') = (tokens IS NOT NULL))
     )`,
    `CREATE INDEX mkt_authorizations_balance ON mkt_authorizations (store_id, user_id, product_id, id) WHERE status = 'active'`,
    `CREATE INDEX mkt_authorizations_renewal ON mkt_authorizations (validity_end) WHERE status = 'active' AND mode <> 'tokens'`,
    // The outbox: written in the same transaction as the change it tells about.
    `CREATE TABLE mkt_events (
       id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       store_id         bigint NOT NULL REFERENCES mkt_stores (id),
       user_id          bigint NOT NULL REFERENCES users (id),
       authorization_id bigint NOT NULL REFERENCES mkt_authorizations (id),
       type             text NOT NULL CHECK (type IN ('authorization.create', 'authorization.disable', 'tokens.debit')),
       payload          json NOT NULL,
       created_at       timestamptz NOT NULL
     )`,
    `CREATE TABLE mkt_deliveries (
       id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       event_id         bigint NOT NULL REFERENCES mkt_events (id),
       access_id        bigint NOT NULL REFERENCES mkt_accesses (id),
       user_id          bigint NOT NULL,
       url              text NOT NULL,
       status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
       attempts         integer NOT NULL DEFAULT 0,
       next_attempt_at  timestamptz NOT NULL,
       lease_until      timestamptz,
       last_status_code integer,
       last_error       text,
       delivered_at     timestamptz,
       created_at       timestamptz NOT NULL,
       UNIQUE (event_id, access_id)
     )`,
    `CREATE INDEX mkt_deliveries_due ON mkt_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
    `CREATE INDEX mkt_deliveries_order ON mkt_deliveries (access_id, user_id, id) WHERE status = 'pending'`,
    `CREATE INDEX mkt_deliveries_log ON mkt_deliveries (access_id, id)`,
    `CREATE TABLE mkt_delivery_attempts (
       id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       delivery_id  bigint NOT NULL REFERENCES mkt_deliveries (id),
       attempted_at timestamptz NOT NULL,
       status_code  integer,
       error        text,
       duration_ms  integer NOT NULL
     )`,
    `CREATE INDEX mkt_delivery_attempts_delivery ON mkt_delivery_attempts (delivery_id, id)`,
  ],
};
