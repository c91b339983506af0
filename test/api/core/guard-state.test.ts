/**
 * The guard's key cache and quota counting against the state store: the units counted in memory
 * reach the store on close, a second process sees them, and a key revoked elsewhere is refused
 * within KEY_CACHE_TTL_S.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyRepository, fingerprint } from '../../../api/core/keys/keys.ts';
import { quotaPeriodStart } from '../../../api/core/limits.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { backends, type Isolated } from './state/backends.ts';

const LOCATION = '/api/v1/fr/location?lat=48.86&lng=2.36';
const get = (t: TestApp, key: string, url = LOCATION) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

let dataDir: string;
beforeAll(async () => { dataDir = await buildFixtureData(); });

describe.each(backends)('guard and state on $name', (backend) => {
  let db: Isolated;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
  });
  afterAll(async () => { await db?.cleanup(); });

  it('refuses at the quota with units counted in memory, and writes them on close', async () => {
    const t = await buildTestApp(dataDir, { sql: db.sql, env: { QUOTA_UNITS_PER_MONTH: '3', QUOTA_FLUSH_INTERVAL_MS: '3600000' } });
    const fp = fingerprint(t.key);
    const period = quotaPeriodStart(t.clock.now());
    try {
      expect((await get(t, t.key)).headers['x-quota-remaining']).toBe('2');
      expect((await get(t, t.key)).headers['x-quota-remaining']).toBe('1');
      // Nothing written yet: the store still has no units for the key.
      expect(await t.keys.getUsage(fp, period)).toBe(0);
      expect((await get(t, t.key)).headers['x-quota-remaining']).toBe('0');
      const over = await get(t, t.key);
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('quota_exceeded');
      expect(over.headers['x-quota-remaining']).toBe('0');
    } finally { await t.close(); }
    expect(await createKeyRepository(db.sql).getUsage(fp, period)).toBe(3);
  });

  it('counts the units another process wrote (one key, two servers on the same state)', async () => {
    const env = { QUOTA_UNITS_PER_MONTH: '4', QUOTA_FLUSH_INTERVAL_MS: '3600000' };
    const a = await buildTestApp(dataDir, { sql: db.sql, env });
    const other = db.openAnother ? await db.openAnother() : db.sql;
    const b = await buildTestApp(dataDir, { sql: other, env });
    try {
      const key = a.key;
      for (const remaining of ['3', '2', '1']) expect((await get(a, key)).headers['x-quota-remaining']).toBe(remaining);
      await a.close();
      // b reads the store at its first check of the key: 3 units used, one left.
      const last = await get(b, key);
      expect(last.statusCode).toBe(200);
      expect(last.headers['x-quota-remaining']).toBe('0');
      expect((await get(b, key)).statusCode).toBe(429);
    } finally { await b.close(); }
    expect(await createKeyRepository(db.sql).getUsage(fingerprint(a.key), quotaPeriodStart(a.clock.now()))).toBe(4);
  });

  it('refuses a key revoked by another process within KEY_CACHE_TTL_S, and at once when revoked through the server', async () => {
    const t = await buildTestApp(dataDir, { sql: db.sql, env: { KEY_CACHE_TTL_S: '10' } });
    try {
      const { key, record } = await createKeyRepository(db.sql).create({ countries: ['fr'] });
      expect((await get(t, key)).statusCode).toBe(200);
      await createKeyRepository(db.sql).revoke(record.fingerprint);
      t.clock.set(new Date(t.clock.now().getTime() + 9_000));
      expect((await get(t, key)).statusCode).toBe(200);
      t.clock.set(new Date(t.clock.now().getTime() + 1_000));
      expect((await get(t, key)).statusCode).toBe(401);

      expect((await get(t, t.key)).statusCode).toBe(200);
      await t.keys.revoke(fingerprint(t.key));
      expect((await get(t, t.key)).statusCode).toBe(401);
    } finally { await t.close(); }
  });
});
