/**
 * The sign-in module on the Fastify server, encapsulated: its routes answer
 * the OAuth error form (error, error_description) or its own HTML pages, never
 * the location API's error body.
 *
 * - oidc-provider's endpoints (authorize, token, revoke, jwks, discovery) are
 *   mounted through @fastify/middie in a scope holding only those paths;
 * - the interaction pages (sign-in form, consent) and the user-info route
 *   are Fastify routes in a sibling scope with its own error handler.
 */
import middie from '@fastify/middie';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AccountRepository } from '../accounts/accounts.ts';
import type { Clock } from '../core/clock.ts';
import type { RateLimiter } from '../core/limits.ts';
import type { Sql } from '../core/state/sql.ts';
import { checkAccessToken, type TokenCheck } from './access-tokens.ts';
import { createClientRepository } from './clients.ts';
import { PROVIDER_METHODS, sendOAuthError, sendSigninNotFound } from './errors.ts';
import { providerGate } from './gate.ts';
import { interactionRoutes } from './interaction.ts';
import { errorPage, PAGE_HEADERS } from './pages.ts';
import { createProvider, SIGNIN_PATHS } from './provider.ts';
import { loadSigninSecrets } from './secrets.ts';
import { userinfoRoute } from './userinfo-route.ts';

export interface SigninDeps {
  sql: Sql;
  accounts: AccountRepository;
  /** The issuer and base URL of the sign-in (PUBLIC_URL): an origin, no trailing slash. */
  issuer: string;
  /** Signs cookies instead of the key generated in the state store (SIGNIN_COOKIE_SECRET). */
  cookieSecret?: string;
  /** Counts sign-in attempts per e-mail address (the server's limiter: memory or Redis). */
  rateLimiter: RateLimiter;
  clock: Clock;
  attemptsPerMinute: number;
  /** Receives, once the provider exists, the check other modules use to resolve access tokens. */
  onAccessTokenCheck?: (check: (token: string) => Promise<TokenCheck>) => void;
  /** First-party applications (the client space): no consent page (provider.ts). */
  firstPartyClientIds?: readonly string[];
  /** Receives the provider and the CSRF key, for the client space's use of the same session. */
  onProvider?: (signin: { provider: Provider; csrfKey: string }) => void;
}

/** The OAuth error body of a failure none of the handlers expected. */
function oauthFailure(err: FastifyError, request: FastifyRequest): { status: number; error: string; description: string } {
  const status = err.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err }, 'sign-in: internal error');
    return { status: 500, error: 'server_error', description: 'internal error; the request may be retried later' };
  }
  if (status === 415) return { status: 400, error: 'invalid_request', description: 'send the form as application/x-www-form-urlencoded' };
  if (status === 413) return { status: 400, error: 'invalid_request', description: 'the form is too large' };
  return { status: 400, error: 'invalid_request', description: 'the request cannot be read' };
}

export async function signinPlugin(app: FastifyInstance, deps: SigninDeps): Promise<void> {
  const clients = createClientRepository(deps.sql);
  const secrets = await loadSigninSecrets(deps.sql, deps.cookieSecret);
  const provider = createProvider({ issuer: deps.issuer, sql: deps.sql, accounts: deps.accounts, clients, secrets, firstPartyClientIds: deps.firstPartyClientIds });
  deps.onAccessTokenCheck?.((token) => checkAccessToken(provider, deps.accounts, token));
  deps.onProvider?.({ provider, csrfKey: secrets.cookieKeys[0] });
  const secure = deps.issuer.startsWith('https:');
  // oidc-provider answers 5xx without detail; the cause goes to the log.
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'sign-in provider: internal error'));

  // oidc-provider's own endpoints: the middleware answers every request of this scope.
  await app.register(async (scope) => {
    // The provider writes its responses itself: the request id goes on the raw response first.
    scope.addHook('onRequest', (request, reply, done) => {
      reply.raw.setHeader('X-Request-Id', String(request.id));
      done();
    });
    // Before the provider: origin from configuration, query parameters checked (gate.ts).
    scope.addHook('onRequest', providerGate(deps.issuer));
    await scope.register(middie);
    scope.use(provider.callback());
    for (const [url, methods] of Object.entries(PROVIDER_METHODS)) {
      scope.route({
        // HEAD comes with GET.
        method: methods.filter((m) => m !== 'HEAD'),
        url,
        config: { policy: { auth: false, units: 0 } },
        // Never reached: the provider ends every response of these paths.
        handler: async (_req, reply) => reply.code(404).send({ error: 'invalid_request', error_description: 'unknown endpoint' }),
      });
    }
  });

  // Our own routes: interaction pages (HTML) and user-info (JSON).
  await app.register(async (scope) => {
    // Forms only: a JSON (or any other) body answers 400 invalid_request, never reaches a handler.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        // A repeated field becomes a list, which the form schemas refuse (schemas/signin.ts).
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(body as string)) {
          const prev = out[k];
          out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
        }
        done(null, out);
      },
    );
    scope.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const f = oauthFailure(err, request);
      if (request.url.startsWith(SIGNIN_PATHS.interaction)) {
        return reply.code(f.status).headers(PAGE_HEADERS).send(errorPage('fr', f.error, f.description));
      }
      return sendOAuthError(reply, f.status, f.error, f.description);
    });
    interactionRoutes(scope, {
      provider, accounts: deps.accounts, csrfKey: secrets.cookieKeys[0], secure,
      attempts: { limiter: deps.rateLimiter, clock: deps.clock, perMinute: deps.attemptsPerMinute },
    });
    userinfoRoute(scope, { provider, accounts: deps.accounts, issuer: deps.issuer });
    // Unknown paths under the sign-in's prefixes, and methods the provider's paths do not serve,
    // answer in the OAuth form too (404, or 405 with Allow).
    const policy = { config: { policy: { auth: false, units: 0 } } };
    for (const url of ['/oauth/*', '/api/oauth/*']) scope.all(url, policy, async (request, reply) => sendSigninNotFound(request, reply));
    for (const [url, methods] of Object.entries(PROVIDER_METHODS)) {
      const others = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT', 'OPTIONS'].filter((m) => !methods.includes(m));
      scope.route({ method: others, url, ...policy, handler: async (request, reply) => sendSigninNotFound(request, reply) });
    }
  });
}
