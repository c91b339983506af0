import { buildApp, type AppDeps } from '../api/app.ts';
import { loadConfig } from '../api/config.ts';
import { systemClock } from '../api/core/clock.ts';
import { cacheActiveKeys } from '../api/core/keys/key-cache.ts';
import { createKeyRepository } from '../api/core/keys/keys.ts';
import { memoryRateLimiter } from '../api/core/limits.ts';
import { createManifests } from '../api/core/manifests.ts';
import { migrate } from '../api/core/state/migrations.ts';
import { openPglite, type Sql } from '../api/core/state/sql.ts';
import { openLocationWarehouse } from '../api/location/warehouse.ts';
import { createResolvedAddresses } from '../api/location/search/resolved.ts';

/**
 * The API over `dataDir` as the server builds it (api/main.ts: keys found kept in memory, quota
 * units written behind), on an in-memory PGlite, with limits out of the way and one live key
 * for France. `extra` adds optional modules over the same state store.
 */
export async function benchApp(dataDir: string, extra: (sql: Sql) => Partial<AppDeps> = () => ({})) {
  const sql = await openPglite('memory');
  await migrate(sql);
  const warehouse = await openLocationWarehouse(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '100000000', QUOTA_UNITS_PER_MONTH: '100000000' });
  const keys = cacheActiveKeys(createKeyRepository(sql), { clock: systemClock, ttlMs: config.KEY_CACHE_TTL_S * 1000 });
  const { key } = await keys.create({ countries: ['fr'], sandbox: false });
  const manifests = createManifests(dataDir);
  const app = await buildApp({
    config, clock: systemClock, warehouse, keys, resolved: createResolvedAddresses(sql), geocoder: null,
    rateLimiter: memoryRateLimiter(), manifests, ...extra(sql),
  });
  return { app, key, sql, warehouse, manifests };
}
