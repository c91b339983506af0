/**
 * A marketplace to test against: accounts, a store with a marketplace owner and two
 * suppliers (each with its receiver URL), products and plans in every mode, clients, the
 * app with a test double of the sign-in module's access tokens, a clock the test moves,
 * and a real local HTTP receiver that verifies every webhook with the standardwebhooks
 * package.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../../api/app.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import type { Backend, Isolated } from '../core/state/backends.ts';
import { loadConfig } from '../../../api/config.ts';
import { createKeyRepository } from '../../../api/core/keys/keys.ts';
import { memoryRateLimiter } from '../../../api/core/limits.ts';
import { createManifests } from '../../../api/core/manifests.ts';
import type { Sql } from '../../../api/core/state/sql.ts';
import { type Warehouse } from '../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../api/location/warehouse.ts';
import { createCatalog, type Catalog } from '../../../api/marketplace/catalog.ts';
import { createResolvedAddresses } from '../../../api/location/search/resolved.ts';
import { WebhookEnvelope, WebhookTestEnvelope, type WebhookEnvelope as Envelope, type WebhookTestEnvelope as TestEnvelope } from '../../../schemas/marketplace.ts';

export interface Received { partner: string; webhookId: string; envelope: Envelope; signature: string }

/** A webhook receiver on 127.0.0.1: verifies signatures, acknowledges with 204, or is down. */
export async function startReceiver(secrets: Map<string, string>) {
  const received: Received[] = [];
  /** webhook.test events, apart: they are not about an authorization. */
  const tests: { partner: string; webhookId: string; envelope: TestEnvelope; signature: string }[] = [];
  const rejected: string[] = [];
  let mode: 'up' | 'http503' | 'reset' = 'up';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (mode === 'reset') return req.socket.destroy();
      if (mode === 'http503') return res.writeHead(503).end();
      const partner = (req.url ?? '').replace(/^\/hooks\//, '');
      const secret = secrets.get(partner);
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        if (!secret) throw new Error(`no secret for ${partner}`);
        const body = new Webhook(secret).verify(raw, req.headers as Record<string, string>) as { webhook?: string };
        const common = { partner, webhookId: String(req.headers['webhook-id']), signature: String(req.headers['webhook-signature']) };
        if (body.webhook === 'webhook.test') tests.push({ ...common, envelope: WebhookTestEnvelope.parse(body) });
        else received.push({ ...common, envelope: WebhookEnvelope.parse(body) });
        res.writeHead(204).end();
      } catch (e) {
        rejected.push(`${partner}: ${(e as Error).message}`);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (partner: string) => `http://127.0.0.1:${port}/hooks/${partner}`,
    received,
    tests,
    rejected,
    /** The secret the receiver verifies with, per partner (a partner deploying a rotated secret sets it). */
    secrets,
    setMode(m: typeof mode) { mode = m; },
    of: (partner: string) => received.filter((r) => r.partner === partner),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface Creds { apiKey: string; apiToken: string; secret: string; accessId: number }

export interface MarketFixture {
  sql: Sql;
  app: FastifyInstance;
  catalog: Catalog;
  clock: { now(): Date; set(d: Date): void; advance(ms: number): void };
  receiver: Receiver;
  creds: { OWNER: Creds; ACME: Creds; BETA: Creds; OTHER: Creds };
  users: { julie: number; marc: number; stranger: number };
  /** access_token -> its user and OAuth client, the sign-in module's part in tests. */
  accessTokens: Map<string, { userId: number; clientUid: string | null }>;
  headers(who: keyof MarketFixture['creds']): Record<string, string>;
  buildApp(env?: Record<string, string>, logger?: object): Promise<FastifyInstance>;
  /** The same app over another connection pool (another "server process" for the database). */
  buildAppOn(sql: Sql): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** `sql` must be migrated and empty. */
/** An isolated, migrated store on `backend` with the marketplace fixture over it (one describe block's setup). */
export async function openMarket(backend: Backend): Promise<{ db: Isolated; f: MarketFixture }> {
  const db = await backend.open();
  await migrate(db.sql);
  return { db, f: await marketFixture(db.sql) };
}

/** Undoes openMarket, whatever part of it succeeded. */
export async function closeMarket(db: Isolated | undefined, f: MarketFixture | undefined): Promise<void> {
  await f?.close();
  await db?.cleanup();
}

export async function marketFixture(sql: Sql): Promise<MarketFixture> {
  let now = new Date('2026-11-20T10:00:00Z');
  const clock = { now: () => now, set: (d: Date) => { now = d; }, advance: (ms: number) => { now = new Date(now.getTime() + ms); } };
  const catalog = createCatalog(sql, clock);
  const board = await catalog.accounts.createBoard({ slug: 'gmtl', name: 'Grand Montréal', default_language: 'fr-CA' });
  const agency = await catalog.accounts.createAgency({ board_id: board.id, name: 'Immobilier Plateau', country: 'CA' });
  const mk = (email: string, first: string, last: string, extra: object = {}) =>
    catalog.accounts.createUser({ agency_id: agency.id, email, first_name: first, last_name: last, ...extra });
  const julie = await mk('julie@example.ca', 'Julie', 'Tremblay', { uid: 'crm-1001', username: 'jtremblay', languages: ['fr', 'en'], phone: '+1 514 555 0101', image_url: 'https://img.example.ca/julie.jpg' });
  const marc = await mk('marc@example.ca', 'Marc', 'Gagnon', { uid: 'crm-1002' });
  const stranger = await mk('stranger@example.ca', 'Sam', 'Stranger');
  await catalog.createClient('julie@example.ca', {
    public_email: 'contact@julie.example.ca', phone_sms: '+1 514 555 0102', corporate_account: 1, website: 'https://julie.example.ca',
    color1: '#1A2B3C', company_name: 'Plateau Immo', bio: { fr: 'Courtière depuis 2010', en: 'Broker since 2010' },
    billing_address: { address1: '1 rue Rachel', city: 'Montréal', country: 'CA', province: 'QC', zipcode: 'H2J 2H1' },
    uids: [{ uid: 'fb-77', provider: 'facebook' }],
  });
  await catalog.createClient('crm-1002', {});

  await catalog.createStore({ slug: 'maison', name: 'Maison marketplace' });
  await catalog.createStore({ slug: 'autre', name: 'Another marketplace' });
  for (const [code, name] of [['OWNER', 'Marketplace owner'], ['ACME', 'Acme tours'], ['BETA', 'Beta photo']]) await catalog.createPartner({ code, name });
  await catalog.createProduct({ partner: 'ACME', sku: 'ACME-TOURS', name: 'Virtual tours' });
  await catalog.createProduct({ partner: 'ACME', sku: 'ACME-STATS', name: 'Statistics' });
  await catalog.createProduct({ partner: 'BETA', sku: 'BETA-PHOTO', name: 'Photo retouching' });
  await catalog.createPlan('ACME-TOURS', { sku: 'ACME-TOURS-T100', name: '100 tours', mode: 'tokens', tokens: 100, options: [{ code: 'hd', name: 'HD rendering' }] });
  await catalog.createPlan('ACME-STATS', { sku: 'ACME-STATS-M', name: 'Monthly', mode: 'plan_month' });
  await catalog.createPlan('BETA-PHOTO', { sku: 'BETA-PHOTO-Y', name: 'Yearly', mode: 'plan_year' });
  await catalog.createPlan('BETA-PHOTO', { sku: 'BETA-PHOTO-T50', name: '50 photos', mode: 'tokens', tokens: 50 });

  const secrets = new Map<string, string>();
  const receiver = await startReceiver(secrets);
  const grant = async (partner: string, store: string, level: 'marketplace' | 'supplier'): Promise<Creds> => {
    const c = await catalog.grantAccess({ partner, store, level, webhookUrl: receiver.url(partner), oauthClientUid: level === 'supplier' ? `client-${partner.toLowerCase()}` : null });
    secrets.set(partner, c.webhookSecret);
    return { apiKey: c.apiKey, apiToken: c.apiToken, secret: c.webhookSecret, accessId: c.access.id };
  };
  const creds = {
    OWNER: await grant('OWNER', 'maison', 'marketplace'),
    ACME: await grant('ACME', 'maison', 'supplier'),
    BETA: await grant('BETA', 'maison', 'supplier'),
    // Valid credentials, but for another store (no webhook URL there).
    OTHER: await (async () => { const c = await catalog.grantAccess({ partner: 'OWNER', store: 'autre', level: 'marketplace', webhookUrl: null }); return { apiKey: c.apiKey, apiToken: c.apiToken, secret: c.webhookSecret, accessId: c.access.id }; })(),
  };

  const accessTokens = new Map<string, { userId: number; clientUid: string | null }>();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'market-'));
  const warehouses: Warehouse[] = [];
  const apps: FastifyInstance[] = [];
  const build = async (env: Record<string, string> = {}, on: Sql = sql, logger?: object) => {
    const warehouse = await openLocationWarehouse(dataDir);
    warehouses.push(warehouse);
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, ...env }), clock, warehouse, keys: createKeyRepository(on), resolved: createResolvedAddresses(on),
      geocoder: null, rateLimiter: memoryRateLimiter(), manifests: createManifests(dataDir),
      logger,
      marketplace: { sql: on, resolveAccessToken: async (t) => accessTokens.get(t) ?? null },
    });
    apps.push(app);
    return app;
  };
  const app = await build();
  return {
    sql, app, catalog, clock, receiver, creds, accessTokens,
    users: { julie: julie.id, marc: marc.id, stranger: stranger.id },
    headers: (who) => ({ apiKey: creds[who].apiKey, apiToken: creds[who].apiToken }),
    buildApp: (env, logger) => build(env, sql, logger),
    buildAppOn: (on) => build({}, on),
    async close() {
      for (const a of apps) await a.close();
      await Promise.all(warehouses.map((w) => w.close()));
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
