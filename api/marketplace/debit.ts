/**
 * Token debit (spec 4.2, rules 1-3). One transaction: the client's active token
 * authorizations of the product are locked in purchase order (date, then id; SELECT ... FOR UPDATE; every
 * debit takes the locks in the same order, so concurrent debits queue instead of
 * deadlocking), the balance is checked on the locked rows, then the named authorization
 * is drawn first and the others in purchase order, each touched one with its tokens.debit
 * event. An insufficient balance rolls everything back: nothing is debited.
 */
import type { Sql } from '../core/state/sql.ts';
import type { Access } from './catalog.ts';
import { MarketError } from './errors.ts';
import { emit } from './outbox.ts';

export interface DebitPart { authorizationId: number; debited: number; remaining: number }

/**
 * Pure rule 1-2: how much to take from each authorization, named one first, then the others in
 * the order given (`rows` in purchase order); null when the total is short.
 */
export function allocate(named: number, rows: { id: number; tokens: number }[], quantity: number): DebitPart[] | null {
  const total = rows.reduce((s, r) => s + r.tokens, 0);
  if (total < quantity) return null;
  const order = [...rows.filter((r) => r.id === named), ...rows.filter((r) => r.id !== named)];
  const parts: DebitPart[] = [];
  let left = quantity;
  for (const r of order) {
    if (left === 0) break;
    const take = Math.min(r.tokens, left);
    if (take === 0) continue;
    parts.push({ authorizationId: r.id, debited: take, remaining: r.tokens - take });
    left -= take;
  }
  return parts;
}

export interface DebitQuery { access: Access; authorizationId: number; quantity: number; userId: number | null; now: Date }

export async function debit(sql: Sql, q: DebitQuery): Promise<DebitPart[]> {
  return sql.transaction((tx) => debitIn(tx, q));
}

/** An Idempotency-Key given with a debit: the key, the digest of the request it came with, how long it is kept. */
export interface Idempotency { key: string; requestHash: string; ttlMs: number }

export type IdempotentOutcome =
  | { replayed: false; parts: DebitPart[]; status: number; body: unknown }
  | { replayed: true; status: number; body: unknown };

/**
 * A debit under an Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header, as Stripe
 * does it). The key's row is inserted by the debit's own transaction, before anything else: a
 * concurrent request with the same key waits on that row (PostgreSQL's unique index), then finds
 * it committed and is answered with the stored response, never debiting twice; had the first
 * one rolled back (nothing debited), the second goes ahead. The same key with another request
 * is refused (422). A refused debit (nothing debited) keeps no key. Expired keys are treated as
 * absent.
 */
export async function idempotentDebit(sql: Sql, q: DebitQuery, idem: Idempotency, respond: (parts: DebitPart[]) => unknown): Promise<IdempotentOutcome> {
  return sql.transaction(async (tx) => {
    await tx.query(`DELETE FROM mkt_idempotency_keys WHERE access_id = $1 AND key = $2 AND expires_at <= $3`, [q.access.id, idem.key, q.now]);
    const claimed = await tx.query(
      `INSERT INTO mkt_idempotency_keys (access_id, key, request_hash, status_code, response, created_at, expires_at)
       VALUES ($1, $2, $3, 0, 'null', $4, $5) ON CONFLICT (access_id, key) DO NOTHING RETURNING key`,
      [q.access.id, idem.key, idem.requestHash, q.now, new Date(q.now.getTime() + idem.ttlMs)],
    );
    if (claimed.length === 0) {
      const [kept] = await tx.query<{ request_hash: string; status_code: number; response: unknown; created_at: Date }>(
        `SELECT request_hash, status_code, response, created_at FROM mkt_idempotency_keys WHERE access_id = $1 AND key = $2`,
        [q.access.id, idem.key],
      );
      if (kept!.request_hash !== idem.requestHash) {
        throw new MarketError('idempotency_key_reused', 'this Idempotency-Key was used with another request (authorization, quantity or user): use a new key for a new debit', { idempotency_key: idem.key, first_used_at: kept!.created_at.toISOString() });
      }
      return { replayed: true, status: kept!.status_code, body: kept!.response };
    }
    const parts = await debitIn(tx, q);
    const body = respond(parts);
    await tx.query(`UPDATE mkt_idempotency_keys SET status_code = 200, response = $3 WHERE access_id = $1 AND key = $2`, [q.access.id, idem.key, JSON.stringify(body)]);
    return { replayed: false, parts, status: 200, body };
  });
}

/** Drops the keys past their keeping time (run with the renewals). */
export async function purgeIdempotencyKeys(sql: Sql, now: Date): Promise<number> {
  return (await sql.query(`DELETE FROM mkt_idempotency_keys WHERE expires_at <= $1 RETURNING key`, [now])).length;
}

async function debitIn(tx: Sql, q: DebitQuery): Promise<DebitPart[]> {
  {
    const [named] = await tx.query<{ id: number; user_id: number; product_id: number; mode: string; partner_id: number }>(
      `SELECT a.id::int AS id, a.user_id::int AS user_id, a.product_id::int AS product_id, a.mode, pr.partner_id::int AS partner_id
         FROM mkt_authorizations a JOIN mkt_products pr ON pr.id = a.product_id
        WHERE a.id = $1 AND a.store_id = $2`,
      [q.authorizationId, q.access.store_id],
    );
    // Another supplier's authorization, or another client's, is answered as unknown.
    if (!named || (q.access.level === 'supplier' && named.partner_id !== q.access.partner_id) || (q.userId !== null && q.userId !== named.user_id)) {
      throw new MarketError('authorization_not_found', `no authorization ${q.authorizationId} visible to these credentials`, { authorization_id: q.authorizationId });
    }
    if (named.mode !== 'tokens') {
      throw new MarketError('not_a_tokens_authorization', `authorization ${named.id} is a ${named.mode} authorization: only tokens authorizations are debited`, { authorization_id: named.id, mode: named.mode });
    }
    // "In order of purchase" (spec 4.2 rule 2): by the purchase's date, which `purchases create
    // --at` may set earlier than a purchase recorded before it, then by id.
    const rows = await tx.query<{ id: number; tokens: number }>(
      `SELECT a.id::int AS id, a.tokens FROM mkt_authorizations a JOIN mkt_purchases p ON p.id = a.purchase_id
        WHERE a.store_id = $1 AND a.user_id = $2 AND a.product_id = $3 AND a.mode = 'tokens' AND a.status = 'active'
        ORDER BY p.purchased_at, a.id FOR UPDATE OF a`,
      [q.access.store_id, named.user_id, named.product_id],
    );
    if (!rows.some((r) => r.id === named.id)) {
      throw new MarketError('authorization_inactive', `authorization ${named.id} is no longer active: nothing was debited`, { authorization_id: named.id });
    }
    const parts = allocate(named.id, rows, q.quantity);
    if (!parts) {
      const available = rows.reduce((s, r) => s + r.tokens, 0);
      throw new MarketError(
        'insufficient_tokens',
        `insufficient tokens: ${q.quantity} requested, ${available} available in total on this product; nothing was debited`,
        { authorization_id: named.id, requested: q.quantity, available },
      );
    }
    for (const part of parts) {
      await tx.query(`UPDATE mkt_authorizations SET tokens = $2, debited = true, updated_at = $3 WHERE id = $1`, [part.authorizationId, part.remaining, q.now]);
      await emit(tx, 'tokens.debit', part.authorizationId, q.now);
    }
    return parts;
  }
}
