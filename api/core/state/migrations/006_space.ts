import type { Migration } from '../migrations.ts';

/**
 * The client space (api/space/, issue 22):
 * - a key may belong to an agency, whose users see and manage it in the space (NULL: the
 *   operator's key, managed with `npm run keys` only);
 * - units per key and UTC day, written by the usage meter in the statement that writes the
 *   period counter (the chart of the last 30 days);
 * - key_actions: every creation, revocation and replacement, with who, when and which key;
 * - initiate_login_uri of a partner application (OpenID Connect Core 1.0 section 4), where the
 *   space sends a user who opens one of the partner's services.
 */
export const migration: Migration = {
  id: '006_space',
  statements: [
    `ALTER TABLE api_keys ADD COLUMN agency_id bigint REFERENCES agencies (id)`,
    `CREATE INDEX api_keys_agency ON api_keys (agency_id) WHERE agency_id IS NOT NULL`,
    `CREATE TABLE key_usage_days (
       fingerprint text NOT NULL REFERENCES api_keys (fingerprint) ON DELETE CASCADE,
       day         date NOT NULL,
       units       bigint NOT NULL DEFAULT 0 CHECK (units >= 0),
       PRIMARY KEY (fingerprint, day)
     )`,
    `CREATE TABLE key_actions (
       id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       fingerprint   text NOT NULL REFERENCES api_keys (fingerprint) ON DELETE CASCADE,
       action        text NOT NULL CHECK (action IN ('create', 'revoke', 'replace')),
       replacement   text REFERENCES api_keys (fingerprint) ON DELETE SET NULL,
       actor_user_id bigint REFERENCES users (id),
       actor         text NOT NULL CHECK (actor <> ''),
       at            timestamptz NOT NULL DEFAULT now()
     )`,
    `COMMENT ON COLUMN key_actions.actor IS 'who acted, as shown: a user''s name and e-mail, or "operator (keys CLI)"'`,
    `CREATE INDEX key_actions_key ON key_actions (fingerprint, id)`,
    `ALTER TABLE oauth_clients ADD COLUMN initiate_login_uri text`,
  ],
};
