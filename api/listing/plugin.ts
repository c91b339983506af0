/**
 * The listing API as one encapsulated Fastify plugin: every route of ./routes.ts under
 * `/{locale}/api/v3/`, `/api/v3.1/` and `/api/v3.2/`, each prefix with its own error and
 * not-found handling (body `{ "errors": "..." }`, statuses of spec section 7 per version),
 * X-Api-Version, and Deprecation/Sunset on 3.0 once an end date is configured.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseInput } from '../../schemas/inputs.ts';
import { LISTING_LOCALES, type ListingLocale } from '../../schemas/listing/common.ts';
import type { Config } from '../config.ts';
import type { ClientErrorAnswerer } from '../core/client-errors.ts';
import type { Clock } from '../core/clock.ts';
import type { RateLimiter } from '../core/limits.ts';
import { setRateLimitHeaders } from '../core/limits.ts';
import type { CredentialRepository } from './credentials.ts';
import { badRequest, internal, ListingError, notAuthorized, notFound, refused, refusedByZod } from './errors.ts';
import { listingRoutes, type ListingRoute } from './routes.ts';
import type { ListingStore } from './store/index.ts';
import { downgradeError, downgradeResponse, VERSIONS, type VersionDef } from './versions/index.ts';

export interface ListingDeps {
  store: ListingStore;
  credentials: CredentialRepository;
  rateLimiter: RateLimiter;
  clock: Clock;
  config: Config;
}

declare module 'fastify' {
  interface FastifyContextConfig { listing?: { legacyValidationStatus?: 400 } }
}

const isLocale = (s: unknown): s is ListingLocale => (LISTING_LOCALES as readonly string[]).includes(s as string);
/** The path's locale, or the first one for a not-found answer whose locale is not served. */
const localeOf = (request: FastifyRequest): ListingLocale => {
  const l = (request.params as { locale?: string } | undefined)?.locale;
  return isLocale(l) ? l : 'fr';
};

/**
 * Query parameters through the shared input checks (schemas/inputs.ts: text the store can hold,
 * integers in decimal digits within their column): the first problem answers 400 naming the
 * parameter (all versions).
 */
function parseQuery(schema: z.ZodObject, raw: unknown): any {
  const r = parseInput(schema, raw);
  if (r.ok) return r.data;
  const { issue } = r;
  if (issue.unknown) throw badRequest(`unknown parameter ${issue.parameter}`);
  if (issue.repeated) throw badRequest(`${issue.parameter} is given more than once`);
  if (issue.missing) throw badRequest(`${issue.parameter} is required`);
  throw badRequest(`${issue.parameter}: ${issue.message}`);
}

/** The status and body of `error` in the version served, sent with its headers. */
function sendError(version: VersionDef, request: FastifyRequest, reply: FastifyReply, error: ListingError): FastifyReply {
  const legacy = request.routeOptions.config?.listing?.legacyValidationStatus;
  const { status, message } = downgradeError(error, version.version, { locale: localeOf(request), route: { legacyValidationStatus: legacy } });
  for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return reply.code(status).type('application/json; charset=utf-8').send({ errors: message });
}

/** Framework refusals (unreadable body, wrong content type) are the client's: 400. */
function asListingError(err: FastifyError | ListingError, request: FastifyRequest): ListingError {
  if (err instanceof ListingError) return err;
  if (err.statusCode === 404) return notFound(`no route ${request.method} ${request.url.split('?')[0]}`);
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return badRequest('send the body as application/json');
  if (err.code?.startsWith('FST_ERR_CTP') || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
    return badRequest(err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'the request body is too large' : 'the request body is not valid JSON');
  }
  request.log.error({ err }, 'listing: internal error');
  return internal(err);
}

function sunsetHeader(date: string): string {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59Z` : date).toUTCString();
}

function serveVersion(app: FastifyInstance, version: VersionDef, routes: ListingRoute[], deps: ListingDeps): void {
  const sunset = version.version === '3.0' && deps.config.LISTING_V3_SUNSET ? sunsetHeader(deps.config.LISTING_V3_SUNSET) : null;
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('X-Api-Version', version.version);
    if (sunset) {
      reply.header('Deprecation', 'true');
      reply.header('Sunset', sunset);
    }
  });
  app.setErrorHandler((err: FastifyError | ListingError, request, reply) => sendError(version, request, reply, asListingError(err, request)));
  // Another method on a route's path answers 405 with Allow; any other unknown route 404.
  const methodsByPath = routes.map((r) => [new RegExp(`^/[^/]+/api/${version.prefix.replace('.', '\\.')}${r.path.replace(/:[a-z]+/g, '[^/]+')}/?$`), r.method] as const);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(methodsByPath.filter(([re]) => re.test(path)).flatMap(([, m]) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))];
    if (allowed.length && !allowed.includes(request.method)) {
      return sendError(version, request, reply, new ListingError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, undefined, { Allow: allowed.join(', ') }));
    }
    return sendError(version, request, reply, notFound(`no route ${request.method} ${path}`));
  });

  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      config: { listing: { legacyValidationStatus: route.legacyValidationStatus } },
      handler: async (request, reply) => {
        const params = request.params as { locale: string; id?: string };
        if (!isLocale(params.locale)) throw notFound(`locale ${params.locale} is not served; use one of ${LISTING_LOCALES.join(', ')}`);
        const locale = params.locale;

        const auth = await deps.credentials.authenticate(header(request, 'apikey'), header(request, 'apitoken'));
        if (!auth.ok) throw notAuthorized(auth.reason);
        const rate = await deps.rateLimiter.hit(`listing:${auth.credential.id}`, deps.config.LISTING_RATE_LIMIT_PER_MINUTE, deps.clock.now());
        setRateLimitHeaders(reply, rate);
        if (rate.exceeded) {
          throw new ListingError('rate_limited', `Rate limit exceeded: more than ${rate.limit} requests in a minute; retry in ${rate.resetSeconds} s`, undefined, { 'Retry-After': String(rate.resetSeconds) });
        }

        const query = parseQuery(route.query, request.query);
        const board = auth.credential.boards.find((b) => b.slug === query.mls_board);
        if (!board) throw notAuthorized(`these credentials have no rights on board ${query.mls_board}`);

        let id = 0;
        if (params.id !== undefined) {
          if (!/^[1-9]\d{0,15}$/.test(params.id)) throw notFound(`${route.tag} ${params.id} not found`);
          id = Number(params.id);
        }
        let body: unknown;
        if (route.body) {
          if (request.body === undefined || request.body === null) throw refusedByZod(route.body.safeParse(undefined).error!);
          // The same checks as the query: text the store can hold, integers within their column.
          const parsed = parseInput(route.body, request.body);
          if (!parsed.ok) {
            const fields = new Map(parsed.issues.map((i) => [i.path || 'body', i.message] as const));
            throw refused([...fields].map(([field, reason]) => ({ field, reason })));
          }
          body = parsed.data;
        }

        const result = await route.handler({ board, query, id, body });
        reply.code(route.status);
        if (route.kind === null) return reply.send();
        return downgradeResponse(route.kind, result, version.version, { locale, route: { legacyValidationStatus: route.legacyValidationStatus } });
      },
    });
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const PREFIX_OF_URL = /^\/[^/?]+\/api\/(v3(?:\.\d+)?)(?:[/?]|$)/;

/**
 * Errors the router raises before any context is chosen (a malformed URL): answered here with
 * the listing body when the URL is under a listing prefix. Returns false for other URLs.
 */
export function sendListingFrameworkError(request: FastifyRequest, reply: FastifyReply): boolean {
  const m = PREFIX_OF_URL.exec(request.url);
  const version = m && VERSIONS.find((v) => v.prefix === m[1]);
  if (!version) return false;
  reply.header('X-Api-Version', version.version);
  void reply.code(400).type('application/json; charset=utf-8').send({ errors: 'malformed URL' });
  return true;
}

/** Requests refused by the HTTP parser (api/core/client-errors.ts) under a listing prefix, in the listing body. */
export const listingClientErrorAnswer: ClientErrorAnswerer = ({ path, message }) => {
  const m = PREFIX_OF_URL.exec(path);
  const version = m && VERSIONS.find((v) => v.prefix === m[1]);
  if (!version) return null;
  return { headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Api-Version': version.version }, body: JSON.stringify({ errors: message }) };
};

/** Registers the three prefixes; each is its own encapsulation context. */
export async function registerListing(app: FastifyInstance, deps: ListingDeps): Promise<ListingRoute[]> {
  const routes = listingRoutes(deps.store);
  for (const version of VERSIONS) {
    await app.register(async (child) => serveVersion(child, version, routes, deps), { prefix: `/:locale/api/${version.prefix}` });
  }
  return routes;
}
