import type { Migration } from '../migrations.ts';

/**
 * Webhooks as partners know them from Stripe and Standard Webhooks (issue 19):
 * - signing-secret rotation: the secret replaced keeps signing beside the new one until
 *   `webhook_previous_secret_until`, so a receiver can switch secrets without losing a delivery;
 * - a test event a partner triggers (`webhook.test`), about no client and no authorization.
 */
export const migration: Migration = {
  id: '007_webhook_rotation_test',
  statements: [
    `ALTER TABLE mkt_accesses ADD COLUMN webhook_previous_secret text CHECK (webhook_previous_secret LIKE 'whsec_%')`,
    `ALTER TABLE mkt_accesses ADD COLUMN webhook_previous_secret_until timestamptz`,
    `ALTER TABLE mkt_events ALTER COLUMN user_id DROP NOT NULL`,
    `ALTER TABLE mkt_events ALTER COLUMN authorization_id DROP NOT NULL`,
    `ALTER TABLE mkt_events DROP CONSTRAINT mkt_events_type_check`,
    `ALTER TABLE mkt_events ADD CONSTRAINT mkt_events_type_check
       CHECK (type IN ('authorization.create', 'authorization.disable', 'tokens.debit', 'webhook.test'))`,
    `ALTER TABLE mkt_events ADD CONSTRAINT mkt_events_about_check
       CHECK ((type = 'webhook.test') = (authorization_id IS NULL) AND (authorization_id IS NULL) = (user_id IS NULL))`,
  ],
};
