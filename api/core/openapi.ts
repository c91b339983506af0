import { z } from 'zod';
import { ERROR_STATUS, ErrorBody } from '../../schemas/error.ts';
import type { AnyRoute } from './routes.ts';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

/** Paths and components a module documents itself (routes outside the RouteSpec model). */
export interface OpenApiPart {
  paths: Record<string, Record<string, unknown>>;
  securitySchemes?: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

/** The OpenAPI 3.1 document, generated from the routes' zod schemas, with the modules' own parts. */
export function openApiDocument(routes: AnyRoute[], info: { version: string }, parts: OpenApiPart[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const url = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [['query', r.query], ['path', r.params]] as const) {
      if (!schema) continue;
      for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        parameters.push({
          name, in: where, required: where === 'path' || !field.safeParse(undefined).success,
          description: field.description, schema: jsonSchema(field, 'input'),
        });
      }
    }
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: { 'application/json': { schema: jsonSchema(r.response, 'output') } } },
    };
    const byStatus = new Map<number, string[]>();
    for (const code of r.errors) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[status] = { description: codes.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
    }
    paths[url] ??= {};
    paths[url]![r.method.toLowerCase()] = {
      summary: r.summary, description: r.description, tags: r.tags, parameters,
      security: r.policy.auth ? [{ apiKey: [] }] : [], responses,
    };
  }
  for (const part of parts) Object.assign(paths, part.paths);
  return {
    openapi: '3.1.0',
    info: { title: 'Location data service', version: info.version, description: 'Public data about a place in France, Quebec and Belgium (spec: location-data-service.md).' },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_... or svc_test_... key' },
        ...Object.assign({}, ...parts.map((p) => p.securitySchemes ?? {})),
      },
      schemas: { ErrorBody: jsonSchema(ErrorBody, 'output'), ...Object.assign({}, ...parts.map((p) => p.schemas ?? {})) },
    },
  };
}
