import type { Migration } from '../migrations.ts';

/**
 * Partner sign-in (OAuth 2.0 / OpenID Connect, api/signin/):
 * - oauth_clients: partner applications registered by the operator; a
 *   confidential client's secret is stored only as its SHA-256 hash;
 * - oidc_payloads: what oidc-provider persists through its Adapter (sessions,
 *   interactions, grants, authorization codes, access tokens), one generic
 *   table keyed by model name and id, with the lookups the Adapter needs;
 * - signin_secrets: the ID-token signing keys and the cookie-signing keys,
 *   generated once on first start and kept here (never in the repository).
 */
export const migration: Migration = {
  id: '003_signin',
  statements: [
    `CREATE TABLE oauth_clients (
       client_id     text PRIMARY KEY CHECK (client_id ~ '^[A-Za-z0-9_-]{16,64}$'),
       name          text NOT NULL CHECK (name <> ''),
       client_type   text NOT NULL CHECK (client_type IN ('confidential', 'public')),
       redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) > 0),
       secret_hash   text CHECK ((client_type = 'confidential') = (secret_hash IS NOT NULL)),
       created_at    timestamptz NOT NULL DEFAULT now(),
       revoked_at    timestamptz
     )`,
    `COMMENT ON COLUMN oauth_clients.secret_hash IS 'sha256$<hex> of the client secret; the secret itself is shown once and never stored'`,
    `CREATE TABLE oidc_payloads (
       model       text NOT NULL,
       id          text NOT NULL,
       payload     jsonb NOT NULL,
       grant_id    text,
       user_code   text,
       uid         text,
       expires_at  timestamptz,
       consumed_at timestamptz,
       PRIMARY KEY (model, id)
     )`,
    `CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL`,
    `CREATE INDEX oidc_payloads_uid ON oidc_payloads (model, uid) WHERE uid IS NOT NULL`,
    `CREATE INDEX oidc_payloads_user_code ON oidc_payloads (model, user_code) WHERE user_code IS NOT NULL`,
    `CREATE INDEX oidc_payloads_expiry ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL`,
    `CREATE INDEX oidc_payloads_client_grants ON oidc_payloads ((payload->>'clientId'), (payload->>'accountId')) WHERE model = 'Grant'`,
    `CREATE TABLE signin_secrets (
       name       text PRIMARY KEY,
       value      jsonb NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
  ],
};
