import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKeyRepository, type KeyRepository } from '../../../../api/core/keys/keys.ts';
import { createUsageMeter } from '../../../../api/core/keys/usage-meter.ts';
import { migrate } from '../../../../api/core/state/migrations.ts';
import type { Sql } from '../../../../api/core/state/sql.ts';
import { backends, type Isolated } from '../state/backends.ts';

const PERIOD = '2026-11-01';
const noError = (err: unknown) => { throw err; };

/** The repository with its usage calls counted. */
function counted(repo: KeyRepository) {
  const calls = { reads: 0, writes: 0 };
  return {
    calls,
    keys: {
      getUsage: (fp: string, p: string) => { calls.reads++; return repo.getUsage(fp, p); },
      addUsage: (fp: string, p: string, n: number) => { calls.writes++; return repo.addUsage(fp, p, n); },
    },
  };
}

describe.each(backends)('usage meter on $name', (backend) => {
  let db: Isolated;
  let repo: KeyRepository;
  let other: Sql;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    repo = createKeyRepository(db.sql);
    // A second process on PostgreSQL: its own pool on the same schema.
    other = db.openAnother ? await db.openAnother() : db.sql;
  });
  afterAll(async () => { await db?.cleanup(); });
  const newKey = async () => (await repo.create({ countries: ['fr'] })).record.fingerprint;

  it('counts in memory and writes the units of an interval in one statement per key', async () => {
    const fp = await newKey();
    await repo.addUsage(fp, PERIOD, 5);
    const { keys, calls } = counted(repo);
    const meter = createUsageMeter({ keys, flushIntervalMs: 3_600_000, onError: noError });
    expect(await meter.used(fp, PERIOD)).toBe(5);
    for (let i = 1; i <= 4; i++) expect(await meter.add(fp, PERIOD, 2)).toBe(5 + 2 * i);
    expect(await meter.used(fp, PERIOD)).toBe(13);
    expect(calls).toEqual({ reads: 1, writes: 0 });
    expect(await repo.getUsage(fp, PERIOD)).toBe(5);
    await meter.flush();
    expect(calls).toEqual({ reads: 1, writes: 1 });
    expect(await repo.getUsage(fp, PERIOD)).toBe(13);
    await meter.close();
  });

  it('loses no unit on close', async () => {
    const fp = await newKey();
    const meter = createUsageMeter({ keys: repo, flushIntervalMs: 3_600_000, onError: noError });
    await Promise.all(Array.from({ length: 20 }, () => meter.add(fp, PERIOD, 1)));
    await meter.close();
    expect(await repo.getUsage(fp, PERIOD)).toBe(20);
  });

  it('sees the units of another process at each flush (several processes on one store)', async () => {
    const fp = await newKey();
    const a = createUsageMeter({ keys: repo, flushIntervalMs: 3_600_000, onError: noError });
    const b = createUsageMeter({ keys: createKeyRepository(other), flushIntervalMs: 3_600_000, onError: noError });
    await a.add(fp, PERIOD, 3);
    await b.add(fp, PERIOD, 4);
    // Before any flush each counts its own units only.
    expect([await a.used(fp, PERIOD), await b.used(fp, PERIOD)]).toEqual([3, 4]);
    await a.flush();
    await b.flush();
    expect(await b.used(fp, PERIOD)).toBe(7);
    await a.add(fp, PERIOD, 1);
    await a.flush();
    expect(await a.used(fp, PERIOD)).toBe(8);
    // A key idle during an interval is read again from the store at its next check.
    await b.flush();
    expect(await b.used(fp, PERIOD)).toBe(8);
    await a.close();
    await b.close();
    expect(await repo.getUsage(fp, PERIOD)).toBe(8);
  });

  it('keeps the units added while a flush is writing', async () => {
    const fp = await newKey();
    let inWrite: () => void = () => {};
    const writing = new Promise<void>((r) => { inWrite = r; });
    let resume: () => void = () => {};
    const resumed = new Promise<void>((r) => { resume = r; });
    let firstWrite = true;
    const keys = {
      getUsage: (f: string, p: string) => repo.getUsage(f, p),
      async addUsage(f: string, p: string, n: number) {
        // The first write waits until the test has added units meanwhile.
        if (firstWrite) { firstWrite = false; inWrite(); await resumed; }
        return repo.addUsage(f, p, n);
      },
    };
    const meter = createUsageMeter({ keys, flushIntervalMs: 3_600_000, onError: noError });
    await meter.add(fp, PERIOD, 2);
    const flushed = meter.flush();
    await writing;
    expect(await meter.add(fp, PERIOD, 5)).toBe(7);
    resume();
    await flushed;
    expect(await repo.getUsage(fp, PERIOD)).toBe(2);
    expect(await meter.used(fp, PERIOD)).toBe(7);
    await meter.close();
    expect(await repo.getUsage(fp, PERIOD)).toBe(7);
  });

  it('writes through with an interval of 0', async () => {
    const fp = await newKey();
    const { keys, calls } = counted(repo);
    const meter = createUsageMeter({ keys, flushIntervalMs: 0, onError: noError });
    expect(await meter.add(fp, PERIOD, 3)).toBe(3);
    expect(await meter.used(fp, PERIOD)).toBe(3);
    expect(await repo.getUsage(fp, PERIOD)).toBe(3);
    expect(calls).toEqual({ reads: 1, writes: 1 });
  });
});

describe('usage meter, failures and timer', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('keeps the units of a failed write and writes them at the next flush', async () => {
    const stored = new Map<string, number>();
    let fail = true;
    const errors: [unknown, number][] = [];
    const keys = {
      async getUsage(fp: string) { return stored.get(fp) ?? 0; },
      async addUsage(fp: string, _p: string, n: number) {
        if (fail) throw new Error('state store down');
        stored.set(fp, (stored.get(fp) ?? 0) + n);
        return stored.get(fp)!;
      },
    };
    const meter = createUsageMeter({ keys, flushIntervalMs: 3_600_000, onError: (err, units) => errors.push([err, units]) });
    await meter.add('k', PERIOD, 4);
    await meter.flush();
    expect(errors.map(([e, n]) => [(e as Error).message, n])).toEqual([['state store down', 4]]);
    expect(await meter.used('k', PERIOD)).toBe(4);
    fail = false;
    await meter.close();
    expect(stored.get('k')).toBe(4);
  });

  it('flushes on its interval', async () => {
    vi.useFakeTimers();
    const writes: number[] = [];
    const keys = { getUsage: async () => 0, addUsage: async (_f: string, _p: string, n: number) => { writes.push(n); return n; } };
    const meter = createUsageMeter({ keys, flushIntervalMs: 1000, onError: noError });
    await meter.add('k', PERIOD, 2);
    await meter.add('k', PERIOD, 1);
    await vi.advanceTimersByTimeAsync(999);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([3]);
    await meter.close();
    expect(writes).toEqual([3]);
  });

  it('refuses units that are not a non-negative integer', async () => {
    const meter = createUsageMeter({ keys: { getUsage: async () => 0, addUsage: async () => 0 }, flushIntervalMs: 1000, onError: noError });
    await expect(meter.add('k', PERIOD, -1)).rejects.toThrow(/non-negative integer/);
    await expect(meter.add('k', PERIOD, 0.5)).rejects.toThrow(/non-negative integer/);
    await meter.close();
  });
});
