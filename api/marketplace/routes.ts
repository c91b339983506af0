/**
 * The marketplace API (spec 4.2), one encapsulated Fastify plugin mounted at /stores, so
 * {store_url} = /stores/{slug}:
 *
 *   GET  /stores/{slug}/fr/api/v1/services
 *   POST /stores/{slug}/fr/api/v1/services/debit/{authorizationId}/{quantityToDebit}
 *   GET  /stores/{slug}/fr/api/v1/webhooks/deliveries        (the caller's delivery log)
 *   POST /stores/{slug}/fr/api/v1/webhooks/test              (a webhook.test event to the caller)
 *
 * Every call carries apiKey/apiToken (spec 5). Errors under /stores, unknown routes included,
 * answer the marketplace error body of schemas/marketplace.ts (MarketErrorBody), not the
 * location API's.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput, safeText } from '../../schemas/inputs.ts';
import {
  DebitResponse,
  DeliveryLogResponse,
  PRODUCT_SKU,
  WebhookTestResponse,
  ServicesResponse,
  SLUG,
  type MarketErrorBody,
  type MarketErrorCode,
} from '../../schemas/marketplace.ts';
import type { ClientErrorAnswerer } from '../core/client-errors.ts';
import { AccountError } from '../accounts/accounts.ts';
import type { Clock } from '../core/clock.ts';
import type { RateLimiter } from '../core/limits.ts';
import { setRateLimitHeaders } from '../core/limits.ts';
import type { Sql } from '../core/state/sql.ts';
import { activeAuthorizations } from './authorizations.ts';
import { createCatalog, type Access, type Store } from './catalog.ts';
import { debit, idempotentDebit } from './debit.ts';
import { createHash } from 'node:crypto';
import { invalid, MarketError } from './errors.ts';
import { endpointAuthorization, profileOf } from './format.ts';
import { marketplaceOpenApi, type MarketRouteDoc } from './openapi.ts';
import { deliveryLog } from './webhooks/log.ts';
import { marketplaceExamples } from './openapi-examples.ts';
import { webhookId } from './webhooks/worker.ts';
import { emitTest } from './outbox.ts';

/**
 * Who an OAuth access token (from the sign-in module) belongs to: null when the token is
 * unknown or revoked; else the user id, with the client_uid of the OAuth client it was issued
 * to when known. When both the token's client and the access's `oauth_client_uid` are known
 * they must match, so a token issued to one partner's application is refused to another.
 */
export type AccessTokenResolver = (token: string) => Promise<{ userId: number; clientUid: string | null } | null>;

declare module 'fastify' {
  interface FastifyContextConfig { publicDocument?: boolean }
}

export interface MarketplaceRouteDeps {
  sql: Sql;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** Requests per minute of one access (one partner in one store). */
  ratePerMinute: number;
  resolveAccessToken: AccessTokenResolver;
  /** How long a debit's Idempotency-Key and its response are kept. */
  idempotencyTtlMs: number;
}

/**
 * The Idempotency-Key header of a debit, null when absent: 1 to 255 visible ASCII characters
 * (a UUID is the usual choice), given once.
 */
function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  if (Array.isArray(raw)) throw invalid('Idempotency-Key', null, 'Idempotency-Key is given more than once');
  if (!/^[\x21-\x7e]{1,255}$/.test(raw)) throw invalid('Idempotency-Key', raw.slice(0, 300), 'Idempotency-Key: 1 to 255 visible ASCII characters, such as a UUID');
  return raw;
}

export const STORE_PREFIX = '/stores';
export const isStoreUrl = (url: string) => url === STORE_PREFIX || url.startsWith(`${STORE_PREFIX}/`) || url.startsWith(`${STORE_PREFIX}?`);

const IDENTIFIERS = ['access_token', 'email', 'uid', 'id'] as const;
const identity = {
  access_token: safeText({ max: 500 }).optional(),
  email: z.email().max(320).optional(),
  uid: safeText({ max: 200 }).optional(),
  id: z.string().regex(/^\d{1,15}$/, 'a numeric user id').optional(),
};
const ServicesQuery = z.object({ ...identity, product_sku: PRODUCT_SKU.optional() }).strict();
const DebitInput = z.object(identity).strict();
const DebitParams = z.object({
  store: z.string(),
  authorizationId: z.string().regex(/^\d{1,15}$/, 'a numeric authorization id'),
  quantityToDebit: z.string().regex(/^[1-9]\d{0,8}$/, 'a whole number of tokens from 1 to 999999999'),
});
const LogQuery = z
  .object({
    status: z.enum(['pending', 'delivered', 'failed']).optional(),
    before: z.string().regex(/^\d{1,15}$/, 'a delivery id').optional(),
    limit: z.string().regex(/^\d{1,3}$/, 'a number from 1 to 200').refine((v) => Number(v) >= 1 && Number(v) <= 200, 'a number from 1 to 200').optional(),
  })
  .strict();

const StoreParam = z.object({ store: z.string().describe('the store slug') });
const NoInput = z.object({}).strict();

/** What the OpenAPI document says of each route; the same schemas parse the input. */
export const ROUTE_DOCS: MarketRouteDoc[] = [
  {
    method: 'get', path: '/stores/{store}/fr/api/v1/services', query: ServicesQuery, params: StoreParam, response: ServicesResponse,
    summary: 'Profile and active authorizations of a client',
    description: 'Names the client with one of access_token (supplier access: the only one allowed), email, uid or id; product_sku filters on a product. A supplier sees only its own products.',
    errors: ['invalid_parameter', 'invalid_access_token', 'client_not_found'],
  },
  {
    method: 'post', path: '/stores/{store}/fr/api/v1/services/debit/{authorizationId}/{quantityToDebit}', query: DebitInput, params: DebitParams, response: DebitResponse,
    summary: 'Debit tokens (rules 1-3 of spec 4.2)',
    description: 'Draws on the named authorization first, then on the client\'s other active authorizations of the product in order of purchase; an insufficient total debits nothing (402). The user parameter, optional, may also be sent in a JSON body. '
      + 'With an Idempotency-Key header (1 to 255 visible ASCII characters, a UUID for instance), a debit retried with the same key (after a timeout) is answered with the first response and the header Idempotent-Replayed: true, never debiting twice; the same key with another authorization, quantity or user answers 422 idempotency_key_reused. Keys are kept per partner access for 24 h by default (MARKETPLACE_IDEMPOTENCY_TTL_H); a refused debit (nothing debited) keeps none.',
    headers: [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'makes a retried debit safe: the same key is answered with the first response', schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' } }],
    errors: ['invalid_parameter', 'not_a_tokens_authorization', 'invalid_access_token', 'insufficient_tokens', 'authorization_inactive', 'client_not_found', 'authorization_not_found', 'idempotency_key_reused'],
  },
  {
    method: 'get', path: '/stores/{store}/fr/api/v1/webhooks/deliveries', query: LogQuery, params: StoreParam, response: DeliveryLogResponse,
    summary: 'The caller\'s webhook delivery log', description: 'Newest first, with every attempt; page with before=next_before.',
    errors: ['invalid_parameter'],
  },
  {
    method: 'post', path: '/stores/{store}/fr/api/v1/webhooks/test', query: NoInput, params: StoreParam, response: WebhookTestResponse,
    summary: 'Send a test event to the caller\'s webhook URL',
    description: 'Queues a webhook.test event for this access only, signed, retried and logged like the others; follow it in the delivery log with delivery_id. 402 no_webhook_url while the access has no receiving URL.',
    errors: ['invalid_parameter', 'no_webhook_url'],
  },
];

/**
 * Parses query, body or path input through the shared input checks (schemas/inputs.ts: text the
 * store can hold, bounded numbers); the first problem becomes invalid_parameter naming it.
 */
function parse<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const r = parseInput(schema, raw);
  if (r.ok) return r.data;
  const { issue } = r;
  const obj = (raw ?? {}) as Record<string, unknown>;
  const name = issue.parameter || 'request';
  if (issue.unknown) throw invalid(name, obj[name], `unknown parameter ${name}`);
  if (issue.repeated) throw invalid(name, obj[name], `${name} is given more than once`);
  throw invalid(name, obj[name], `${issue.path || name}: ${issue.message}`);
}

const notFoundAsNull = (e: unknown) => {
  if (e instanceof AccountError && e.code === 'not_found') return null;
  throw e;
};

interface Caller { store: Store; access: Access }
const callers = new WeakMap<FastifyRequest, Caller>();
const caller = (request: FastifyRequest): Caller => callers.get(request)!;

function header(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The methods of each route, by path, so another method answers 405 with Allow instead of 404. */
const ROUTE_METHODS: [RegExp, string[]][] = [
  [/^\/stores\/[^/]+\/fr\/api\/v1\/services\/?$/, ['GET', 'HEAD']],
  [/^\/stores\/[^/]+\/fr\/api\/v1\/services\/debit\/[^/]+\/[^/]+\/?$/, ['POST']],
  [/^\/stores\/[^/]+\/fr\/api\/v1\/webhooks\/deliveries\/?$/, ['GET', 'HEAD']],
  [/^\/stores\/[^/]+\/fr\/api\/v1\/webhooks\/test\/?$/, ['POST']],
  [/^\/stores\/openapi\.json$/, ['GET', 'HEAD']],
];

/** Requests refused by the HTTP parser (api/core/client-errors.ts) under /stores, in the marketplace body. */
export const marketClientErrorAnswer: ClientErrorAnswerer = ({ path, status, message, requestId }) => {
  if (!isStoreUrl(path)) return null;
  const code: MarketErrorCode = status === 431 ? 'request_head_too_large' : status === 405 ? 'method_not_allowed' : status === 408 ? 'request_timeout' : 'invalid_parameter';
  const body: MarketErrorBody = { status: 'error', error: { code, message, details: {} }, request_id: requestId };
  return { headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
};

/** Answers `e` with the marketplace error body. */
export function sendMarketError(request: FastifyRequest, reply: FastifyReply, e: MarketError): FastifyReply {
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  const body: MarketErrorBody = { status: 'error', error: { code: e.code, message: e.message, details: e.details }, request_id: String(request.id) };
  return reply.code(e.status).type('application/json; charset=utf-8').send(body);
}

export async function marketplaceRoutes(app: FastifyInstance, deps: MarketplaceRouteDeps): Promise<void> {
  const catalog = createCatalog(deps.sql, deps.clock);

  // POST calls send Content-Type application/json, often with no body at all (spec 5).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return done(invalid('body', null, 'the body must be a JSON object'), undefined);
      done(null, value);
    } catch {
      done(invalid('body', null, 'the body is not valid JSON'), undefined);
    }
  });

  app.setErrorHandler((err: FastifyError | MarketError, request, reply) => {
    if (err instanceof MarketError) return sendMarketError(request, reply, err);
    const fe = err as FastifyError;
    if (fe.statusCode === 404) return sendMarketError(request, reply, new MarketError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
    if (fe.statusCode === 413) return sendMarketError(request, reply, invalid('body', null, 'the body is too large'));
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return sendMarketError(request, reply, invalid('request', null, 'the request cannot be read'));
    request.log.error({ err }, 'marketplace internal error');
    return sendMarketError(request, reply, new MarketError('internal_error', 'internal error; the request may be retried later'));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ROUTE_METHODS.find(([re]) => re.test(path))?.[1];
    if (allowed && !allowed.includes(request.method)) {
      return sendMarketError(request, reply, new MarketError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed[0]}`, { allow: allowed }, { Allow: allowed.join(', ') }));
    }
    return sendMarketError(request, reply, new MarketError('not_found', `no route ${request.method} ${path}`));
  });

  const document = marketplaceOpenApi(ROUTE_DOCS, marketplaceExamples);
  app.get('/openapi.json', { config: { publicDocument: true } }, async () => document);

  // Store, credentials (spec 5) and rate limit (spec 8), before the body or any parameter is read.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 || request.routeOptions.config.publicDocument) return;
    const slug = (request.params as { store?: string }).store ?? '';
    // A slug that cannot exist (NUL, spaces, 300 characters) is not looked up: no such store.
    const store = SLUG.safeParse(slug).success ? await catalog.storeBySlug(slug) : null;
    if (!store) throw new MarketError('store_not_found', `no store ${slug}`, { store: slug });
    const apiKey = header(request, 'apiKey');
    const apiToken = header(request, 'apiToken');
    if (!apiKey || !apiToken) throw new MarketError('unauthorized', 'missing credentials: send the headers apiKey and apiToken');
    const access = await catalog.authenticate(store.id, apiKey, apiToken);
    if (!access) throw new MarketError('unauthorized', `invalid apiKey or apiToken for store ${store.slug}`);
    const rate = await deps.rateLimiter.hit(`market:${access.id}`, deps.ratePerMinute, deps.clock.now());
    setRateLimitHeaders(reply, rate);
    if (rate.exceeded) {
      throw new MarketError('rate_limited', `more than ${rate.limit} requests in a minute; wait ${rate.resetSeconds} s`, { limit: rate.limit }, { 'Retry-After': String(rate.resetSeconds) });
    }
    callers.set(request, { store, access });
  });

  /** The client named by one of access_token / email / uid / id (spec 4.2). */
  async function identify(q: Partial<Record<(typeof IDENTIFIERS)[number], string>>, access: Access, required: boolean): Promise<number | null> {
    const given = IDENTIFIERS.filter((k) => q[k] !== undefined);
    if (given.length === 0) {
      if (!required) return null;
      throw invalid(access.level === 'supplier' ? 'access_token' : 'email', null, access.level === 'supplier' ? 'identify the user with access_token' : 'identify the user with one of access_token, email, uid or id');
    }
    if (given.length > 1) throw invalid(given[1]!, q[given[1]!], `identify the user with one parameter only, not ${given.join(' and ')}`);
    const [kind] = given as [(typeof IDENTIFIERS)[number]];
    const value = q[kind]!;
    if (access.level === 'supplier' && kind !== 'access_token') throw invalid(kind, value, 'supplier access identifies the user with access_token only');
    let userId: number | null;
    if (kind === 'access_token') {
      const holder = await deps.resolveAccessToken(value);
      if (holder === null) throw new MarketError('invalid_access_token', 'the access_token is unknown or revoked');
      if (access.oauth_client_uid !== null && holder.clientUid !== null && holder.clientUid !== access.oauth_client_uid) {
        throw new MarketError('invalid_access_token', 'the access_token was issued to another application');
      }
      userId = holder.userId;
    } else {
      const user = kind === 'id' ? await catalog.accounts.user(Number(value)).catch(notFoundAsNull) : kind === 'email' ? await catalog.accounts.userByEmail(value) : await catalog.accounts.userByUid(value);
      userId = user?.id ?? null;
    }
    if (userId === null || !(await catalog.clientOf(userId))) throw new MarketError('client_not_found', `no client with this ${kind}`, { [kind]: kind === 'access_token' ? '(hidden)' : value });
    return userId;
  }

  app.get('/:store/fr/api/v1/services', async (request): Promise<ServicesResponse> => {
    const { access, store } = caller(request);
    const q = parse(ServicesQuery, request.query);
    const userId = (await identify(q, access, true))!;
    const user = await catalog.accounts.user(userId);
    const client = (await catalog.clientOf(userId))!;
    const list = await activeAuthorizations(deps.sql, {
      storeId: store.id, userId, partnerId: access.level === 'supplier' ? access.partner_id : null, productSku: q.product_sku ?? null,
    });
    return {
      profile: profileOf(user, client),
      authorizations: {
        plans: list.filter((a) => a.mode !== 'tokens').map(endpointAuthorization),
        tokens: list.filter((a) => a.mode === 'tokens').map(endpointAuthorization),
      },
    };
  });

  app.post('/:store/fr/api/v1/services/debit/:authorizationId/:quantityToDebit', async (request, reply) => {
    const { access } = caller(request);
    const params = parse(DebitParams, request.params);
    // The user may be named in the query or the JSON body; when it is, it must own the authorization.
    const q = parse(DebitInput, { ...(request.query as object), ...((request.body as object | undefined) ?? {}) });
    const userId = await identify(q, access, false);
    const query = { access, authorizationId: Number(params.authorizationId), quantity: Number(params.quantityToDebit), userId, now: deps.clock.now() };
    const key = idempotencyKey(request);
    if (key === null) {
      await debit(deps.sql, query);
      return { status: 'ok' };
    }
    // The request a key stands for: what is debited, and from whom (the user named, as given).
    const requestHash = createHash('sha256').update(JSON.stringify([params.authorizationId, params.quantityToDebit, Object.entries(q).sort()])).digest('hex');
    const outcome = await idempotentDebit(deps.sql, query, { key, requestHash, ttlMs: deps.idempotencyTtlMs }, () => ({ status: 'ok' }));
    if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.code(outcome.status).send(outcome.body);
  });

  app.get('/:store/fr/api/v1/webhooks/deliveries', async (request): Promise<z.infer<typeof DeliveryLogResponse>> => {
    const { access } = caller(request);
    const q = parse(LogQuery, request.query);
    const log = await deliveryLog(deps.sql, { accessId: access.id, status: q.status ?? null, before: q.before ? Number(q.before) : null, limit: q.limit ? Number(q.limit) : 50 });
    return { deliveries: log.deliveries.map(({ access_id: _, ...d }) => d), next_before: log.next_before };
  });

  app.post('/:store/fr/api/v1/webhooks/test', async (request): Promise<z.infer<typeof WebhookTestResponse>> => {
    const { access } = caller(request);
    parse(NoInput, request.query);
    parse(NoInput, request.body ?? {});
    const queued = await emitTest(deps.sql, access, deps.clock.now());
    if (!queued) throw new MarketError('no_webhook_url', 'this access has no webhook URL: ask the operator to set one', {});
    return { status: 'ok', webhook_id: webhookId(queued.eventId), delivery_id: queued.deliveryId };
  });
}
