/**
 * The marketplace's OpenAPI 3.1 document (served at /stores/openapi.json), generated from the
 * same zod schemas the routes parse their input with and the contracts of schemas/marketplace.ts.
 */
import type { z } from 'zod';
import { errorResponses, jsonContent, jsonSchema, operationIdOf, parametersOf } from '../core/openapi.ts';
import { MARKET_ERROR_STATUS, MarketErrorBody, WebhookEnvelope, type MarketErrorCode } from '../../schemas/marketplace.ts';

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
}

const schema = jsonSchema;

export function marketplaceOpenApi(routes: MarketRouteDoc[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters = [...parametersOf('query', r.query), ...parametersOf('path', r.params)];
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: jsonContent(r.response) },
      ...errorResponses([...r.errors, 'unauthorized', 'rate_limited', 'store_not_found', 'internal_error'], (c) => MARKET_ERROR_STATUS[c as MarketErrorCode], 'MarketErrorBody'),
    };
    (paths[r.path] ??= {})[r.method] = { operationId: operationIdOf(r.method, r.path), summary: r.summary, description: r.description, parameters, security: [{ apiKey: [], apiToken: [] }], responses };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Marketplace API', version: '1', description: 'Services, token debit and webhook deliveries of a store (spec partner-signin-and-marketplace.md, 4.2); {store_url} is /stores/{store}.' },
    servers: [{ url: '/' }],
    paths,
    webhooks: {
      marketplaceEvent: {
        post: {
          summary: 'authorization.create, authorization.disable, tokens.debit',
          description: 'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature v1) with the access\'s whsec_ secret; any 2xx acknowledges.',
          requestBody: { content: { 'application/json': { schema: schema(WebhookEnvelope, 'output') } } },
          responses: { 200: { description: 'acknowledged (any 2xx)' } },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'apiKey' },
        apiToken: { type: 'apiKey', in: 'header', name: 'apiToken' },
      },
      schemas: { MarketErrorBody: schema(MarketErrorBody, 'output') },
    },
  };
}
