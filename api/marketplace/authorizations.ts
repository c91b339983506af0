/** Reading authorizations with their plan, product and purchase options. */
import type { Sql } from '../core/state/sql.ts';
import type { AuthorizationRow } from './format.ts';

export const AUTHORIZATION_SELECT = `
  SELECT a.id::int AS id, a.store_id::int AS store_id, a.user_id::int AS user_id, a.product_id::int AS product_id,
         pl.sku AS pricing_sku, pr.sku AS product_sku, pl.name AS plan_name, pr.name AS product_name,
         a.mode, a.status, a.validity_start, a.validity_end, a.inactive_at, a.tokens, a.debited, pu.options AS extras
    FROM mkt_authorizations a
    JOIN mkt_plans pl ON pl.id = a.plan_id
    JOIN mkt_products pr ON pr.id = a.product_id
    JOIN mkt_purchases pu ON pu.id = a.purchase_id`;

export async function readAuthorization(sql: Sql, id: number): Promise<AuthorizationRow | null> {
  return (await sql.query<AuthorizationRow>(`${AUTHORIZATION_SELECT} WHERE a.id = $1`, [id]))[0] ?? null;
}

/**
 * The active authorizations of a client in a store, oldest first; only those of one
 * partner's products when `partnerId` is given (supplier access), of one product when
 * `productSku` is.
 */
export function activeAuthorizations(sql: Sql, q: { storeId: number; userId: number; partnerId: number | null; productSku: string | null }): Promise<AuthorizationRow[]> {
  return sql.query<AuthorizationRow>(
    `${AUTHORIZATION_SELECT}
      WHERE a.store_id = $1 AND a.user_id = $2 AND a.status = 'active'
        AND ($3::bigint IS NULL OR pr.partner_id = $3) AND ($4::text IS NULL OR pr.sku = $4)
      ORDER BY a.id`,
    [q.storeId, q.userId, q.partnerId, q.productSku],
  );
}
