/**
 * The transactional outbox: an event is written by the transaction that makes the change,
 * with one delivery per receiver entitled to it (the store's marketplace accesses, and the
 * supplier access of the product's partner). The delivery worker sends them afterwards.
 */
import type { EventType, WebhookTestEnvelope } from '../../schemas/marketplace.ts';
import type { Sql } from '../core/state/sql.ts';
import { readAuthorization } from './authorizations.ts';
import { envelope, offsetTimestamp } from './format.ts';

/** Records `type` about authorization `authorizationId` as it is now in `tx`. Returns the event id. */
export async function emit(tx: Sql, type: EventType, authorizationId: number, now: Date): Promise<number> {
  const a = await readAuthorization(tx, authorizationId);
  if (!a) throw new Error(`authorization ${authorizationId} vanished inside its transaction`);
  const [ctx] = await tx.query<{ store_id: number; slug: string; id: number; uid: string; email: string; first_name: string; last_name: string }>(
    `SELECT s.id::int AS store_id, s.slug, u.id::int AS id, u.uid, u.email, u.first_name, u.last_name
       FROM mkt_stores s, users u WHERE s.id = $1 AND u.id = $2`,
    [a.store_id, a.user_id],
  );
  const payload = envelope(type, { id: ctx!.store_id, slug: ctx!.slug }, ctx!, a);
  const [event] = await tx.query<{ id: number }>(
    `INSERT INTO mkt_events (store_id, user_id, authorization_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::int AS id`,
    [a.store_id, a.user_id, a.id, type, JSON.stringify(payload), now],
  );
  await tx.query(
    `INSERT INTO mkt_deliveries (event_id, access_id, user_id, url, next_attempt_at, created_at)
     SELECT $1, ac.id, $2, ac.webhook_url, $4, $4
       FROM mkt_accesses ac
      WHERE ac.store_id = $3 AND ac.revoked_at IS NULL AND ac.webhook_url IS NOT NULL
        AND (ac.level = 'marketplace' OR ac.partner_id = (SELECT partner_id FROM mkt_products WHERE id = $5))
      ORDER BY ac.id`,
    [event!.id, a.user_id, a.store_id, now, a.product_id],
  );
  return event!.id;
}

/**
 * A `webhook.test` event a partner asks for, delivered to that access only (its current URL),
 * signed, retried and logged like any other: the way to check a receiver end to end. It is about
 * no client, so it is ordered only after the access's earlier test events (user_id 0).
 */
export async function emitTest(sql: Sql, access: { id: number; store_id: number; store_slug: string; webhook_url: string | null }, now: Date): Promise<{ eventId: number; deliveryId: number } | null> {
  if (access.webhook_url === null) return null;
  const payload: WebhookTestEnvelope = {
    webhook: 'webhook.test',
    store: { id: access.store_id, slug: access.store_slug },
    data: { message: 'test event asked for by the partner', requested_at: offsetTimestamp(now) },
  };
  return sql.transaction(async (tx) => {
    const [event] = await tx.query<{ id: number }>(
      `INSERT INTO mkt_events (store_id, user_id, authorization_id, type, payload, created_at) VALUES ($1, NULL, NULL, 'webhook.test', $2, $3) RETURNING id::int AS id`,
      [access.store_id, JSON.stringify(payload), now],
    );
    const [delivery] = await tx.query<{ id: number }>(
      `INSERT INTO mkt_deliveries (event_id, access_id, user_id, url, next_attempt_at, created_at) VALUES ($1, $2, 0, $3, $4, $4) RETURNING id::int AS id`,
      [event!.id, access.id, access.webhook_url, now],
    );
    return { eventId: event!.id, deliveryId: delivery!.id };
  });
}
