/**
 * Webhook delivery from the outbox (mkt_deliveries). At least once, in order per receiver and
 * client: a delivery is not attempted while an earlier one to the same access about the same
 * client is pending, so an authorization's events (and a renewal's disable before its create)
 * arrive in the order they were made. Failed attempts are retried on a schedule over about
 * three days (RETRY_SCHEDULE_MS, as Stripe and Standard Webhooks senders do), every attempt kept;
 * all state is in the database, so a restart (or another process) picks up where it stopped.
 * Several workers may run at once: deliveries are claimed with FOR UPDATE SKIP LOCKED and a
 * lease. A delivery goes to the access's current URL; while the access has none, it waits.
 * Requests are signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature v1 = HMAC-SHA256 with the access's whsec_ secret); while a rotated secret's
 * overlap runs, the header carries a `v1,` signature with each secret, new one first.
 */
import { Webhook } from 'standardwebhooks';
import { systemClock, type Clock } from '../../core/clock.ts';
import type { Sql } from '../../core/state/sql.ts';
import { createSender, type Send } from './send.ts';

export interface DeliveryWorkerOptions {
  sql: Sql;
  /** Schedules attempts and retries (the state's clock). */
  clock: Clock;
  /**
   * The webhook-timestamp source: real time by default, since receivers check it against
   * their own clock (Standard Webhooks allows a few minutes of skew).
   */
  wallClock?: Clock;
  /** How a request is sent; default: node:http(s), internal addresses refused unless allowed. */
  send?: Send;
  /** Lets webhooks reach loopback and private addresses (local development, tests). */
  allowPrivateNetworks?: boolean;
  /** Time limit of one request. */
  timeoutMs?: number;
  /**
   * The wait after each failed attempt, in order; once they are spent the delivery is marked
   * failed (and the next of its sequence may go). Default RETRY_SCHEDULE_MS.
   */
  retrySchedule?: readonly number[];
  /** How long a claimed delivery stays reserved to its worker. */
  leaseMs?: number;
  /** Deliveries claimed per round. */
  batch?: number;
  log?: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
}

export interface RunResult { attempted: number; delivered: number; retried: number; failed: number }

const S = 1000, M = 60 * S, H = 60 * M;
/**
 * Waits after each failed attempt: 5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, then 12 h five
 * times: 14 attempts, the last 3 days 3 h 36 min after the first (Stripe retries for up to three
 * days; Standard Webhooks' reference schedule is of the same shape).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5 * S, 1 * M, 5 * M, 30 * M, 1 * H, 2 * H, 4 * H, 8 * H, 12 * H, 12 * H, 12 * H, 12 * H, 12 * H];

/** The wait after the `failedAttempts`-th failed attempt, or null when the schedule is spent (give up). */
export function retryDelayMs(failedAttempts: number, schedule: readonly number[] = RETRY_SCHEDULE_MS): number | null {
  return failedAttempts >= 1 && failedAttempts <= schedule.length ? schedule[failedAttempts - 1]! : null;
}

/**
 * A schedule from text, as MARKETPLACE_WEBHOOK_RETRY_SCHEDULE gives it: durations with a unit
 * (ms, s, m, h, d), comma-separated ("5s,1m,5m,30m,1h"). Null when it cannot be read.
 */
export function parseRetrySchedule(text: string): number[] | null {
  const unit: Record<string, number> = { ms: 1, s: S, m: M, h: H, d: 24 * H };
  const parts = text.split(',').map((p) => /^\s*(\d{1,7})\s*(ms|s|m|h|d)\s*$/.exec(p));
  if (parts.length === 0 || parts.length > 100 || parts.some((p) => !p)) return null;
  return parts.map((p) => Number(p![1]) * unit[p![2]!]!);
}

/**
 * The webhook-signature header: one `v1,` signature per secret, space-separated (Standard
 * Webhooks), so a receiver holding either the new or the previous secret verifies it.
 */
export function signatureHeader(msgId: string, sentAt: Date, body: string, secrets: readonly string[]): string {
  return secrets.map((secret) => new Webhook(secret).sign(msgId, sentAt, body)).join(' ');
}

/** The webhook-id of an event: the same on every attempt, so receivers can drop duplicates. */
export const webhookId = (eventId: number) => `msg_${eventId}`;

interface Claimed { id: number; event_id: number; attempts: number; url: string; secret: string; previous_secret: string | null; previous_until: Date | null; payload: unknown; lease_until: Date }

export function createDeliveryWorker(o: DeliveryWorkerOptions) {
  const send = o.send ?? createSender({ allowPrivateNetworks: o.allowPrivateNetworks ?? false });
  const timeoutMs = o.timeoutMs ?? 10_000;
  const schedule = o.retrySchedule ?? RETRY_SCHEDULE_MS;
  const leaseMs = o.leaseMs ?? Math.max(60_000, timeoutMs * 3);
  const batch = o.batch ?? 20;

  async function claim(now: Date): Promise<Claimed[]> {
    const lease = new Date(now.getTime() + leaseMs);
    return o.sql.transaction(async (tx) => {
      const ids = await tx.query<{ id: number }>(
        `SELECT d.id::int AS id FROM mkt_deliveries d JOIN mkt_accesses ac ON ac.id = d.access_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
            AND ac.webhook_url IS NOT NULL AND ac.revoked_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM mkt_deliveries e
                             WHERE e.access_id = d.access_id AND e.user_id = d.user_id AND e.status = 'pending' AND e.id < d.id)
          ORDER BY d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
        [now, batch],
      );
      if (ids.length === 0) return [];
      return tx.query<Claimed>(
        `UPDATE mkt_deliveries d SET lease_until = $2
           FROM mkt_events e, mkt_accesses ac
          WHERE d.id = ANY($1::bigint[]) AND e.id = d.event_id AND ac.id = d.access_id
          RETURNING d.id::int AS id, d.event_id::int AS event_id, d.attempts, ac.webhook_url AS url,
                    ac.webhook_secret AS secret, ac.webhook_previous_secret AS previous_secret,
                    ac.webhook_previous_secret_until AS previous_until, e.payload, d.lease_until`,
        [ids.map((r) => r.id), lease],
      );
    });
  }

  async function attempt(d: Claimed): Promise<'delivered' | 'retried' | 'failed'> {
    const body = JSON.stringify(d.payload);
    const msgId = webhookId(d.event_id);
    const sentAt = (o.wallClock ?? systemClock).now();
    let statusCode: number | null = null;
    let error: string | null = null;
    const started = performance.now();
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'marketplace-webhooks/1',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signatureHeader(msgId, sentAt, body, [
          d.secret,
          // The replaced secret still signs until its overlap ends (the state's clock decides).
          ...(d.previous_secret && d.previous_until && d.previous_until > o.clock.now() ? [d.previous_secret] : []),
        ]),
      };
      // Redirects are not followed: a 3xx is a failed attempt like any other non-2xx.
      const res = await send(d.url, headers, body, timeoutMs);
      statusCode = res.status;
      if (res.status < 200 || res.status >= 300) error = `receiver answered HTTP ${res.status}`;
    } catch (err) {
      const e = err as Error & { code?: string };
      error = `cannot reach the receiver: ${e.code ?? e.message}`;
    }
    const duration = Math.round(performance.now() - started);
    const now = o.clock.now();
    const attempts = d.attempts + 1;
    const wait = retryDelayMs(attempts, schedule);
    const outcome = error === null ? 'delivered' : wait === null ? 'failed' : 'retried';
    await o.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO mkt_delivery_attempts (delivery_id, attempted_at, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5)`,
        [d.id, o.clock.now(), statusCode, error, duration],
      );
      // Only the holder of the lease records the outcome (a lease that expired was taken over).
      await tx.query(
        `UPDATE mkt_deliveries SET attempts = $2, status = $3, last_status_code = $4, last_error = $5, lease_until = NULL,
                delivered_at = CASE WHEN $3 = 'delivered' THEN $6::timestamptz END,
                next_attempt_at = CASE WHEN $3 = 'pending' THEN $7::timestamptz ELSE next_attempt_at END
          WHERE id = $1 AND lease_until = $8`,
        [d.id, attempts, outcome === 'retried' ? 'pending' : outcome, statusCode, error, now, new Date(now.getTime() + (wait ?? 0)), d.lease_until],
      );
    });
    if (outcome === 'failed') o.log?.error({ delivery: d.id, url: d.url, attempts, error }, 'webhook delivery given up');
    return outcome;
  }

  let running: Promise<RunResult> | null = null;
  let timer: NodeJS.Timeout | null = null;

  /** Delivers everything due now, round after round, until nothing more is due. */
  async function runOnce(): Promise<RunResult> {
    const total: RunResult = { attempted: 0, delivered: 0, retried: 0, failed: 0 };
    for (;;) {
      const claimed = await claim(o.clock.now());
      if (claimed.length === 0) return total;
      const outcomes = await Promise.all(claimed.map(attempt));
      for (const r of outcomes) total[r]++;
      total.attempted += outcomes.length;
      // Only failures left in this round: their retries are in the future.
      if (outcomes.every((r) => r === 'retried')) return total;
    }
  }

  return {
    runOnce(): Promise<RunResult> {
      // One round at a time in a process; other processes coordinate through the database.
      running ??= runOnce().finally(() => { running = null; });
      return running;
    },
    /** Runs a round every `intervalMs`; errors are logged, never thrown. */
    start(intervalMs: number): void {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        this.runOnce().catch((err: unknown) => o.log?.error({ err }, 'webhook delivery round failed'));
      }, intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/** Puts a failed delivery back in the queue (operator command). */
export async function retryDelivery(sql: Sql, id: number, now: Date): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE mkt_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $2, lease_until = NULL WHERE id = $1 AND status = 'failed' RETURNING id`,
    [id, now],
  );
  return rows.length > 0;
}
