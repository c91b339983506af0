import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * The API reference at `/docs`: Swagger UI (swagger-ui-dist, the Swagger project's own build),
 * served from the npm package with the server's documents: navigation by tag (one per country,
 * the listing versions, multi-country) with a filter box, every operation's parameters, response
 * schemas (shared components) and examples, and a selector between the documents. Nothing is
 * fetched from anywhere else: the bundle, its stylesheet and the initialiser are served here, and
 * the online validator badge is off.
 */
const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The package's files the page loads, read once. */
const ASSETS: Record<string, { type: string; file: string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  'swagger-ui-standalone-preset.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-standalone-preset.js' },
  'favicon-32x32.png': { type: 'image/png', file: 'favicon-32x32.png' },
};

export interface DocsDocument { url: string; name: string }

const page = (title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body{margin:0}</style></head>
<body><main id="swagger-ui"></main>
<noscript><p>The reference needs JavaScript; the contract itself is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p></noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body></html>`;

const init = (documents: DocsDocument[]) => `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(documents)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  filter: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  showExtensions: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});`;

const PUBLIC = { config: { policy: { auth: false, units: 0 } } } as const;

/** `/docs`, its initialiser and the package's assets, for the documents given (the first shown first). */
export function installDocs(app: FastifyInstance, title: string, documents: DocsDocument[]): void {
  const html = page(title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
  const script = init(documents);
  const files = Object.fromEntries(Object.entries(ASSETS).map(([name, a]) => [name, { type: a.type, body: readFileSync(join(DIST, a.file)) }]));
  app.get('/docs', PUBLIC, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get('/docs/init.js', PUBLIC, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  app.get<{ Params: { name: string } }>('/docs/assets/:name', PUBLIC, async (request, reply) => {
    const file = files[request.params.name];
    if (!file) return reply.callNotFound();
    // The package's version is in the server's lock: a day of caching is safe.
    return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(file.body);
  });
}
