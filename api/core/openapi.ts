import { z } from 'zod';
import { ERROR_STATUS, ErrorBody } from '../../schemas/error.ts';
import type { AnyRoute } from './routes.ts';

/**
 * The one OpenAPI builder of the server: every module (location, marketplace, listing) documents
 * its routes from their zod schemas with these helpers.
 */
export const jsonSchema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

/** OpenAPI parameters of a query or path object schema; a field is required when it refuses undefined (path fields always). */
export function parametersOf(where: 'query' | 'path', schema: z.ZodObject | undefined): Record<string, unknown>[] {
  return Object.entries((schema?.shape ?? {}) as Record<string, z.ZodType>).map(([name, field]) => ({
    name, in: where, required: where === 'path' || !field.safeParse(undefined).success, description: field.description, schema: parameterSchema(field),
  }));
}

/**
 * A query or path parameter's schema as a client reads it: a parameter parsed from text into a
 * number (lat, radius, page) is documented as a number (integer when it only takes whole ones),
 * with the bounds its parser enforces, not as the string the URL carries.
 */
function parameterSchema(field: z.ZodType): Record<string, unknown> {
  const asText = jsonSchema(field, 'input');
  const probe = (v: string) => field.safeParse(v);
  const numeric = ['1', '100', '0', '45.5', '-1'].map(probe).find((r) => r.success && typeof r.data === 'number');
  if (!numeric) return asText;
  const integer = !probe('1.5').success && probe('100').success;
  const out: Record<string, unknown> = { type: integer ? 'integer' : 'number' };
  // Bounds, found by the parser itself: the smallest and largest values it accepts among the usual ones.
  const tried = [-180, -90, 0, 1, 100, 2000, 100, 90, 180].filter((v) => probe(String(v)).success);
  if (tried.length > 0 && !probe(String(Math.min(...tried) - 1)).success) out.minimum = Math.min(...tried);
  if (tried.length > 0 && !probe(String(Math.max(...tried) + 1)).success) out.maximum = Math.max(...tried);
  return out;
}

/** A stable operation id from the method and path: get_api_v1_fr_report, get_api_v1_fr_zones_level_code. */
export const operationIdOf = (method: string, url: string) =>
  `${method.toLowerCase()}_${url.replace(/[{}:]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;

/** JSON content of a response or request body. */
export const jsonContent = (schema: z.ZodType, io: 'input' | 'output' = 'output') => ({ 'application/json': { schema: jsonSchema(schema, io) } });

/** Error responses by status, each listing its codes and pointing at the module's error body component. */
export function errorResponses(codes: readonly string[], statusOf: (code: string) => number, component: string): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) { const st = statusOf(code); byStatus.set(st, [...new Set([...(byStatus.get(st) ?? []), code])]); }
  return Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0]).map(([status, list]) => [
    status, { description: list.join(', '), content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } } },
  ]));
}

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
    const parameters = [...parametersOf('query', r.query), ...parametersOf('path', r.params)];
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: r.responseContentType ? { [r.responseContentType]: { schema: { type: 'string' } } } : jsonContent(r.response) },
      ...errorResponses(r.errors, (c) => ERROR_STATUS[c as keyof typeof ERROR_STATUS], 'ErrorBody'),
    };
    paths[url] ??= {};
    paths[url]![r.method.toLowerCase()] = {
      operationId: operationIdOf(r.method, url), summary: r.summary, description: r.description, tags: r.tags, parameters,
      security: r.policy.auth ? [{ apiKey: [] }] : [], responses,
      ...(r.body ? { requestBody: { required: true, description: r.body.description, content: { [r.body.contentType]: { schema: { type: 'string' } } } } } : {}),
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
