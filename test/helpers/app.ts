import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { loadConfig, type Config } from '../../api/config.ts';
import type { Clock } from '../../api/core/clock.ts';
import { cacheActiveKeys } from '../../api/core/keys/key-cache.ts';
import { createKeyRepository, type KeyRepository } from '../../api/core/keys/keys.ts';
import { memoryRateLimiter } from '../../api/core/limits.ts';
import { createManifests } from '../../api/core/manifests.ts';
import { migrate } from '../../api/core/state/migrations.ts';
import { openPglite, type Sql } from '../../api/core/state/sql.ts';
import { type Warehouse } from '../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../api/location/warehouse.ts';
import type { Geocoder } from '../../api/location/geocoder/index.ts';
import { createResolvedAddresses } from '../../api/location/search/resolved.ts';
import { createCredentialRepository } from '../../api/listing/credentials.ts';
import { createListingStore, type ListingStore } from '../../api/listing/store/index.ts';

export interface TestApp {
  app: FastifyInstance;
  keys: KeyRepository;
  sql: Sql;
  warehouse: Warehouse;
  clock: Clock & { set(d: Date): void };
  /** A live key opened for every country and domain. */
  key: string;
  close(): Promise<void>;
}

/** The real app on a data folder, with an in-memory PGlite and a clock the test moves. */
export async function buildTestApp(dataDir: string, opts: { env?: Record<string, string>; geocoder?: Geocoder | null; sql?: Sql; logger?: object; listingStore?: ListingStore } = {}): Promise<TestApp> {
  const config: Config = loadConfig({ DATA_DIR: dataDir, ...opts.env });
  // Starting PGlite takes seconds: tests building several apps share one store.
  const ownSql = !opts.sql;
  const sql = opts.sql ?? await openPglite('memory');
  if (ownSql) await migrate(sql);
  const warehouse = await openLocationWarehouse(dataDir);
  let now = new Date('2026-11-20T10:00:30Z');
  const clock = { now: () => now, set: (d: Date) => { now = d; } };
  // As the server builds it: revocations through `keys` apply at once.
  const keys = cacheActiveKeys(createKeyRepository(sql), { clock, ttlMs: config.KEY_CACHE_TTL_S * 1000 });
  const app = await buildApp({
    config, clock, warehouse, keys, resolved: createResolvedAddresses(sql), geocoder: opts.geocoder ?? null,
    rateLimiter: memoryRateLimiter(), manifests: createManifests(dataDir), logger: opts.logger,
    listing: { store: opts.listingStore ?? createListingStore(sql), credentials: createCredentialRepository(sql) },
  });
  const { key } = await keys.create({ countries: ['fr', 'ca', 'be'], sandbox: false, label: 'test' });
  return {
    app, keys, sql, warehouse, clock, key,
    async close() { await app.close(); await warehouse.close(); if (ownSql) await sql.close(); },
  };
}

/** GET with the app's key, expecting 200: the parsed body. */
export async function getOk(app: TestApp, url: string): Promise<any> {
  const res = await app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${app.key}` } });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
