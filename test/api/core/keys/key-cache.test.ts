import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheActiveKeys } from '../../../../api/core/keys/key-cache.ts';
import { createKeyRepository, type KeyRecord, type KeyRepository } from '../../../../api/core/keys/keys.ts';
import { migrate } from '../../../../api/core/state/migrations.ts';
import { backends, type Isolated } from '../state/backends.ts';

const movableClock = () => {
  let now = new Date('2026-11-20T10:00:00Z');
  return { now: () => now, advance: (ms: number) => { now = new Date(now.getTime() + ms); } };
};

describe.each(backends)('active key cache on $name', (backend) => {
  let db: Isolated;
  let store: KeyRepository;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    store = createKeyRepository(db.sql);
  });
  afterAll(async () => { await db?.cleanup(); });

  it('keeps serving a key revoked elsewhere until the TTL, then refuses it', async () => {
    const clock = movableClock();
    const cached = cacheActiveKeys(store, { clock, ttlMs: 10_000 });
    const { key, record } = await store.create({ countries: ['fr'] });
    expect(await cached.findActive(key)).toEqual(record);
    // Another process (the keys CLI) revokes it in the store.
    await createKeyRepository(db.sql).revoke(record.fingerprint);
    clock.advance(9_999);
    expect(await cached.findActive(key)).toEqual(record);
    clock.advance(1);
    expect(await cached.findActive(key)).toBeNull();
  });

  it('refuses a key revoked through it at once', async () => {
    const cached = cacheActiveKeys(store, { clock: movableClock(), ttlMs: 10_000 });
    const { key, record } = await store.create({ countries: ['fr'] });
    expect(await cached.findActive(key)).toEqual(record);
    const { alreadyRevoked } = await cached.revoke(record.fingerprint.slice(0, 12));
    expect(alreadyRevoked).toBe(false);
    expect(await cached.findActive(key)).toBeNull();
  });

  it('does not keep misses: a key created elsewhere works on its first request', async () => {
    const cached = cacheActiveKeys(store, { clock: movableClock(), ttlMs: 10_000 });
    const created = await store.create({ countries: ['be'] });
    await store.revoke(created.record.fingerprint);
    expect(await cached.findActive(created.key)).toBeNull();
    const fresh = await store.create({ countries: ['be'] });
    expect(await cached.findActive(fresh.key)).toEqual(fresh.record);
    expect(await cached.findActive('not a key')).toBeNull();
  });

  it('reads the store every time with a TTL of 0', async () => {
    expect(cacheActiveKeys(store, { clock: movableClock(), ttlMs: 0 })).toBe(store);
  });
});

describe('active key cache, a revocation during a read', () => {
  it('does not keep what a read under way returned when a revocation lands meanwhile', async () => {
    const record = { fingerprint: 'a'.repeat(64) } as KeyRecord;
    let revoked = false;
    let release: () => void = () => {};
    const reads: string[] = [];
    const store = {
      async findActive() {
        reads.push(revoked ? 'after' : 'before');
        const answer = revoked ? null : record;
        if (reads.length === 1) await new Promise<void>((r) => { release = r; });
        return answer;
      },
      async revoke() { revoked = true; return { record, alreadyRevoked: false }; },
    } as unknown as KeyRepository;
    const cached = cacheActiveKeys(store, { clock: movableClock(), ttlMs: 10_000 });
    const key = `svc_live_${'A'.repeat(32)}`;
    const slow = cached.findActive(key);
    await cached.revoke(record.fingerprint);
    release();
    expect(await slow).toBe(record);
    // The read began before the revocation: its answer was served once, not kept.
    expect(await cached.findActive(key)).toBeNull();
    expect(reads).toEqual(['before', 'after']);
  });

  it('drops the oldest record past its bound', async () => {
    const reads: string[] = [];
    const store = {
      async findActive(key: string) { reads.push(key); return { fingerprint: key } as unknown as KeyRecord; },
    } as unknown as KeyRepository;
    const cached = cacheActiveKeys(store, { clock: movableClock(), ttlMs: 10_000, maxEntries: 2 });
    const k = (c: string) => `svc_live_${c.repeat(32)}`;
    for (const c of ['A', 'B', 'C', 'B', 'C', 'A']) await cached.findActive(k(c));
    // A was dropped when C came in; B and C stayed.
    expect(reads).toEqual([k('A'), k('B'), k('C'), k('A')]);
  });
});
