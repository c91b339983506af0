/**
 * The operator's side of the marketplace: stores, partners and their per-store accesses
 * (credentials), products, price plans and client profiles. Inputs are validated with the
 * zod schemas of schemas/marketplace.ts; every correctable failure is an OperatorError.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  ClientProfileInput,
  PartnerInput,
  PlanInput,
  PRODUCT_SKU,
  StoreInput,
  WebhookUrl,
  type PlanOption,
} from '../../schemas/marketplace.ts';
import type { UserWithAffiliation } from '../../schemas/accounts.ts';
import { AccountError, createAccountRepository } from '../accounts/accounts.ts';
import type { Clock } from '../core/clock.ts';
import type { Sql } from '../core/state/sql.ts';
import { explainConstraint, OperatorError } from './errors.ts';
import type { ClientRow } from './format.ts';

export interface Store { id: number; slug: string; name: string; created_at: Date }
export interface Partner { id: number; code: string; name: string; created_at: Date }
export type AccessLevel = 'marketplace' | 'supplier';
export interface Access {
  id: number;
  partner_id: number;
  partner_code: string;
  store_id: number;
  store_slug: string;
  level: AccessLevel;
  key_hint: string;
  webhook_url: string | null;
  /** The partner application's OAuth client_uid at the sign-in provider, when known. */
  oauth_client_uid: string | null;
  revoked_at: Date | null;
  created_at: Date;
}
export interface Product { id: number; partner_id: number; sku: string; name: string; created_at: Date }
export interface Plan {
  id: number;
  product_id: number;
  product_sku: string;
  sku: string;
  name: string;
  mode: 'plan_month' | 'plan_year' | 'tokens';
  tokens: number | null;
  validity_months: number;
  options: PlanOption[];
  created_at: Date;
}

/** What an access's creation returns once: the credentials and the webhook secret. */
export interface IssuedCredentials { access: Access; apiKey: string; apiToken: string; webhookSecret: string }

function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || what;
  throw new OperatorError(`invalid ${what}: ${field}: ${issue.message}`, 'invalid');
}

export const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const API_KEY = /^mpk_[A-Za-z0-9_-]{24}$/;
const API_TOKEN = /^mpt_[A-Za-z0-9_-]{43}$/;

const STORE_COLS = 'id::int AS id, slug, name, created_at';
const PARTNER_COLS = 'id::int AS id, code, name, created_at';
const ACCESS_COLS = `a.id::int AS id, a.partner_id::int AS partner_id, p.code AS partner_code, a.store_id::int AS store_id,
  s.slug AS store_slug, a.level, a.key_hint, a.webhook_url, a.oauth_client_uid, a.revoked_at, a.created_at`;
const ACCESS_FROM = 'mkt_accesses a JOIN mkt_partners p ON p.id = a.partner_id JOIN mkt_stores s ON s.id = a.store_id';
const PRODUCT_COLS = 'id::int AS id, partner_id::int AS partner_id, sku, name, created_at';
const PLAN_COLS = `pl.id::int AS id, pl.product_id::int AS product_id, pr.sku AS product_sku, pl.sku, pl.name, pl.mode, pl.tokens,
  pl.validity_months, pl.options, pl.created_at`;
const CLIENT_COLS = 'id::int AS id, user_id::int AS user_id, reference::int AS reference, profile, created_at, updated_at';

export function createCatalog(sql: Sql, clock: Clock) {
  const accounts = createAccountRepository(sql);

  async function one<T>(text: string, params: unknown[], what: string): Promise<T> {
    const rows = await sql.query<T>(text, params);
    if (rows.length === 0) throw new OperatorError(`${what} not found`, 'not_found');
    return rows[0]!;
  }

  const catalog = {
    async createStore(input: z.input<typeof StoreInput>): Promise<Store> {
      const s = validate(StoreInput, input, 'store');
      return sql
        .query<Store>(`INSERT INTO mkt_stores (slug, name) VALUES ($1, $2) RETURNING ${STORE_COLS}`, [s.slug, s.name])
        .then((r) => r[0]!, (e) => explainConstraint(e, `store ${s.slug}`));
    },

    /** A store by id (digits) or slug. */
    store: (ref: string | number) =>
      one<Store>(`SELECT ${STORE_COLS} FROM mkt_stores WHERE ${typeof ref === 'number' || /^\d+$/.test(ref) ? 'id = $1::bigint' : 'slug = $1'}`, [String(ref)], `store ${ref}`),

    async storeBySlug(slug: string): Promise<Store | null> {
      return (await sql.query<Store>(`SELECT ${STORE_COLS} FROM mkt_stores WHERE slug = $1`, [slug]))[0] ?? null;
    },

    listStores: () => sql.query<Store>(`SELECT ${STORE_COLS} FROM mkt_stores ORDER BY id`),

    async createPartner(input: z.input<typeof PartnerInput>): Promise<Partner> {
      const p = validate(PartnerInput, input, 'partner');
      return sql
        .query<Partner>(`INSERT INTO mkt_partners (code, name) VALUES ($1, $2) RETURNING ${PARTNER_COLS}`, [p.code, p.name])
        .then((r) => r[0]!, (e) => explainConstraint(e, `partner ${p.code}`));
    },

    partner: (code: string) => one<Partner>(`SELECT ${PARTNER_COLS} FROM mkt_partners WHERE code = $1`, [code], `partner ${code}`),
    listPartners: () => sql.query<Partner>(`SELECT ${PARTNER_COLS} FROM mkt_partners ORDER BY id`),

    /**
     * Opens a store to a partner with an access level, and issues its apiKey/apiToken and
     * webhook secret. Only hashes of the key and token are stored; they are shown once.
     */
    async grantAccess(input: { partner: string; store: string; level: AccessLevel; webhookUrl: string | null; oauthClientUid?: string | null }): Promise<IssuedCredentials> {
      if (input.level !== 'marketplace' && input.level !== 'supplier') throw new OperatorError(`invalid access level ${input.level}: marketplace or supplier`, 'invalid');
      const url = input.webhookUrl === null ? null : validate(WebhookUrl, input.webhookUrl, 'webhook URL');
      const oauthClient = input.oauthClientUid == null ? null : validate(z.string().trim().min(1).max(200), input.oauthClientUid, 'OAuth client_uid');
      const partner = await catalog.partner(input.partner);
      const store = await catalog.store(input.store);
      const apiKey = `mpk_${randomBytes(18).toString('base64url')}`;
      const apiToken = `mpt_${randomBytes(32).toString('base64url')}`;
      const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
      const [row] = await sql
        .query<{ id: number }>(
          `INSERT INTO mkt_accesses (partner_id, store_id, level, api_key_hash, api_token_hash, key_hint, webhook_url, webhook_secret, oauth_client_uid)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::int AS id`,
          [partner.id, store.id, input.level, sha256(apiKey), sha256(apiToken), apiKey.slice(0, 8), url, webhookSecret, oauthClient],
        )
        .catch((e) => explainConstraint(e, `access of partner ${partner.code} to store ${store.slug}`));
      return { access: await catalog.access(row!.id), apiKey, apiToken, webhookSecret };
    },

    access: (id: number) => one<Access>(`SELECT ${ACCESS_COLS} FROM ${ACCESS_FROM} WHERE a.id = $1`, [id], `access ${id}`),

    listAccesses: (storeId?: number) =>
      sql.query<Access>(`SELECT ${ACCESS_COLS} FROM ${ACCESS_FROM} WHERE $1::bigint IS NULL OR a.store_id = $1 ORDER BY a.id`, [storeId ?? null]),

    async setWebhookUrl(accessId: number, url: string | null): Promise<void> {
      const u = url === null ? null : validate(WebhookUrl, url, 'webhook URL');
      const rows = await sql.query(`UPDATE mkt_accesses SET webhook_url = $2 WHERE id = $1 RETURNING id`, [accessId, u]);
      if (rows.length === 0) throw new OperatorError(`access ${accessId} not found`, 'not_found');
    },

    /**
     * Replaces an access's webhook signing secret. The replaced one keeps signing beside the new
     * one for `overlapMs` (webhook-signature then carries two `v1,` signatures), so the partner
     * can deploy the new secret without losing a delivery; a rotation during an overlap ends the
     * earlier one (two secrets at most). Returns the new secret, shown once.
     */
    async rotateWebhookSecret(accessId: number, overlapMs: number): Promise<{ webhookSecret: string; previousUntil: Date }> {
      if (!Number.isInteger(overlapMs) || overlapMs < 0 || overlapMs > 30 * 86_400_000) throw new OperatorError('the overlap is from 0 to 30 days', 'invalid');
      const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
      const previousUntil = new Date(clock.now().getTime() + overlapMs);
      const rows = await sql.query(
        `UPDATE mkt_accesses SET webhook_previous_secret = webhook_secret, webhook_previous_secret_until = $3, webhook_secret = $2
          WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
        [accessId, webhookSecret, previousUntil],
      );
      if (rows.length === 0) throw new OperatorError(`access ${accessId} not found or revoked`, 'not_found');
      return { webhookSecret, previousUntil };
    },

    /** Revokes an access: its credentials stop working and its pending deliveries are dropped (failed). */
    async revokeAccess(accessId: number): Promise<void> {
      await sql.transaction(async (tx) => {
        const rows = await tx.query(`UPDATE mkt_accesses SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id`, [accessId, clock.now()]);
        if (rows.length === 0) throw new OperatorError(`access ${accessId} not found or already revoked`, 'not_found');
        await tx.query(`UPDATE mkt_deliveries SET status = 'failed', last_error = 'access revoked', lease_until = NULL WHERE access_id = $1 AND status = 'pending'`, [accessId]);
      });
    },

    /**
     * The live access whose credentials these are, in this store; null otherwise. The token
     * hash is compared in constant time.
     */
    async authenticate(storeId: number, apiKey: string, apiToken: string): Promise<Access | null> {
      if (!API_KEY.test(apiKey) || !API_TOKEN.test(apiToken)) return null;
      const rows = await sql.query<Access & { api_token_hash: string }>(
        `SELECT ${ACCESS_COLS}, a.api_token_hash FROM ${ACCESS_FROM} WHERE a.api_key_hash = $1 AND a.revoked_at IS NULL`,
        [sha256(apiKey)],
      );
      const row = rows[0];
      if (!row) return null;
      const ok = timingSafeEqual(Buffer.from(row.api_token_hash, 'hex'), Buffer.from(sha256(apiToken), 'hex'));
      if (!ok || row.store_id !== storeId) return null;
      const { api_token_hash: _, ...access } = row;
      return access;
    },

    async createProduct(input: { partner: string; sku: string; name: string }): Promise<Product> {
      const partner = await catalog.partner(input.partner);
      const sku = validate(PRODUCT_SKU, input.sku, 'product SKU');
      if (!sku.startsWith(`${partner.code}-`)) throw new OperatorError(`invalid product SKU ${sku}: it must start with the partner code ${partner.code}-`, 'invalid');
      const name = validate(z.string().trim().min(1).max(200), input.name, 'product name');
      return sql
        .query<Product>(`INSERT INTO mkt_products (partner_id, sku, name) VALUES ($1, $2, $3) RETURNING ${PRODUCT_COLS}`, [partner.id, sku, name])
        .then((r) => r[0]!, (e) => explainConstraint(e, `product ${sku}`));
    },

    product: (sku: string) => one<Product>(`SELECT ${PRODUCT_COLS} FROM mkt_products WHERE sku = $1`, [sku], `product ${sku}`),
    listProducts: () => sql.query<Product>(`SELECT ${PRODUCT_COLS} FROM mkt_products ORDER BY id`),

    async createPlan(productSku: string, input: PlanInput): Promise<Plan> {
      const product = await catalog.product(productSku);
      const p = validate(PlanInput, input, 'plan');
      if (!p.sku.startsWith(`${product.sku}-`)) throw new OperatorError(`invalid pricing SKU ${p.sku}: it must start with the product SKU ${product.sku}-`, 'invalid');
      const validity = p.mode === 'plan_month' ? 1 : p.mode === 'plan_year' ? 12 : (p.validity_months ?? 12);
      const [row] = await sql
        .query<{ id: number }>(
          `INSERT INTO mkt_plans (product_id, sku, name, mode, tokens, validity_months, options) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int AS id`,
          [product.id, p.sku, p.name, p.mode, p.tokens ?? null, validity, JSON.stringify(p.options)],
        )
        .catch((e) => explainConstraint(e, `plan ${p.sku}`));
      return catalog.plan(row!.id);
    },

    /** A plan by pricing SKU or id. */
    plan: (ref: string | number) =>
      one<Plan>(
        `SELECT ${PLAN_COLS} FROM mkt_plans pl JOIN mkt_products pr ON pr.id = pl.product_id WHERE ${typeof ref === 'number' ? 'pl.id = $1::bigint' : 'pl.sku = $1'}`,
        [String(ref)],
        `plan ${ref}`,
      ),

    listPlans: () => sql.query<Plan>(`SELECT ${PLAN_COLS} FROM mkt_plans pl JOIN mkt_products pr ON pr.id = pl.product_id ORDER BY pl.id`),

    /** A user by id (digits), e-mail or account uid. */
    async user(ref: string): Promise<UserWithAffiliation> {
      const user = /^\d+$/.test(ref)
        ? await accounts.user(Number(ref)).catch((e: unknown) => { if (e instanceof AccountError && e.code === 'not_found') return null; throw e; })
        : ref.includes('@') ? await accounts.userByEmail(ref) : await accounts.userByUid(ref);
      if (!user) throw new OperatorError(`user ${ref} not found`, 'not_found');
      return user;
    },

    /** Makes a user a marketplace client with the profile fields of spec 2.3. */
    async createClient(userRef: string, input: ClientProfileInput, reference?: number): Promise<ClientRow> {
      const user = await catalog.user(userRef);
      const profile = validate(ClientProfileInput, input, 'client profile');
      if (reference !== undefined && (!Number.isSafeInteger(reference) || reference <= 0)) throw new OperatorError('invalid client: reference: a positive integer', 'invalid');
      const now = clock.now();
      return sql
        .query<ClientRow>(
          `INSERT INTO mkt_clients (user_id, reference, profile, created_at, updated_at)
           VALUES ($1, coalesce($2::bigint, nextval('mkt_client_reference')), $3, $4, $4) RETURNING ${CLIENT_COLS}`,
          [user.id, reference ?? null, JSON.stringify(profile), now],
        )
        .then((r) => r[0]!, (e) => explainConstraint(e, `client of user ${user.email}`));
    },

    /** Replaces some profile fields of a client (the others keep their values). */
    async updateClient(userRef: string, input: ClientProfileInput): Promise<ClientRow> {
      const user = await catalog.user(userRef);
      const current = await catalog.clientOf(user.id);
      if (!current) throw new OperatorError(`user ${userRef} is not a marketplace client`, 'not_found');
      const raw = { ...current.profile, ...(input as object) };
      const profile = validate(ClientProfileInput, raw, 'client profile');
      return (await sql.query<ClientRow>(`UPDATE mkt_clients SET profile = $2, updated_at = $3 WHERE id = $1 RETURNING ${CLIENT_COLS}`, [current.id, JSON.stringify(profile), clock.now()]))[0]!;
    },

    async clientOf(userId: number): Promise<ClientRow | null> {
      const row = (await sql.query<ClientRow>(`SELECT ${CLIENT_COLS} FROM mkt_clients WHERE user_id = $1`, [userId]))[0];
      return row ? { ...row, profile: ClientProfileInput.parse(row.profile) } : null;
    },

    listClients: () =>
      sql.query<ClientRow & { email: string; first_name: string; last_name: string }>(
        `SELECT c.id::int AS id, c.user_id::int AS user_id, c.reference::int AS reference, c.created_at, c.updated_at, c.profile, u.email, u.first_name, u.last_name
         FROM mkt_clients c JOIN users u ON u.id = c.user_id ORDER BY c.id`,
      ),

    accounts,
  };
  return catalog;
}

export type Catalog = ReturnType<typeof createCatalog>;
