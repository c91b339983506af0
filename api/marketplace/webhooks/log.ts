/** The delivery log: what was sent to a receiver, and every attempt with its outcome. */
import type { Delivery } from '../../../schemas/marketplace.ts';
import type { Sql } from '../../core/state/sql.ts';
import { offsetTimestamp } from '../format.ts';
import { webhookId } from './worker.ts';

export interface LogQuery {
  accessId: number | null;
  storeId?: number | null;
  status: 'pending' | 'delivered' | 'failed' | null;
  /** Deliveries with an id below this one (paging backwards, newest first). */
  before: number | null;
  limit: number;
}

interface Row {
  id: number; event_id: number; type: Delivery['event']; authorization_id: number | null; user_id: number | null; access_id: number;
  url: string; status: Delivery['status']; next_attempt_at: Date; delivered_at: Date | null; created_at: Date; payload: Delivery['payload'];
}
interface AttemptRow { delivery_id: number; attempted_at: Date; status_code: number | null; error: string | null; duration_ms: number }

export async function deliveryLog(sql: Sql, q: LogQuery): Promise<{ deliveries: (Delivery & { access_id: number })[]; next_before: number | null }> {
  const rows = await sql.query<Row>(
    `SELECT d.id::int AS id, d.event_id::int AS event_id, e.type, e.authorization_id::int AS authorization_id, e.user_id::int AS user_id,
            d.access_id::int AS access_id, d.url, d.status, d.next_attempt_at, d.delivered_at, d.created_at, e.payload
       FROM mkt_deliveries d JOIN mkt_events e ON e.id = d.event_id
      WHERE ($1::bigint IS NULL OR d.access_id = $1) AND ($2::text IS NULL OR d.status = $2) AND ($3::bigint IS NULL OR d.id < $3)
        AND ($5::bigint IS NULL OR e.store_id = $5)
      ORDER BY d.id DESC LIMIT $4`,
    [q.accessId, q.status, q.before, q.limit + 1, q.storeId ?? null],
  );
  const page = rows.slice(0, q.limit);
  const attempts = page.length === 0 ? [] : await sql.query<AttemptRow>(
    `SELECT delivery_id::int AS delivery_id, attempted_at, status_code, error, duration_ms FROM mkt_delivery_attempts
      WHERE delivery_id = ANY($1::bigint[]) ORDER BY id`,
    [page.map((r) => r.id)],
  );
  return {
    deliveries: page.map((r) => ({
      id: r.id,
      access_id: r.access_id,
      webhook_id: webhookId(r.event_id),
      event: r.type,
      authorization_id: r.authorization_id,
      client_id: r.user_id,
      url: r.url,
      status: r.status,
      attempts: attempts.filter((a) => a.delivery_id === r.id).map((a) => ({ at: offsetTimestamp(a.attempted_at), status_code: a.status_code, error: a.error, duration_ms: a.duration_ms })),
      next_attempt_at: r.status === 'pending' ? offsetTimestamp(r.next_attempt_at) : null,
      delivered_at: r.delivered_at ? offsetTimestamp(r.delivered_at) : null,
      created_at: offsetTimestamp(r.created_at),
      payload: r.payload,
    })),
    next_before: rows.length > q.limit ? page[page.length - 1]!.id : null,
  };
}
