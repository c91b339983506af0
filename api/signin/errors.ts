/**
 * The sign-in's error answers outside oidc-provider's own: the OAuth 2.0 error body
 * `{ error, error_description }` (RFC 6749 section 5.2), `Cache-Control: no-store`, on every
 * path the sign-in owns, whatever refused the request (router, method, unreadable head).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientErrorAnswerer } from '../core/client-errors.ts';
import { SIGNIN_PATHS } from './provider.ts';

/** The paths oidc-provider serves, with the methods it answers on each (others: 405). */
export const PROVIDER_METHODS: Record<string, readonly string[]> = {
  [SIGNIN_PATHS.authorization]: ['GET', 'HEAD'],
  [`${SIGNIN_PATHS.authorization}/:uid`]: ['GET', 'HEAD'],
  [SIGNIN_PATHS.token]: ['POST', 'OPTIONS'],
  [SIGNIN_PATHS.revocation]: ['POST', 'OPTIONS'],
  [SIGNIN_PATHS.jwks]: ['GET', 'HEAD', 'OPTIONS'],
  [SIGNIN_PATHS.discovery]: ['GET', 'HEAD', 'OPTIONS'],
};

const pathOf = (url: string) => url.split(/[?#]/, 1)[0]!;

/** True for a URL under the sign-in's prefixes (/oauth, /api/oauth, the discovery document). */
export function ownsSigninUrl(url: string): boolean {
  const p = pathOf(url);
  return /^\/(api\/)?oauth(\/|$)/.test(p) || p === SIGNIN_PATHS.discovery || p === '/.well-known/oauth-authorization-server';
}

/** The methods allowed on a provider path, or null when the path is not one of the provider's. */
export function providerMethodsOf(url: string): readonly string[] | null {
  const p = pathOf(url).replace(/\/+$/, '') || '/';
  if (PROVIDER_METHODS[p]) return PROVIDER_METHODS[p]!;
  if (p.startsWith(`${SIGNIN_PATHS.authorization}/`) && !p.slice(SIGNIN_PATHS.authorization.length + 1).includes('/')) {
    return PROVIDER_METHODS[`${SIGNIN_PATHS.authorization}/:uid`]!;
  }
  return null;
}

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string, headers: Record<string, string> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({ 'Cache-Control': 'no-store', ...headers })
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description });
}

/** No route for this method and URL under the sign-in: 405 with Allow on a known path, else 404. */
export function sendSigninNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = pathOf(request.url);
  const allowed = providerMethodsOf(request.url);
  if (allowed && !allowed.includes(request.method)) {
    return sendOAuthError(reply, 405, 'invalid_request', `${request.method} is not allowed on ${path}; use ${allowed.filter((m) => m !== 'HEAD').join(' or ')}`, { Allow: allowed.join(', ') });
  }
  return sendOAuthError(reply, 404, 'invalid_request', `no sign-in endpoint ${request.method} ${path}`);
}

/** The raw answer to a request refused before it was parsed (unknown method, head too large). */
export const signinClientErrorAnswer: ClientErrorAnswerer = (e) => {
  if (!ownsSigninUrl(e.path)) return null;
  return {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: JSON.stringify({ error: 'invalid_request', error_description: e.message }),
  };
};
