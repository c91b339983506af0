/**
 * The marketplace's OpenAPI 3.1 document (served at /stores/openapi.json), generated from the
 * same zod schemas the routes parse their input with and the contracts of schemas/marketplace.ts.
 */
import { z } from 'zod';
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

const schema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

export function marketplaceOpenApi(routes: MarketRouteDoc[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [where, obj] of [['query', r.query], ['path', r.params]] as const) {
      for (const [name, field] of Object.entries((obj?.shape ?? {}) as Record<string, z.ZodType>)) {
        parameters.push({ name, in: where, required: where === 'path' || !field.safeParse(undefined).success, schema: schema(field, 'input') });
      }
    }
    const responses: Record<string, unknown> = { 200: { description: 'success', content: { 'application/json': { schema: schema(r.response, 'output') } } } };
    const byStatus = new Map<number, string[]>();
    for (const code of [...r.errors, 'unauthorized', 'rate_limited', 'store_not_found', 'internal_error'] as MarketErrorCode[]) {
      const status = MARKET_ERROR_STATUS[code];
      byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
    }
    for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[status] = { description: codes.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/MarketErrorBody' } } } };
    }
    (paths[r.path] ??= {})[r.method] = { summary: r.summary, description: r.description, parameters, security: [{ apiKey: [], apiToken: [] }], responses };
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
