/**
 * Purchases and renewals (spec section 3). A purchase creates an active authorization; a
 * subscription whose period has ended is renewed by deactivating its authorization and
 * creating the next period's, each change with its event in the same transaction.
 */
import type { Clock } from '../core/clock.ts';
import type { Sql } from '../core/state/sql.ts';
import type { Catalog } from './catalog.ts';
import { OperatorError } from './errors.ts';
import { addMonths, periodMonths } from './format.ts';
import { emit } from './outbox.ts';

export interface PurchaseResult { purchaseId: number; authorizationId: number; eventId: number }

export async function purchase(
  sql: Sql,
  catalog: Catalog,
  input: { store: string; user: string; plan: string; options?: string[]; at?: Date },
  clock: Clock,
): Promise<PurchaseResult> {
  const store = await catalog.store(input.store);
  const user = await catalog.user(input.user);
  if (!(await catalog.clientOf(user.id))) throw new OperatorError(`user ${input.user} is not a marketplace client: create its client profile first`, 'not_found');
  const plan = await catalog.plan(input.plan);
  const chosen = [...new Set(input.options ?? [])].map((code) => {
    const option = plan.options.find((o) => o.code === code);
    if (!option) throw new OperatorError(`plan ${plan.sku} has no option ${code} (options: ${plan.options.map((o) => o.code).join(', ') || 'none'})`, 'invalid');
    return option;
  });
  const now = clock.now();
  const at = input.at ?? now;
  const months = periodMonths(plan.mode, plan.validity_months);
  return sql.transaction(async (tx) => {
    const [p] = await tx.query<{ id: number }>(
      `INSERT INTO mkt_purchases (store_id, user_id, plan_id, options, purchased_at) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
      [store.id, user.id, plan.id, JSON.stringify(chosen), at],
    );
    const [a] = await tx.query<{ id: number }>(
      `INSERT INTO mkt_authorizations (purchase_id, period, store_id, user_id, product_id, plan_id, mode, status, validity_start, validity_end, tokens, created_at, updated_at)
       VALUES ($1, 0, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $10) RETURNING id::int AS id`,
      [p!.id, store.id, user.id, plan.product_id, plan.id, plan.mode, at, addMonths(at, months), plan.tokens, now],
    );
    const eventId = await emit(tx, 'authorization.create', a!.id, now);
    return { purchaseId: p!.id, authorizationId: a!.id, eventId };
  });
}

/** Stops the renewals of a subscription; its current period runs to its end. */
export async function cancelPurchase(sql: Sql, purchaseId: number, clock: Clock): Promise<void> {
  const rows = await sql.query(
    `UPDATE mkt_purchases p SET cancelled_at = $2 FROM mkt_plans pl
      WHERE p.id = $1 AND pl.id = p.plan_id AND pl.mode <> 'tokens' AND p.cancelled_at IS NULL RETURNING p.id`,
    [purchaseId, clock.now()],
  );
  if (rows.length === 0) throw new OperatorError(`purchase ${purchaseId} not found, not a subscription, or already cancelled`, 'not_found');
}

export interface Renewal { purchaseId: number; disabled: number; created: number | null }

/**
 * Renews every subscription whose current period ended at `now` or before: the ended
 * authorization is deactivated (authorization.disable), then the next period's is created
 * (authorization.create); a cancelled subscription is only deactivated. Periods missed while
 * nothing ran are renewed one by one. `asOf` (default `now`) is the moment periods are judged
 * at, for operators replaying a date. Exactly once under concurrent runs: each purchase is
 * handled under its row lock, and (purchase, period) is unique.
 */
export async function renewDue(sql: Sql, now: Date, asOf: Date = now): Promise<Renewal[]> {
  const due = await sql.query<{ purchase_id: number }>(
    `SELECT DISTINCT purchase_id::int AS purchase_id FROM mkt_authorizations
      WHERE status = 'active' AND mode <> 'tokens' AND validity_end <= $1 ORDER BY 1`,
    [asOf],
  );
  const done: Renewal[] = [];
  for (const { purchase_id } of due) done.push(...(await renewPurchase(sql, purchase_id, now, asOf)));
  return done;
}

/** `asOf` decides which periods have ended (`renew --now`); `now` stamps the changes and events. */
async function renewPurchase(sql: Sql, purchaseId: number, now: Date, asOf: Date): Promise<Renewal[]> {
  return sql.transaction(async (tx) => {
    const [p] = await tx.query<{ purchased_at: Date; cancelled_at: Date | null; mode: 'plan_month' | 'plan_year'; validity_months: number }>(
      `SELECT p.purchased_at, p.cancelled_at, pl.mode, pl.validity_months FROM mkt_purchases p JOIN mkt_plans pl ON pl.id = p.plan_id
        WHERE p.id = $1 FOR UPDATE OF p`,
      [purchaseId],
    );
    const months = periodMonths(p!.mode, p!.validity_months);
    const renewals: Renewal[] = [];
    // Read after the lock: a concurrent run that renewed first has left nothing due.
    let [current] = await tx.query<{ id: number; period: number; validity_end: Date; store_id: number; user_id: number; product_id: number; plan_id: number; mode: string }>(
      `SELECT id::int AS id, period, validity_end, store_id::int AS store_id, user_id::int AS user_id, product_id::int AS product_id, plan_id::int AS plan_id, mode
         FROM mkt_authorizations WHERE purchase_id = $1 AND status = 'active' ORDER BY period DESC LIMIT 1`,
      [purchaseId],
    );
    while (current && current.validity_end.getTime() <= asOf.getTime()) {
      await tx.query(`UPDATE mkt_authorizations SET status = 'inactive', inactive_at = validity_end, updated_at = $2 WHERE id = $1`, [current.id, now]);
      await emit(tx, 'authorization.disable', current.id, now);
      const start = addMonths(p!.purchased_at, months * (current.period + 1));
      if (p!.cancelled_at !== null && p!.cancelled_at.getTime() <= start.getTime()) {
        renewals.push({ purchaseId, disabled: current.id, created: null });
        break;
      }
      const [next] = await tx.query<{ id: number }>(
        `INSERT INTO mkt_authorizations (purchase_id, period, store_id, user_id, product_id, plan_id, mode, status, validity_start, validity_end, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10, $10) RETURNING id::int AS id`,
        [purchaseId, current.period + 1, current.store_id, current.user_id, current.product_id, current.plan_id, current.mode, start, addMonths(p!.purchased_at, months * (current.period + 2)), now],
      );
      await emit(tx, 'authorization.create', next!.id, now);
      renewals.push({ purchaseId, disabled: current.id, created: next!.id });
      current = { ...current, id: next!.id, period: current.period + 1, validity_end: addMonths(p!.purchased_at, months * (current.period + 2)) };
    }
    return renewals;
  });
}
