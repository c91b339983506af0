/**
 * Partner applications (OAuth clients) registered by the operator.
 *
 * A confidential client gets a random secret, shown once; only its SHA-256 is
 * stored. A plain hash (no salt, no stretching) is enough here because the
 * secret is 256 random bits, not a human password (RFC 6819 section
 * 5.1.4.1.3): nothing is gained by a slow hash, and every token request pays
 * for it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ClientInput, type ClientType } from '../../schemas/signin.ts';
import { OperatorError } from '../core/cli.ts';
import type { Sql } from '../core/state/sql.ts';

/** An operator's mistake about a sign-in client (api/core/cli.ts OperatorError). */
export class ClientError extends OperatorError {}

export interface RegisteredClient {
  client_id: string;
  name: string;
  client_type: ClientType;
  redirect_uris: string[];
  initiate_login_uri: string | null;
  secret_hash: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

export const hashClientSecret = (secret: string): string =>
  `sha256$${createHash('sha256').update(secret, 'utf8').digest('hex')}`;

/** Compares a presented secret with a stored hash in constant time. */
export function clientSecretMatches(presented: string, stored: string | null): boolean {
  if (stored === null || !stored.startsWith('sha256$')) return false;
  const expected = Buffer.from(stored.slice(7), 'hex');
  const actual = Buffer.from(hashClientSecret(presented).slice(7), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const COLS = 'client_id, name, client_type, redirect_uris, initiate_login_uri, secret_hash, created_at, revoked_at';

function invalid(error: { issues: { path: PropertyKey[]; message: string }[] }, what = 'client'): ClientError {
  const issue = error.issues[0];
  return new ClientError(`invalid ${what}: ${issue.path.join('.') || what}: ${issue.message}`, 'invalid');
}

export function createClientRepository(sql: Sql) {
  return {
    /** Registers a client; `secret` is returned once (confidential clients only). */
    async create(input: unknown): Promise<{ client: RegisteredClient; secret: string | null }> {
      const parsed = ClientInput.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const c = parsed.data;
      // Hex, so an id never starts with '-' (a command line, `signin clients revoke ID`, would read it as an option).
      const clientId = randomBytes(16).toString('hex');
      const secret = c.client_type === 'confidential' ? randomBytes(32).toString('base64url') : null;
      const [client] = await sql.query<RegisteredClient>(
        `INSERT INTO oauth_clients (client_id, name, client_type, redirect_uris, secret_hash, initiate_login_uri)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLS}`,
        [clientId, c.name, c.client_type, [...new Set(c.redirect_uris)], secret === null ? null : hashClientSecret(secret), c.initiate_login_uri],
      );
      return { client, secret };
    },

    /** An active (not revoked) client, or null. */
    async findActive(clientId: string): Promise<RegisteredClient | null> {
      // Ids we issue are 32 hex digits: text no id can be (NUL, surrogates, spaces, 10 kB) is unknown.
      if (!/^[\x21-\x7e]{1,200}$/.test(clientId)) return null;
      const rows = await sql.query<RegisteredClient>(
        `SELECT ${COLS} FROM oauth_clients WHERE client_id = $1 AND revoked_at IS NULL`,
        [clientId],
      );
      return rows[0] ?? null;
    },

    /** Sets (or, with null, removes) the login-initiation address of an active client. */
    async setInitiateLoginUri(clientId: string, uri: string | null): Promise<RegisteredClient> {
      const parsed = ClientInput.shape.initiate_login_uri.safeParse(uri);
      if (!parsed.success) throw invalid(parsed.error, 'initiate_login_uri');
      const rows = await sql.query<RegisteredClient>(
        `UPDATE oauth_clients SET initiate_login_uri = $2 WHERE client_id = $1 AND revoked_at IS NULL RETURNING ${COLS}`,
        [clientId, parsed.data],
      );
      if (!rows[0]) throw new ClientError(`client ${clientId} not found or revoked`, 'not_found');
      return rows[0];
    },

    list: () => sql.query<RegisteredClient>(`SELECT ${COLS} FROM oauth_clients ORDER BY created_at, client_id`),

    /**
     * Revokes a client and everything issued to it (grants, codes, tokens,
     * pending interactions), in one transaction.
     */
    async revoke(clientId: string): Promise<{ removed: number }> {
      return sql.transaction(async (tx) => {
        const rows = await tx.query(
          `UPDATE oauth_clients SET revoked_at = now() WHERE client_id = $1 AND revoked_at IS NULL RETURNING client_id`,
          [clientId],
        );
        if (rows.length === 0) throw new ClientError(`client ${clientId} not found or already revoked`, 'not_found');
        const removed = await tx.query(
          `DELETE FROM oidc_payloads WHERE payload->>'clientId' = $1 OR payload->'params'->>'client_id' = $1 RETURNING id`,
          [clientId],
        );
        return { removed: removed.length };
      });
    },
  };
}

export type ClientRepository = ReturnType<typeof createClientRepository>;
