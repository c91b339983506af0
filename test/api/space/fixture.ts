/**
 * A running server with everything the client space touches, on a real port (Chromium and
 * openid-client need one): location data (fixture Parquet), the partner sign-in, the
 * marketplace, the server's cached key repository; two agencies with their users and keys,
 * usage counted on some days, a store where the first user holds token authorizations of a
 * supplier's product, and that supplier's partner application (a local server using
 * openid-client) registered with a login-initiation address.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import * as oidc from 'openid-client';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { createAccountRepository } from '../../../api/accounts/accounts.ts';
import { buildApp } from '../../../api/app.ts';
import { loadConfig } from '../../../api/config.ts';
import { cacheActiveKeys } from '../../../api/core/keys/key-cache.ts';
import { createKeyRepository, type KeyRepository } from '../../../api/core/keys/keys.ts';
import { memoryRateLimiter } from '../../../api/core/limits.ts';
import { createManifests } from '../../../api/core/manifests.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import type { Sql } from '../../../api/core/state/sql.ts';
import { openLocationWarehouse } from '../../../api/location/warehouse.ts';
import { createResolvedAddresses } from '../../../api/location/search/resolved.ts';
import { createCatalog } from '../../../api/marketplace/catalog.ts';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { createClientRepository } from '../../../api/signin/clients.ts';
import type { UserWithAffiliation } from '../../../schemas/accounts.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';

export const PASSWORD = 'un mot de passe assez long';
/** The fixed clock of the server: "today" for the charts, the quota period, the attempt windows. */
export const NOW = new Date('2026-11-20T10:00:30Z');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The supplier's application: /login answers a third-party initiated login (OpenID Connect
 * Core 1.0 section 4) by starting an authorization at the issuer it names, with the
 * login_hint; /callback exchanges the code and shows who is signed in.
 */
export interface PartnerApp {
  origin: string;
  clientId: string;
  /** What /login received, in order. */
  initiations: URLSearchParams[];
  close(): Promise<void>;
}

async function startPartnerApp(issuer: string, register: (redirectUri: string, initiateLoginUri: string) => Promise<{ clientId: string; secret: string }>): Promise<PartnerApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { clientId, secret } = await register(`${origin}/callback`, `${origin}/login`);
  const pending = new Map<string, { verifier: string; nonce: string }>();
  const initiations: URLSearchParams[] = [];
  let config: oidc.Configuration | null = null;
  const server: Server = createHttpServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/login') {
        initiations.push(url.searchParams);
        // The application checks the issuer is one it knows before following it.
        if (url.searchParams.get('iss') !== issuer) return res.writeHead(400).end('unknown issuer');
        config ??= await oidc.discovery(new URL(issuer), clientId, secret, undefined, { execute: [oidc.allowInsecureRequests] });
        const verifier = oidc.randomPKCECodeVerifier(), state = oidc.randomState(), nonce = oidc.randomNonce();
        pending.set(state, { verifier, nonce });
        const to = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${origin}/callback`, scope: 'openid public', state, nonce, login_hint: url.searchParams.get('login_hint') ?? '',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
        });
        return res.writeHead(303, { location: to.href }).end();
      }
      if (url.pathname === '/callback' && config) {
        const p = pending.get(url.searchParams.get('state') ?? '');
        if (!p) return res.writeHead(400).end('unknown state');
        const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: p.verifier, expectedState: url.searchParams.get('state')!, expectedNonce: p.nonce });
        const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!doctype html><html lang="en"><title>Partner</title><h1 id="who">Signed in as ${String(info.email)}</h1></html>`);
      }
      res.writeHead(404).end();
    })().catch((err: unknown) => { res.writeHead(500).end(String(err)); });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin, clientId, initiations, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface SpaceFixture {
  app: FastifyInstance;
  issuer: string;
  sql: Sql;
  keys: KeyRepository;
  users: { alice: UserWithAffiliation; bob: UserWithAffiliation; carol: UserWithAffiliation };
  /** Agency A's live key (plaintext) and fingerprint; its sandbox key; agency B's key. */
  liveKey: { key: string; fingerprint: string };
  sandboxKey: { key: string; fingerprint: string };
  otherKey: { key: string; fingerprint: string };
  partner: PartnerApp;
  /** Marketplace-level credentials of the store, for debits through the API. */
  owner: { apiKey: string; apiToken: string };
  tokenAuthorizationId: number;
  close(): Promise<void>;
}

/** `sql` must be fresh (it is migrated here). */
export async function startSpace(sql: Sql): Promise<SpaceFixture> {
  await migrate(sql);
  const clock = { now: () => NOW };
  const accounts = createAccountRepository(sql);
  const board = await accounts.createBoard({ slug: 'paris', name: 'Chambre de Paris', default_language: 'fr' });
  const agencyA = await accounts.createAgency({ board_id: board.id, name: 'Agence du Marais', country: 'FR' });
  const agencyB = await accounts.createAgency({ board_id: board.id, name: 'Agence Bastille', country: 'FR' });
  const user = (agency_id: number, email: string, first_name: string, last_name: string) =>
    accounts.createUser({ agency_id, email, first_name, last_name, languages: ['fr'], password: PASSWORD });
  const alice = await user(agencyA.id, 'alice@marais.example.fr', 'Alice', 'Martin');
  const bob = await user(agencyA.id, 'bob@marais.example.fr', 'Bob', 'Durand');
  const carol = await user(agencyB.id, 'carol@bastille.example.fr', 'Carol', 'Petit');

  const keys = cacheActiveKeys(createKeyRepository(sql), { clock, ttlMs: 10_000 });
  const live = await keys.create({ countries: ['fr'], domains: ['location', 'market'], label: 'Site web', agencyId: agencyA.id });
  const sandbox = await keys.create({ countries: ['fr', 'be'], sandbox: true, label: 'Essais', agencyId: agencyA.id });
  const other = await keys.create({ countries: ['fr'], label: 'Bastille CRM', agencyId: agencyB.id });
  // Units counted on three days of the month (as the usage meter writes them).
  for (const [day, units] of [['2026-11-02', 12], ['2026-11-18', 40], ['2026-11-20', 5]] as const) {
    await keys.addUsage(live.record.fingerprint, '2026-11-01', units, day);
  }

  const issuerPort = await freePort();
  const issuer = `http://127.0.0.1:${issuerPort}`;
  const clients = createClientRepository(sql);
  const partner = await startPartnerApp(issuer, async (redirectUri, initiateLoginUri) => {
    const c = await clients.create({ name: 'Visites Virtuelles Plus', redirect_uris: [redirectUri], client_type: 'confidential', initiate_login_uri: initiateLoginUri });
    return { clientId: c.client.client_id, secret: c.secret! };
  });

  const catalog = createCatalog(sql, clock);
  await catalog.createStore({ slug: 'maison', name: 'Maison marketplace' });
  await catalog.createPartner({ code: 'OWNER', name: 'Marketplace owner' });
  await catalog.createPartner({ code: 'VVP', name: 'Visites Virtuelles Plus' });
  await catalog.createProduct({ partner: 'VVP', sku: 'VVP-TOURS', name: 'Visites virtuelles' });
  await catalog.createPlan('VVP-TOURS', { sku: 'VVP-TOURS-T10', name: '10 visites', mode: 'tokens', tokens: 10 });
  await catalog.createProduct({ partner: 'VVP', sku: 'VVP-STATS', name: 'Statistiques' });
  await catalog.createPlan('VVP-STATS', { sku: 'VVP-STATS-M', name: 'Mensuel', mode: 'plan_month' });
  await catalog.grantAccess({ partner: 'VVP', store: 'maison', level: 'supplier', webhookUrl: null, oauthClientUid: partner.clientId });
  const owner = await catalog.grantAccess({ partner: 'OWNER', store: 'maison', level: 'marketplace', webhookUrl: null });
  await catalog.createClient(alice.email, {});
  const first = await purchase(sql, catalog, { store: 'maison', user: alice.email, plan: 'VVP-TOURS-T10' }, clock);
  await purchase(sql, catalog, { store: 'maison', user: alice.email, plan: 'VVP-TOURS-T10' }, clock);
  await purchase(sql, catalog, { store: 'maison', user: alice.email, plan: 'VVP-STATS-M' }, clock);

  const dataDir = await buildFixtureData();
  const config = loadConfig({
    DATA_DIR: dataDir, PORT: String(issuerPort), PUBLIC_URL: issuer, SIGNIN_ATTEMPTS_PER_MINUTE: '5',
    // Written through, so the page shows a request's units at once.
    QUOTA_FLUSH_INTERVAL_MS: '0',
  });
  const warehouse = await openLocationWarehouse(dataDir);
  const app = await buildApp({
    config, clock, warehouse, keys, resolved: createResolvedAddresses(sql), geocoder: null, rateLimiter: memoryRateLimiter(),
    manifests: createManifests(dataDir), signin: { sql, accounts }, marketplace: { sql },
  });
  await app.listen({ port: issuerPort, host: '127.0.0.1' });
  return {
    app, issuer, sql, keys, users: { alice, bob, carol }, partner,
    liveKey: { key: live.key, fingerprint: live.record.fingerprint },
    sandboxKey: { key: sandbox.key, fingerprint: sandbox.record.fingerprint },
    otherKey: { key: other.key, fingerprint: other.record.fingerprint },
    owner: { apiKey: owner.apiKey, apiToken: owner.apiToken },
    tokenAuthorizationId: first.authorizationId,
    async close() { await app.close(); await warehouse.close(); await partner.close(); },
  };
}

/** Signs in to the space in a browser page through the sign-in form. */
export async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/space`);
  await page.click('a.button[href^="/space/login"]');
  await page.waitForSelector('#password');
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/space\?lang=/), page.click('button[type=submit]')]);
}
