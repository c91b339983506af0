/**
 * The marketplace's OpenAPI 3.1 document (served at /stores/openapi.json), generated from the
 * same zod schemas the routes parse their input with and the contracts of schemas/marketplace.ts.
 */
import type { z } from 'zod';
import { errorResponses, operationIdOf, parametersOf, responseNameOf, SchemaComponents } from '../core/openapi.ts';
import * as marketplaceSchemas from '../../schemas/marketplace.ts';
import { MARKET_ERROR_STATUS, WebhookEnvelope, WebhookTestEnvelope, type MarketErrorCode } from '../../schemas/marketplace.ts';

export interface MarketRouteDoc {
  method: 'get' | 'post';
  /** OpenAPI path, {store} included. */
  path: string;
  summary: string;
  description: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  response: z.ZodType;
  errors: MarketErrorCode[];
  /** Header parameters, as OpenAPI parameter objects. */
  headers?: Record<string, unknown>[];
}

/** `examples`: a recorded response per operation, keyed `<method> <path>` (api/marketplace/openapi-examples.json). */
export function marketplaceOpenApi(routes: MarketRouteDoc[], examples: Record<string, unknown> = {}) {
  const components = new SchemaComponents([{ module: marketplaceSchemas as Record<string, unknown> }]);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const operationId = operationIdOf(r.method, r.path);
    const parameters = [...parametersOf('query', r.query), ...parametersOf('path', r.params), ...r.headers ?? []];
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: components.content(r.response, responseNameOf(operationId), examples[`${r.method} ${r.path}`]) },
      ...errorResponses([...r.errors, 'unauthorized', 'rate_limited', 'store_not_found', 'internal_error'], (c) => MARKET_ERROR_STATUS[c as MarketErrorCode], 'MarketErrorBody'),
    };
    (paths[r.path] ??= {})[r.method] = { operationId, summary: r.summary, description: r.description, parameters, security: [{ apiKey: [], apiToken: [] }], responses };
  }
  const document = {
    openapi: '3.1.0',
    info: { title: 'Marketplace API', version: '1', description: 'Services, token debit and webhook deliveries of a store (spec partner-signin-and-marketplace.md, 4.2); {store_url} is /stores/{store}.' },
    servers: [{ url: '/' }],
    paths,
    webhooks: {
      marketplaceEvent: {
        post: {
          summary: 'authorization.create, authorization.disable, tokens.debit, webhook.test',
          description: 'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature v1) with the access\'s whsec_ secret; during a secret rotation\'s overlap the header carries two v1 signatures (new, previous). Any 2xx acknowledges; otherwise retried 13 times over about three days (5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h x5).',
          requestBody: { content: { 'application/json': { schema: { oneOf: [components.ref(WebhookEnvelope, 'WebhookEnvelope'), components.ref(WebhookTestEnvelope, 'WebhookTestEnvelope')] } } } },
          responses: { 200: { description: 'acknowledged (any 2xx)' } },
        },
      },
    },
  };
  return {
    ...document,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'apiKey' },
        apiToken: { type: 'apiKey', in: 'header', name: 'apiToken' },
      },
      schemas: components.schemas(document),
    },
  };
}
