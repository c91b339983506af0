import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { createAccountRepository } from './accounts/accounts.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, publicUrl } from './config.ts';
import { systemClock } from './core/clock.ts';
import { cacheActiveKeys } from './core/keys/key-cache.ts';
import { createKeyRepository, type KeyRepository } from './core/keys/keys.ts';
import { COUNTRIES } from '../datasets/countries.ts';
import { memoryRateLimiter, redisRateLimiter } from './core/limits.ts';
import { createManifests } from './core/manifests.ts';
import { migrate } from './core/state/migrations.ts';
import { openState, StateLockedError } from './core/state/sql.ts';
import { openLocationWarehouse } from './location/warehouse.ts';
import { createGeocoder } from './location/geocoder/index.ts';
import { preloadCoverage } from './location/coverage/index.ts';
import { createResolvedAddresses } from './location/search/resolved.ts';
import { createCredentialRepository } from './listing/credentials.ts';
import { createListingStore } from './listing/store/index.ts';
import { createMarketplaceJobs } from './marketplace/jobs.ts';
import { purgeExpiredPayloads } from './signin/adapter.ts';
import { locationReady } from './location/ready.ts';

/**
 * A sandbox key for local use, kept in DATA_DIR so each start prints the same one. Only for
 * the embedded set-up: a production server gets its keys from `npm run keys -- create`.
 */
async function localSandboxKey(keys: KeyRepository, dataDir: string): Promise<string> {
  const file = join(dataDir, 'local-sandbox-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (await keys.findActive(key)) return key;
  }
  const { key } = await keys.create({ countries: [...COUNTRIES], sandbox: true, label: 'local sandbox key (npm start)' });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const dataDir = resolve(config.DATA_DIR);
  const sql = await openState({ databaseUrl: config.DATABASE_URL, dataDir });
  await migrate(sql);
  const warehouse = await openLocationWarehouse(dataDir);
  const keys = cacheActiveKeys(createKeyRepository(sql), { clock: systemClock, ttlMs: config.KEY_CACHE_TTL_S * 1000 });
  preloadCoverage();
  const app = await buildApp({
    config, clock: systemClock, warehouse, keys,
    resolved: createResolvedAddresses(sql),
    geocoder: config.GEOCODER_URL ? createGeocoder({ baseUrl: config.GEOCODER_URL, timeoutMs: config.GEOCODER_TIMEOUT_MS }) : null,
    rateLimiter: config.REDIS_URL ? redisRateLimiter(new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 })) : memoryRateLimiter(),
    manifests: createManifests(dataDir),
    listing: { store: createListingStore(sql), credentials: createCredentialRepository(sql) },
    marketplace: { sql },
    signin: { sql, accounts: createAccountRepository(sql) },
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.apikey', 'req.headers.apitoken'] },
  });
  // Expired sign-in artifacts (codes, interactions, sessions) are purged hourly.
  const purge = setInterval(() => {
    purgeExpiredPayloads(sql).catch((err: unknown) => app.log.error({ err }, 'sign-in purge failed'));
  }, 3600_000);
  purge.unref();
  // The in-memory indexes (addresses, zones, sales) are built in the background from the start.
  void locationReady(warehouse);
  // Tables published by an ingest while the server runs are picked up within a few seconds.
  const watch = setInterval(() => {
    warehouse.refreshIfChanged().then((changed) => {
      if (!changed) return;
      app.log.info('new tables published: warehouse refreshed');
      // The in-memory indexes of the new files are built now, in the background (DuckDB answers meanwhile).
      void locationReady(warehouse);
    }, (err) => app.log.error({ err }, 'warehouse refresh failed'));
  }, 5000);
  watch.unref();
  // Marketplace renewals and webhook deliveries run in the server (intervals in Configuration).
  const marketplaceJobs = createMarketplaceJobs({
    sql, clock: systemClock, log: app.log,
    renewIntervalMs: config.MARKETPLACE_RENEW_INTERVAL_S * 1000,
    webhookIntervalMs: config.MARKETPLACE_WEBHOOK_INTERVAL_MS,
    webhook: { timeoutMs: config.MARKETPLACE_WEBHOOK_TIMEOUT_MS, retrySchedule: config.MARKETPLACE_WEBHOOK_RETRY_SCHEDULE, allowPrivateNetworks: config.MARKETPLACE_WEBHOOK_ALLOW_PRIVATE },
  });
  marketplaceJobs.start();
  const shutdown = async () => {
    clearInterval(watch);
    await marketplaceJobs.stop();
    clearInterval(purge);
    await app.close();
    await warehouse.close();
    await sql.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const sandbox = sql.kind === 'pglite' ? await localSandboxKey(keys, dataDir) : null;
  console.log(`\nLocation data service listening on ${address}`);
  console.log(`  documentation: ${address}/docs   contract: ${address}/openapi.json`);
  console.log(`  listing API: ${address}/fr/api/v3.2/properties/search?mls_board=SLUG (credentials: npm run listing -- credentials create --boards SLUG)`);
  console.log(`  partner sign-in: ${publicUrl(config)}/.well-known/openid-configuration`);
  if (sandbox) {
    console.log(`  sandbox key (fr, ca, be): ${sandbox}`);
    console.log(`  try: curl -H "Authorization: Bearer ${sandbox}" "${address}/api/v1/fr/location?address=18+rue+de+Bretagne+75003+Paris"`);
  }
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof StateLockedError) console.error(e.message);
  else console.error(`cannot start: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
