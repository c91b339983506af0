import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_VERSION } from '../schemas/envelope.ts';
import type { AccountRepository } from './accounts/accounts.ts';
import { publicUrl, type Config } from './config.ts';
import type { Clock } from './core/clock.ts';
import { clientErrorHandler, type ClientErrorAnswerer } from './core/client-errors.ts';
import { installErrorHandlers, sendError } from './core/error-handler.ts';
import { ApiError } from './core/errors.ts';
import { installGuard } from './core/guard.ts';
import type { KeyRepository } from './core/keys/keys.ts';
import type { RateLimiter } from './core/limits.ts';
import type { Manifests } from './core/manifests.ts';
import { openApiDocument } from './core/openapi.ts';
import { locationExamples } from './location/openapi-examples.ts';
import type { AnyRoute } from './core/routes.ts';
import type { Warehouse } from './core/warehouse.ts';
import type { Geocoder } from './location/geocoder/index.ts';
import { locationPlugin } from './location/plugin.ts';
import { locationReady, tableFigures } from './location/ready.ts';
import { installOps } from './core/ops.ts';
import { indexBuildTimes } from './location/search/warehouse-index.ts';
import compress from '@fastify/compress';
import type { ResolvedAddresses } from './location/search/resolved.ts';
import { createZoneLookup } from './location/zones/lookup.ts';
import { installDocs } from './core/docs-page.ts';
import { listingOpenApi } from './listing/openapi.ts';
import { listingClientErrorAnswer, registerListing, sendListingFrameworkError } from './listing/plugin.ts';
import type { CredentialRepository } from './listing/credentials.ts';
import type { ListingStore } from './listing/store/index.ts';
import type { Sql } from './core/state/sql.ts';
import { invalid } from './marketplace/errors.ts';
import { isStoreUrl, marketClientErrorAnswer, marketplaceRoutes, sendMarketError, STORE_PREFIX, type AccessTokenResolver } from './marketplace/routes.ts';
import { ownsSigninUrl, sendOAuthError, sendSigninNotFound, signinClientErrorAnswer } from './signin/errors.ts';
import { maskUrlSecrets } from '../schemas/inputs.ts';
import { signinPlugin } from './signin/plugin.ts';
import { spacePlugin } from './space/plugin.ts';
import { SPACE_CLIENT_ID } from './space/session.ts';
import type Provider from 'oidc-provider';
import type { TokenCheck } from './signin/access-tokens.ts';

/** Everything the server talks to, passed in so tests build the app with fixtures. */
export interface AppDeps {
  config: Config;
  clock: Clock;
  warehouse: Warehouse;
  keys: KeyRepository;
  resolved: ResolvedAddresses;
  geocoder: Geocoder | null;
  rateLimiter: RateLimiter;
  manifests: Manifests;
  /** The listing API (api/listing/, under /{locale}/api/v3*) when given. */
  listing?: { store: ListingStore; credentials: CredentialRepository };
  /**
   * The marketplace (api/marketplace/, mounted at /stores) when given. Access tokens are those of
   * the sign-in module when it is served, unless `resolveAccessToken` is given (tests).
   */
  marketplace?: { sql: Sql; resolveAccessToken?: AccessTokenResolver };
  /** The state store and account model the partner sign-in runs on; without it the sign-in is not served. */
  signin?: { sql: Sql; accounts: AccountRepository };
  logger?: boolean | object;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Credentials that travel in query strings (access_token, code, client_secret, apiToken...) never
 * reach the logs: masked by their decoded name (schemas/inputs.ts, SECRET_PARAMETERS).
 */
export const maskQuerySecrets = maskUrlSecrets;

function withMaskedSecrets(logger: true | object): object {
  const base = logger === true ? {} : (logger as { serializers?: object });
  return {
    ...base,
    serializers: {
      ...(base as { serializers?: object }).serializers,
      // Fastify's default request fields, with the URL masked.
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method, url: maskQuerySecrets(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort,
      }),
    },
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Requests the HTTP parser refuses (head over 16 kB, unknown method) get their module's body.
  const answerers: ClientErrorAnswerer[] = [
    ...(deps.signin ? [signinClientErrorAnswer] : []),
    ...(deps.marketplace ? [marketClientErrorAnswer] : []),
    ...(deps.listing ? [listingClientErrorAnswer] : []),
  ];
  const app = Fastify({
    clientErrorHandler: clientErrorHandler(answerers, ({ status, message, requestId }) => ({
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Api-Version': API_VERSION },
      body: JSON.stringify({
        error: { code: status === 405 ? 'method_not_allowed' : status === 431 ? 'request_head_too_large' : 'invalid_parameter', message, details: { parameter: 'request', value: null } },
        meta: { request_id: requestId, api_version: API_VERSION, generated_at: deps.clock.now().toISOString() },
      }),
    })),
    logger: deps.logger ? withMaskedSecrets(deps.logger) : false,
    // A caller's own request id is kept when it is well formed, so logs can be joined.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any hook (a malformed URL) get the same body as the rest.
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', String(request.id));
      // The router's message quotes the URL: only its reason is kept, and the URL is repeated masked.
      const why = `malformed URL: ${err.message.replace(/^'.*'\s*/s, '') || 'cannot be read'}`;
      const url = maskQuerySecrets(request.url);
      if (deps.listing && sendListingFrameworkError(request, reply)) return;
      if (deps.marketplace && isStoreUrl(request.url)) return sendMarketError(request, reply, invalid('url', url, why));
      if (deps.signin && ownsSigninUrl(request.url)) return sendOAuthError(reply, 400, 'invalid_request', why);
      reply.header('X-Api-Version', API_VERSION);
      sendError(request, reply, deps.clock, new ApiError('invalid_parameter', why, { parameter: 'url', value: url }));
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
    reply.header('X-Api-Version', API_VERSION);
    // No route (a method none of the sign-in's routes lists): the sign-in's 404/405, not the location API's.
    if (request.is404 && deps.signin && ownsSigninUrl(request.url)) return sendSigninNotFound(request, reply);
  });
  installErrorHandlers(app, deps.clock);
  // gzip or br when the client accepts it (the OpenAPI document is hundreds of kB, reports tens).
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await installOps(app, { ready: () => locationReady(deps.warehouse), tables: () => tableFigures(deps.manifests), indexes: () => indexBuildTimes(deps.warehouse) });
  installGuard(app, { keys: deps.keys, rateLimiter: deps.rateLimiter, clock: deps.clock, config: deps.config });

  const routes: AnyRoute[] = [];
  await app.register(locationPlugin, { ...deps, zones: createZoneLookup(deps.warehouse), routes });

  // Supplier calls to the marketplace identify the user with a sign-in access token.
  let checkToken: ((token: string) => Promise<TokenCheck>) | null = null;
  let signinHandles: { provider: Provider; csrfKey: string } | null = null;
  if (deps.signin) {
    await app.register(signinPlugin, {
      sql: deps.signin.sql, accounts: deps.signin.accounts,
      issuer: publicUrl(deps.config), cookieSecret: deps.config.SIGNIN_COOKIE_SECRET,
      rateLimiter: deps.rateLimiter, clock: deps.clock, attemptsPerMinute: deps.config.SIGNIN_ATTEMPTS_PER_MINUTE,
      onAccessTokenCheck: (check) => { checkToken = check; },
      firstPartyClientIds: [SPACE_CLIENT_ID],
      onProvider: (handles) => { signinHandles = handles; },
    });
    // The client space (api/space/): signs in through the sign-in above, manages the keys of the guard.
    await app.register(spacePlugin, {
      sql: deps.signin.sql, accounts: deps.signin.accounts, keys: deps.keys, issuer: publicUrl(deps.config), clock: deps.clock,
      signin: () => signinHandles!,
      quota: { live: deps.config.QUOTA_UNITS_PER_MONTH, sandbox: deps.config.SANDBOX_QUOTA_UNITS_PER_MONTH },
      keyCacheSeconds: deps.config.KEY_CACHE_TTL_S,
    });
  }

  // The listing API: its own prefixes, error body and credentials (api/listing/plugin.ts).
  const listingRoutes = deps.listing
    ? await registerListing(app, { ...deps.listing, rateLimiter: deps.rateLimiter, clock: deps.clock, config: deps.config })
    : null;

  if (deps.marketplace) {
    await app.register(marketplaceRoutes, {
      prefix: STORE_PREFIX, sql: deps.marketplace.sql, clock: deps.clock, rateLimiter: deps.rateLimiter,
      ratePerMinute: deps.config.MARKETPLACE_RATE_LIMIT_PER_MINUTE,
      idempotencyTtlMs: deps.config.MARKETPLACE_IDEMPOTENCY_TTL_H * 3_600_000,
      resolveAccessToken: deps.marketplace.resolveAccessToken ?? (async (token) => {
        const checked = checkToken ? await checkToken(token) : null;
        return checked?.ok ? { userId: checked.user.id, clientUid: checked.clientId } : null;
      }),
    });
  }

  const document = openApiDocument(routes, { version: API_VERSION }, listingRoutes ? [(c) => listingOpenApi(listingRoutes, deps.config.LISTING_V3_SUNSET, c)] : [], locationExamples);
  app.get('/openapi.json', { config: { policy: { auth: false, units: 0 } } }, async () => document);
  installDocs(app, `${document.info.title} ${document.info.version}`, [
    { url: '/openapi.json', name: 'Location data service and listing API' },
    ...(deps.marketplace ? [{ url: `${STORE_PREFIX}/openapi.json`, name: 'Marketplace API' }] : []),
  ]);
  return app;
}
