/**
 * A running server with the partner sign-in on a real port (browsers and
 * openid-client need one), on the given state backend, with a board, an
 * agency, a user and two registered applications (confidential, public).
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createAccountRepository, type AccountRepository } from '../../../api/accounts/accounts.ts';
import { buildApp } from '../../../api/app.ts';
import { loadConfig } from '../../../api/config.ts';
import { createKeyRepository } from '../../../api/core/keys/keys.ts';
import { memoryRateLimiter } from '../../../api/core/limits.ts';
import { createManifests } from '../../../api/core/manifests.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import type { Sql } from '../../../api/core/state/sql.ts';
import { type Warehouse } from '../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../api/location/warehouse.ts';
import { createResolvedAddresses } from '../../../api/location/search/resolved.ts';
import { createClientRepository, type ClientRepository, type RegisteredClient } from '../../../api/signin/clients.ts';
import type { UserWithAffiliation } from '../../../schemas/accounts.ts';

export const PASSWORD = 'un mot de passe assez long';

/**
 * The partner application's callback: a real HTTP server on a loopback port
 * recording each URL the browser is sent back to.
 */
export interface PartnerCallback {
  redirectUri: string;
  /** Resolves with the next callback URL reached. */
  next(): Promise<URL>;
  close(): Promise<void>;
}

export async function startPartnerCallback(): Promise<PartnerCallback> {
  const waiting: ((u: URL) => void)[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('partner callback');
    if (url.pathname === '/callback') waiting.shift()?.(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SigninFixture {
  partner: PartnerCallback;
  app: FastifyInstance;
  issuer: string;
  sql: Sql;
  accounts: AccountRepository;
  clients: ClientRepository;
  user: UserWithAffiliation;
  confidential: { client: RegisteredClient; secret: string };
  publicClient: RegisteredClient;
  close(): Promise<void>;
}

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

/** `sql` must be migrated or fresh (it is migrated here). */
export async function startSignin(sql: Sql): Promise<SigninFixture> {
  await migrate(sql);
  const accounts = createAccountRepository(sql);
  const clients = createClientRepository(sql);
  const board = await accounts.createBoard({ slug: 'gmtl', name: 'Grand Montréal', default_language: 'fr-CA' });
  const agency = await accounts.createAgency({ board_id: board.id, name: 'Immobilier Plateau', country: 'CA' });
  const user = await accounts.createUser({
    agency_id: agency.id, email: 'julie.tremblay@example.ca', first_name: 'Julie', last_name: 'Tremblay',
    languages: ['fr', 'en'], phone: '+1 514 555 0101', password: PASSWORD,
  });
  const partner = await startPartnerCallback();
  const redirect_uris = [partner.redirectUri];
  const conf = await clients.create({ name: 'Visites Virtuelles Plus', redirect_uris, client_type: 'confidential' });
  const pub = await clients.create({ name: 'Carnet Mobile', redirect_uris, client_type: 'public' });

  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'signin-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: issuer, SIGNIN_ATTEMPTS_PER_MINUTE: '3' });
  const warehouse: Warehouse = await openLocationWarehouse(dataDir);
  const app = await buildApp({
    // A fixed clock: sign-in attempts are counted in one-minute windows that must not turn during a test.
    config, clock: { now: () => new Date('2026-11-20T10:00:30Z') }, warehouse, keys: createKeyRepository(sql), resolved: createResolvedAddresses(sql),
    geocoder: null, rateLimiter: memoryRateLimiter(), manifests: createManifests(dataDir),
    signin: { sql, accounts },
    // The marketplace on the same server: supplier calls identify users with these access tokens.
    marketplace: { sql },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    partner, app, issuer, sql, accounts, clients, user,
    confidential: { client: conf.client, secret: conf.secret! },
    publicClient: pub.client,
    async close() { await app.close(); await warehouse.close(); await partner.close(); },
  };
}
