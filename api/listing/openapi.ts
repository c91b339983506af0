/**
 * The listing routes of every version in the OpenAPI document: one path per prefix, with the
 * response schema of that version and its error statuses (spec section 7).
 */
import { listingExamples, listingRequestExamples } from './openapi-examples.ts';
import { operationIdOf, parametersOf, responseNameOf, type SchemaComponents } from '../core/openapi.ts';
import { LISTING_LOCALES } from '../../schemas/listing/common.ts';
import type { ListingRoute } from './routes.ts';
import { responseSchema, VERSIONS } from './versions/index.ts';


const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ListingErrorBody' } } } });

function errorResponses(version: string, route: ListingRoute): Record<string, unknown> {
  const v32 = version === '3.2';
  const out: Record<string, unknown> = {
    400: errorRef(v32 ? 'request to correct (parameter, cursor, body not JSON)' : 'request to correct; also credentials absent, invalid or disabled, internal errors (technical message)'
      + (route.legacyValidationStatus === 400 ? ', data refused at save' : '')),
    404: errorRef('resource, route or locale not found'),
    429: errorRef('rate overrun; Retry-After gives the seconds to wait'),
  };
  if (v32) {
    out[401] = errorRef('Not Authorized: credentials absent, invalid or disabled, or no rights on the board');
    out[500] = errorRef('Internal Server Error: temporary failure, may be retried');
  }
  if (route.body && (v32 || route.legacyValidationStatus !== 400)) out[422] = errorRef('data refused; the message lists the refused fields');
  return out;
}

export function listingOpenApi(routes: ListingRoute[], sunset: string | undefined, components: SchemaComponents) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const version of VERSIONS) {
    for (const r of routes) {
      const url = `/{locale}/api/${version.prefix}${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
      const parameters: unknown[] = [
        { name: 'locale', in: 'path', required: true, schema: { type: 'string', enum: [...LISTING_LOCALES] }, description: 'locale of formatted values in 3.0' },
      ];
      if (r.path.includes(':id')) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
      parameters.push(...parametersOf('query', r.query));
      const headers = { 'X-Api-Version': { schema: { type: 'string', const: version.version } } };
      const operationId = operationIdOf(r.method, url);
      const operation = `${r.method.toLowerCase()} ${url}`;
      const ok = r.kind === null
        ? { 204: { description: 'deleted', headers } }
        : { [r.status]: { description: 'success', headers, content: components.content(responseSchema(r.kind, version.version), responseNameOf(operationId), listingExamples[operation]) } };
      const changes = VERSIONS.slice(1, VERSIONS.indexOf(version) + 1).flatMap((v) => v.changes.map((c) => `- ${v.version}: ${c.description}`));
      paths[url] ??= {};
      paths[url][r.method.toLowerCase()] = {
        operationId,
        summary: `${r.summary} (${version.version})`,
        description: changes.length ? `Differences from 3.2:\n${changes.join('\n')}` : undefined,
        tags: [`listing ${version.version}`],
        deprecated: version.version === '3.0' && sunset !== undefined ? true : undefined,
        parameters,
        requestBody: r.body ? { required: true, content: components.content(r.body, responseNameOf(operationId).replace(/Response$/, 'Body'), listingRequestExamples[operation], 'input') } : undefined,
        security: [{ listingApiKey: [], listingApiToken: [] }],
        responses: { ...ok, ...errorResponses(version.version, r) },
      };
    }
  }
  return {
    paths,
    securitySchemes: {
      listingApiKey: { type: 'apiKey', in: 'header', name: 'apiKey', description: 'listing API key (lk_...)' },
      listingApiToken: { type: 'apiKey', in: 'header', name: 'apiToken', description: 'listing API token (lt_...)' },
    },
  };
}
