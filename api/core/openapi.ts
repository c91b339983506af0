import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ERROR_STATUS } from '../../schemas/error.ts';
import type { AnyRoute } from './routes.ts';
import * as catalog from '../../schemas/catalog.ts';
import * as categories from '../../schemas/categories.ts';
import * as common from '../../schemas/common.ts';
import * as domain from '../../schemas/domain.ts';
import * as envelopeModule from '../../schemas/envelope.ts';
import * as error from '../../schemas/error.ts';
import * as feature from '../../schemas/feature.ts';
import * as hazard from '../../schemas/hazard.ts';
import * as location from '../../schemas/location.ts';
import * as market from '../../schemas/market.ts';
import * as measure from '../../schemas/measure.ts';
import * as place from '../../schemas/place.ts';
import * as places from '../../schemas/places.ts';
import * as residents from '../../schemas/residents.ts';
import * as risks from '../../schemas/risks.ts';
import * as variant from '../../schemas/variant.ts';
import * as zone from '../../schemas/zone.ts';
import * as listingAgency from '../../schemas/listing/agency.ts';
import * as listingCommon from '../../schemas/listing/common.ts';
import * as listingGateway from '../../schemas/listing/gateway.ts';
import * as listingProperty from '../../schemas/listing/property.ts';
import * as listingUser from '../../schemas/listing/user.ts';
import * as listingV30 from '../../schemas/listing/v3_0.ts';

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
  // The parameter carries the description; its schema repeats neither it nor the dialect.
  const { $schema: _dialect, description: _description, ...asText } = jsonSchema(field, 'input');
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

/**
 * Shared components of a document: a response schema, and every named schema of `schemas/` it
 * holds, is written once under `components.schemas` and referenced by `$ref` wherever it appears
 * (the location document went from 920 kB with everything inlined to 273 kB). Names are
 * the schemas' export names (`Zone`, `Measure`, `ErrorBody`); unnamed response schemas take
 * the operation's name (`GetApiV1FrReportResponse`).
 */
export class SchemaComponents {
  // Output (responses) and input (request bodies) differ where a schema transforms or defaults.
  private readonly registries = { output: z.registry<{ id: string }>(), input: z.registry<{ id: string }>() };
  private readonly taken = new Set<string>();

  /** `named`: the modules whose exported zod schemas are components, each with an optional name prefix. */
  constructor(named: { module: Record<string, unknown>; prefix?: string }[] = []) {
    for (const { module, prefix = '' } of named) {
      for (const [name, value] of Object.entries(module)) {
        if (!(value instanceof z.ZodType) || this.registries.output.has(value)) continue;
        const full = name.startsWith(prefix) ? name : prefix + name;
        this.add(value, full, 'output');
        this.add(value, `${full}Input`, 'input');
      }
    }
  }

  private add(schema: z.ZodType, name: string, io: 'input' | 'output'): string {
    let id = name.replace(/[^A-Za-z0-9._-]/g, '_');
    for (let i = 2; this.taken.has(id); i++) id = `${name}${i}`;
    this.taken.add(id);
    this.registries[io].add(schema, { id });
    return id;
  }

  /** A `$ref` to the schema's component, registered under `fallbackName` when it has no name yet. */
  ref(schema: z.ZodType, fallbackName: string, io: 'input' | 'output' = 'output'): { $ref: string } {
    const id = this.registries[io].get(schema)?.id ?? this.add(schema, io === 'input' ? `${fallbackName}Input` : fallbackName, io);
    return { $ref: `#/components/schemas/${id}` };
  }

  /** JSON content of a response (or with `io` input, a request body), by reference. */
  content(schema: z.ZodType, fallbackName: string, example?: unknown, io: 'input' | 'output' = 'output') {
    return { 'application/json': { schema: this.ref(schema, fallbackName, io), ...(example === undefined ? {} : { example }) } };
  }

  /** The components the document reaches (from its paths and webhooks), as JSON Schema. */
  schemas(document: unknown): Record<string, unknown> {
    const pool: Record<string, Record<string, unknown>> = {};
    for (const io of ['output', 'input'] as const) {
      const converted = z.toJSONSchema(this.registries[io], {
        target: 'draft-2020-12', io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}`,
      }).schemas as Record<string, Record<string, unknown>>;
      for (const [id, s] of Object.entries(converted)) { delete s.$schema; delete s.$id; pool[id] = s; }
    }
    // Only what is referenced, transitively: the registries hold every named schema of the modules.
    const reached = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) { node.forEach(visit); return; }
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const id = v.slice('#/components/schemas/'.length);
          if (!reached.has(id)) { reached.add(id); visit(pool[id]); }
        } else visit(v);
      }
    };
    visit(document);
    return Object.fromEntries(Object.keys(pool).filter((id) => reached.has(id)).sort().map((id) => [id, pool[id]]));
  }
}


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
}

/** The schema modules of the location API whose exports are named components. */
const LOCATION_SCHEMAS = [common, domain, zone, measure, feature, hazard, place, places, location, envelopeModule, error, catalog, categories, market, residents, risks, variant]
  .map((module) => ({ module: module as Record<string, unknown> }));

/** The listing API's schema modules (its names prefixed: the listing's `Agency` is not the location's). */
const LISTING_SCHEMAS = [listingCommon, listingAgency, listingGateway, listingProperty, listingUser, listingV30]
  .map((module) => ({ module: module as Record<string, unknown>, prefix: 'Listing' }));

/** A component name for an operation's unnamed response: get_api_v1_fr_report -> GetApiV1FrReportResponse. */
export const responseNameOf = (operationId: string) =>
  `${operationId.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Response`;

/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas, with the modules' own parts
 * (built on the same shared components). `examples`: a recorded response per operation
 * (`GET /api/v1/fr/report`), from the committed samples (api/location/openapi-examples.json).
 */
export function openApiDocument(routes: AnyRoute[], info: { version: string }, parts: ((components: SchemaComponents) => OpenApiPart)[] = [], examples: Record<string, unknown> = {}) {
  const components = new SchemaComponents([...LOCATION_SCHEMAS, ...LISTING_SCHEMAS]);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const url = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const operationId = operationIdOf(r.method, url);
    const parameters = [...parametersOf('query', r.query), ...parametersOf('path', r.params)];
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: r.responseContentType ? { [r.responseContentType]: { schema: { type: 'string' } } } : components.content(r.response, responseNameOf(operationId), examples[`${r.method} ${url}`]) },
      ...errorResponses(r.errors, (c) => ERROR_STATUS[c as keyof typeof ERROR_STATUS], 'ErrorBody'),
    };
    paths[url] ??= {};
    paths[url]![r.method.toLowerCase()] = {
      operationId, summary: r.summary, description: r.description, tags: r.tags, parameters,
      security: r.policy.auth ? [{ apiKey: [] }] : [], responses,
      ...(r.body ? { requestBody: { required: true, description: r.body.description, content: { [r.body.contentType]: { schema: { type: 'string' } } } } } : {}),
    };
  }
  const built = parts.map((part) => part(components));
  for (const part of built) Object.assign(paths, part.paths);
  const document = {
    openapi: '3.1.0',
    info: { title: 'Location data service', version: info.version, description: 'Public data about a place in France, Quebec and Belgium (spec: location-data-service.md).' },
    servers: [{ url: '/' }],
    tags: tagsOf(paths),
    paths,
  };
  return {
    ...document,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_... or svc_test_... key' },
        ...Object.assign({}, ...built.map((p) => p.securitySchemes ?? {})),
      },
      schemas: components.schemas(document),
    },
  };
}

/** The tags the operations use, in their first order: the reference page's navigation groups. */
export function tagsOf(paths: Record<string, Record<string, unknown>>): { name: string }[] {
  const names = new Set<string>();
  for (const methods of Object.values(paths)) for (const op of Object.values(methods) as { tags?: string[] }[]) for (const t of op.tags ?? []) names.add(t);
  return [...names].map((name) => ({ name }));
}

/** Recorded responses by operation (`<METHOD> <path>`), shown as the operations' examples: an examples file of a module. */
export function readExamples(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** A response as an example: request ids and clocks fixed, lists cut to three items. */
export function asExample(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => {
    if (key === 'request_id') return 'req_example';
    if (key === 'generated_at') return '2026-11-20T10:00:30.000Z';
    if (key === 'imported_at') return '2026-11-20T09:00:00.000Z';
    return Array.isArray(value) && value.length > 3 ? value.slice(0, 3) : value;
  });
}
