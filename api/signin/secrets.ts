/**
 * Secrets of the sign-in provider, generated on first start and kept in the
 * state store (table signin_secrets), so every process behind a load
 * balancer signs with the same keys and nothing secret sits in the repository:
 * - `jwks`: the private JWK set signing id_tokens (RS256, the algorithm every
 *   OpenID Connect client supports); its public half is published at the JWKS
 *   endpoint;
 * - `cookie_keys`: the keys signing the provider's cookies (unless the
 *   operator sets SIGNIN_COOKIE_SECRET).
 */
import { generateKeyPairSync, randomBytes, randomUUID, type JsonWebKey } from 'node:crypto';
import type { Sql } from '../core/state/sql.ts';

export interface SigninSecrets {
  jwks: { keys: JsonWebKey[] };
  cookieKeys: string[];
}

/** Stores `make()` under `name` unless a value is already there; returns the stored value. */
async function once<T>(sql: Sql, name: string, make: () => T): Promise<T> {
  const existing = await sql.query<{ value: T }>(`SELECT value FROM signin_secrets WHERE name = $1`, [name]);
  if (existing[0]) return existing[0].value;
  // Two processes starting together: the first insert wins, both read it back.
  await sql.query(`INSERT INTO signin_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    JSON.stringify(make()),
  ]);
  const [row] = await sql.query<{ value: T }>(`SELECT value FROM signin_secrets WHERE name = $1`, [name]);
  return row.value;
}

function newSigningKey(): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

export async function loadSigninSecrets(sql: Sql, cookieSecret?: string): Promise<SigninSecrets> {
  const jwks = await once(sql, 'jwks', () => ({ keys: [newSigningKey()] }));
  const cookieKeys = cookieSecret ? [cookieSecret] : await once(sql, 'cookie_keys', () => [randomBytes(32).toString('base64url')]);
  return { jwks, cookieKeys };
}
