/**
 * oidc-provider's storage (its Adapter interface) on the state store: every
 * model (Session, Interaction, Grant, AuthorizationCode, AccessToken...) in
 * the generic table oidc_payloads, keyed by model name and id. Expired rows
 * are never returned and are purged by {@link purgeExpiredPayloads}.
 *
 * Clients are not stored here: model `Client` reads the operator's registered
 * clients (oauth_clients), so a revoked client is unknown to the provider at
 * once. Its `client_secret` is the stored hash; see provider.ts for how the
 * presented secret is compared with it.
 */
import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import { findUnstorable, textProblem } from '../../schemas/inputs.ts';
import type { Sql } from '../core/state/sql.ts';
import type { ClientRepository, RegisteredClient } from './clients.ts';

type Row = { payload: AdapterPayload; consumed_at: Date | null };

/**
 * An identifier no stored row can have (NUL, an unpaired surrogate, longer than any we issue):
 * looked up as "not found" without asking the store, which would refuse it.
 */
const impossibleId = (id: unknown): boolean => typeof id !== 'string' || id.length > 4096 || textProblem(id) !== null;

/** Client metadata (OpenID Connect Dynamic Client Registration names) of a registered client. */
export function clientMetadata(c: RegisteredClient): AdapterPayload {
  return {
    client_id: c.client_id,
    client_name: c.name,
    redirect_uris: c.redirect_uris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    application_type: 'web',
    ...(c.client_type === 'confidential'
      ? { token_endpoint_auth_method: 'client_secret_basic', client_secret: c.secret_hash! }
      : { token_endpoint_auth_method: 'none' }),
  };
}

export function payloadAdapter(sql: Sql, clients: ClientRepository): AdapterFactory {
  const live = `(expires_at IS NULL OR expires_at > now())`;
  const payloadOf = (rows: Row[]): AdapterPayload | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    // oidc-provider reads `consumed` to detect a second use of a code.
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };

  return (model: string): Adapter => {
    if (model === 'Client') {
      return {
        async find(id) {
          if (impossibleId(id)) return undefined;
          const c = await clients.findActive(id);
          return c ? clientMetadata(c) : undefined;
        },
        upsert: () => Promise.reject(new Error('clients are registered with `npm run signin -- clients create`')),
        findByUid: async () => undefined,
        findByUserCode: async () => undefined,
        consume: async () => undefined,
        destroy: async () => undefined,
        revokeByGrantId: async () => undefined,
      };
    }
    return {
      async upsert(id, payload, expiresIn) {
        // Request parameters kept with an interaction or grant (state, acr_values...) are refused
        // here when the store cannot hold them: oidc-provider answers 400 invalid_request.
        const bad = findUnstorable(payload);
        if (bad) throw new errors.InvalidRequest(`parameter ${String(bad.path.at(-1) ?? '')} ${bad.problem}`);
        await sql.query(
          `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, now() + $7::bigint * interval '1 second')
           ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
             user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
          [model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null],
        );
      },
      async find(id) {
        if (impossibleId(id)) return undefined;
        return payloadOf(
          await sql.query<Row>(`SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND id = $2 AND ${live}`, [model, id]),
        );
      },
      async findByUid(uid) {
        if (impossibleId(uid)) return undefined;
        return payloadOf(
          await sql.query<Row>(`SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND uid = $2 AND ${live}`, [model, uid]),
        );
      },
      async findByUserCode(userCode) {
        if (impossibleId(userCode)) return undefined;
        return payloadOf(
          await sql.query<Row>(`SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND user_code = $2 AND ${live}`, [
            model,
            userCode,
          ]),
        );
      },
      async consume(id) {
        if (impossibleId(id)) return;
        await sql.query(`UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2`, [model, id]);
      },
      async destroy(id) {
        if (impossibleId(id)) return;
        await sql.query(`DELETE FROM oidc_payloads WHERE model = $1 AND id = $2`, [model, id]);
      },
      async revokeByGrantId(grantId) {
        if (impossibleId(grantId)) return;
        // Everything issued under a grant, whatever its model (codes, tokens).
        await sql.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
      },
    };
  };
}

/** The live grant a user gave an application, if any (consent is asked once per user and application). */
export async function findGrantId(sql: Sql, accountId: string, clientId: string): Promise<string | null> {
  const rows = await sql.query<{ id: string }>(
    `SELECT id FROM oidc_payloads
     WHERE model = 'Grant' AND payload->>'clientId' = $1 AND payload->>'accountId' = $2
       AND (expires_at IS NULL OR expires_at > now())
     ORDER BY (payload->>'iat')::bigint DESC LIMIT 1`,
    [clientId, accountId],
  );
  return rows[0]?.id ?? null;
}

/** Deletes expired payloads; returns how many. */
export async function purgeExpiredPayloads(sql: Sql): Promise<number> {
  return (await sql.query(`DELETE FROM oidc_payloads WHERE expires_at <= now() RETURNING id`)).length;
}
