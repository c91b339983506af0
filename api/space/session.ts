/**
 * The client space signs in through the partner sign-in itself: it is a first-party OAuth
 * application of the provider (public, PKCE), so the user meets the same form, the same
 * per-address attempt limit and ends with the same oidc-provider session as at
 * /oauth/authorize. A user signed in here then opening a partner application is not asked for
 * the password again, and the other way round.
 *
 * - sign-in: /space/login redirects to /oauth/authorize; the provider answers the callback with
 *   a code, which the space checks (issued to it, for the session's account, state cookie
 *   matching) and destroys: it needs no token, the session is its proof;
 * - each page reads the provider's session from its signed cookie (`provider.Session.get`);
 * - sign-out destroys that session (every application's sign-in in this browser ends).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Sql } from '../core/state/sql.ts';

/** The space's client id in oauth_clients (the table's pattern: 16 to 64 of [A-Za-z0-9_-]). */
export const SPACE_CLIENT_ID = 'first-party-client-space';
export const SPACE_PATH = '/space';
export const CALLBACK_PATH = `${SPACE_PATH}/callback`;
const LOGIN_COOKIE = 'space_login';

/** Registers (or updates) the space as a public client whose only redirect URI is the callback. */
export async function registerSpaceClient(sql: Sql, issuer: string, name: string): Promise<void> {
  await sql.query(
    `INSERT INTO oauth_clients (client_id, name, client_type, redirect_uris, secret_hash)
     VALUES ($1, $2, 'public', $3, NULL)
     ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris, revoked_at = NULL`,
    [SPACE_CLIENT_ID, name, [issuer + CALLBACK_PATH]],
  );
}

export interface SpaceSession {
  accountId: string | null;
  /** Stable for the session: the CSRF tokens of the space are bound to it. */
  uid: string;
}

type RawCtx = { req: IncomingMessage; res: ServerResponse; secure: boolean };

/** The provider's session of this browser (accountId null when nobody is signed in). */
export async function readSession(provider: Provider, ctx: RawCtx): Promise<SpaceSession> {
  // Session.get accepts a bare { req, res }: it reads the signed cookie with the provider's keys.
  const session = await provider.Session.get(ctx as never);
  return { accountId: session.accountId ?? null, uid: session.uid };
}

export async function endSession(provider: Provider, ctx: RawCtx): Promise<void> {
  const session = await provider.Session.get(ctx as never);
  if ((session as { new?: boolean }).new !== true) await session.destroy();
  const name = provider.cookieName('session');
  for (const c of [name, `${name}.sig`]) {
    ctx.res.appendHeader('Set-Cookie', `${c}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`);
  }
}

/** The authorization request of a sign-in, and the cookie remembering its state and language. */
export function startSignIn(issuer: string, lang: string, secure: boolean): { location: string; cookie: string } {
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${issuer}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: SPACE_CLIENT_ID, response_type: 'code', scope: 'openid', redirect_uri: issuer + CALLBACK_PATH,
    state, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ui_locales: lang,
  }).toString();
  return { location: url.href, cookie: `${LOGIN_COOKIE}=${state}.${lang}; Path=${SPACE_PATH}; Max-Age=3600; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}` };
}

export const clearLoginCookie = (secure: boolean) => `${LOGIN_COOKIE}=; Path=${SPACE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The state and language the sign-in started with, from its cookie. */
export function pendingSignIn(cookies: Record<string, string>): { state: string; lang: 'fr' | 'en' } | null {
  const m = /^([A-Za-z0-9_-]{43})\.(fr|en)$/.exec(cookies[LOGIN_COOKIE] ?? '');
  return m ? { state: m[1], lang: m[2] as 'fr' | 'en' } : null;
}

export function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks that `code` was issued to the space for `accountId`, and destroys it (single use; no
 * token is made from it).
 */
export async function consumeCode(provider: Provider, code: string, accountId: string): Promise<boolean> {
  const found = await provider.AuthorizationCode.find(code).catch(() => undefined);
  if (!found) return false;
  await found.destroy();
  return found.clientId === SPACE_CLIENT_ID && found.accountId === accountId && !found.isExpired;
}
