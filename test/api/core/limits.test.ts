import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, quotaPeriodStart, redisRateLimiter, type RateLimiter } from '../../../api/core/limits.ts';

const backends: [string, () => RateLimiter][] = [['memory', memoryRateLimiter]];
if (process.env.REDIS_URL) backends.push(['redis', () => redisRateLimiter(new Redis(process.env.REDIS_URL!))]);

describe.each(backends)('per-minute rate limiter (%s)', (_name, make) => {
  it('counts requests in one-minute windows and tells the seconds to the next', async () => {
    const limiter = make();
    const key = `test-${Math.random()}`;
    try {
      const t0 = new Date('2026-11-20T10:00:45Z');
      expect(await limiter.hit(key, 2, t0)).toEqual({ limit: 2, remaining: 1, resetSeconds: 15, exceeded: false });
      expect(await limiter.hit(key, 2, t0)).toMatchObject({ remaining: 0, exceeded: false });
      expect(await limiter.hit(key, 2, t0)).toMatchObject({ remaining: 0, exceeded: true });
      // Another key has its own counter; the next minute starts again.
      expect(await limiter.hit(`${key}-other`, 2, t0)).toMatchObject({ remaining: 1 });
      expect(await limiter.hit(key, 2, new Date('2026-11-20T10:01:00Z'))).toMatchObject({ remaining: 1, resetSeconds: 60, exceeded: false });
    } finally { await limiter.close(); }
  });

  it('counts exactly under concurrent hits', async () => {
    const limiter = make();
    const key = `test-${Math.random()}`;
    try {
      const t0 = new Date('2026-11-20T10:00:00Z');
      const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit(key, 30, t0)));
      expect(results.filter((r) => r.exceeded)).toHaveLength(20);
    } finally { await limiter.close(); }
  });
});

describe('quota period', () => {
  it('is the calendar month in UTC', () => {
    expect(quotaPeriodStart(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11-01');
    expect(quotaPeriodStart(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12-01');
  });
});
