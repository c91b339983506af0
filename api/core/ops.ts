import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the operations routes ask the modules: readiness and the figures worth a gauge. */
export interface OpsOptions {
  /** Ready to serve: tables readable, in-memory indexes built; `waiting` names what is not. */
  ready(): Promise<{ ready: boolean; waiting: string[] }>;
  /** Rows and import time of each table, from the manifests. */
  tables(): Promise<{ country: string; table: string; rows: number; imported_at: string | null }[]>;
  /** The last build of each in-memory index: its time and when it ended. */
  indexes(): { index: string; country: string; seconds: number; built_at: Date }[];
}

const PUBLIC = { config: { policy: { auth: false, units: 0 } } } as const;

/**
 * Operations routes: `/health` (the process answers), `/ready` (it can serve: 503 until the
 * tables are readable and the in-memory indexes built, for a load balancer's readiness probe) and
 * `/metrics` (Prometheus text format: requests and latency per route, table rows, index build
 * times, process figures).
 * One registry per app, so several apps in one process (tests) never share counters. Installed on
 * the root instance (not an encapsulated plugin) so its hook sees every module's routes.
 */
export async function installOps(app: FastifyInstance, opts: OpsOptions): Promise<void> {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer, by route', labelNames: ['method', 'route'], registers: [registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const rows = new Gauge({ name: 'table_rows', help: 'Rows of each published table (manifest)', labelNames: ['country', 'table'], registers: [registry] });
  const imported = new Gauge({ name: 'table_imported_timestamp_seconds', help: 'Last import of each table (manifest)', labelNames: ['country', 'table'], registers: [registry] });
  const indexSeconds = new Gauge({ name: 'index_build_seconds', help: 'Time the last build of each in-memory index took (address, zone, zone values, sales, points, areas, building indexes)', labelNames: ['index', 'country'], registers: [registry] });
  const indexBuilt = new Gauge({ name: 'index_built_timestamp_seconds', help: 'When the last build of each in-memory index ended', labelNames: ['index', 'country'], registers: [registry] });
  collectDefaultMetrics({ register: registry });

  // Routes are labelled by their pattern, never the raw URL: a bounded set of series.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/health', PUBLIC, async () => ({ status: 'ok' }));
  app.get('/ready', PUBLIC, async (_request, reply) => {
    const r = await opts.ready();
    return reply.code(r.ready ? 200 : 503).send({ status: r.ready ? 'ready' : 'starting', waiting: r.waiting });
  });
  app.get('/metrics', PUBLIC, async (_request, reply) => {
    rows.reset(); imported.reset();
    for (const t of await opts.tables()) {
      rows.set({ country: t.country, table: t.table }, t.rows);
      if (t.imported_at) imported.set({ country: t.country, table: t.table }, Date.parse(t.imported_at) / 1000);
    }
    indexSeconds.reset(); indexBuilt.reset();
    for (const i of opts.indexes()) {
      indexSeconds.set({ index: i.index, country: i.country }, i.seconds);
      indexBuilt.set({ index: i.index, country: i.country }, i.built_at.getTime() / 1000);
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
