/**
 * The services of a signed-in user, per store and product (spec partner-signin-and-marketplace.md
 * section 1: "a space listing all active services"): the active authorizations, the token
 * balance of section 2.4 (the sum of `tokens` over the product's active token authorizations),
 * the last debit, and where "Open" leads (the supplier's OAuth application's initiate_login_uri).
 */
import type { Sql } from '../core/state/sql.ts';
import { AUTHORIZATION_SELECT } from '../marketplace/authorizations.ts';
import type { AuthorizationRow } from '../marketplace/format.ts';

export interface ProductServices {
  sku: string;
  name: string;
  authorizations: AuthorizationRow[];
  /** Section 2.4; null when the product has no token authorization. */
  tokens: number | null;
  lastDebitAt: Date | null;
  /** The application's login-initiation address, when the supplier's access names a client that has one. */
  initiateLoginUri: string | null;
}

export interface StoreServices {
  slug: string;
  name: string;
  products: ProductServices[];
}

export async function servicesOf(sql: Sql, userId: number): Promise<StoreServices[]> {
  const rows = await sql.query<AuthorizationRow>(
    `${AUTHORIZATION_SELECT} WHERE a.user_id = $1 AND a.status = 'active' ORDER BY a.store_id, pr.sku, a.id`,
    [userId],
  );
  if (rows.length === 0) return [];
  const stores = await sql.query<{ id: number; slug: string; name: string }>(
    `SELECT id::int AS id, slug, name FROM mkt_stores WHERE id = ANY($1::bigint[])`,
    [[...new Set(rows.map((r) => r.store_id))]],
  );
  const debits = await sql.query<{ store_id: number; product_id: number; at: Date }>(
    `SELECT e.store_id::int AS store_id, a.product_id::int AS product_id, max(e.created_at) AS at
       FROM mkt_events e JOIN mkt_authorizations a ON a.id = e.authorization_id
      WHERE e.user_id = $1 AND e.type = 'tokens.debit'
      GROUP BY e.store_id, a.product_id`,
    [userId],
  );
  // The supplier's live access to the store names its OAuth application (mkt_accesses.oauth_client_uid).
  const targets = await sql.query<{ store_id: number; product_id: number; uri: string }>(
    `SELECT DISTINCT ON (ac.store_id, pr.id) ac.store_id::int AS store_id, pr.id::int AS product_id, c.initiate_login_uri AS uri
       FROM mkt_products pr
       JOIN mkt_accesses ac ON ac.partner_id = pr.partner_id AND ac.revoked_at IS NULL AND ac.oauth_client_uid IS NOT NULL
       JOIN oauth_clients c ON c.client_id = ac.oauth_client_uid AND c.revoked_at IS NULL AND c.initiate_login_uri IS NOT NULL
      WHERE pr.id = ANY($1::bigint[]) AND ac.store_id = ANY($2::bigint[])
      ORDER BY ac.store_id, pr.id, ac.id`,
    [[...new Set(rows.map((r) => r.product_id))], stores.map((s) => s.id)],
  );
  const key = (store: number, product: number) => `${store}/${product}`;
  const lastDebit = new Map(debits.map((d) => [key(d.store_id, d.product_id), new Date(d.at)]));
  const target = new Map(targets.map((t) => [key(t.store_id, t.product_id), t.uri]));

  return stores
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map((store) => {
      const products = new Map<number, ProductServices>();
      for (const r of rows.filter((x) => x.store_id === store.id)) {
        let p = products.get(r.product_id);
        if (!p) {
          p = {
            sku: r.product_sku, name: r.product_name, authorizations: [], tokens: null,
            lastDebitAt: lastDebit.get(key(store.id, r.product_id)) ?? null,
            initiateLoginUri: target.get(key(store.id, r.product_id)) ?? null,
          };
          products.set(r.product_id, p);
        }
        p.authorizations.push(r);
        if (r.mode === 'tokens') p.tokens = (p.tokens ?? 0) + (r.tokens ?? 0);
      }
      return { slug: store.slug, name: store.name, products: [...products.values()] };
    });
}
