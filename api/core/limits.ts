import type { Redis } from 'ioredis';

export interface RateLimitState { limit: number; remaining: number; resetSeconds: number; exceeded: boolean }

/** The per-minute limit headers every module answers with (spec section 8); Retry-After comes with the 429. */
export function setRateLimitHeaders(reply: { header(name: string, value: string): unknown }, rate: RateLimitState): void {
  reply.header('X-RateLimit-Limit', String(rate.limit));
  reply.header('X-RateLimit-Remaining', String(rate.remaining));
  reply.header('X-RateLimit-Reset', String(rate.resetSeconds));
}

/** Per-minute request counter of a key (spec section 8). */
export interface RateLimiter {
  hit(key: string, limit: number, now: Date): Promise<RateLimitState>;
  close(): Promise<void>;
}

function windowOf(now: Date): { window: number; resetSeconds: number } {
  const ms = now.getTime();
  const window = Math.floor(ms / 60_000);
  return { window, resetSeconds: Math.max(1, Math.ceil(((window + 1) * 60_000 - ms) / 1000)) };
}

function state(count: number, limit: number, resetSeconds: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), resetSeconds, exceeded: count > limit };
}

/** Fixed one-minute windows in this process: right for a single API process. */
export function memoryRateLimiter(): RateLimiter {
  const counts = new Map<string, { window: number; count: number }>();
  return {
    async hit(key, limit, now) {
      const { window, resetSeconds } = windowOf(now);
      const c = counts.get(key);
      const next = c && c.window === window ? { window, count: c.count + 1 } : { window, count: 1 };
      counts.set(key, next);
      if (counts.size > 100_000) for (const [k, v] of counts) if (v.window !== window) counts.delete(k);
      return state(next.count, limit, resetSeconds);
    },
    async close() { counts.clear(); },
  };
}

/** The same windows in Redis, shared by every API process behind a load balancer. */
export function redisRateLimiter(redis: Redis): RateLimiter {
  return {
    async hit(key, limit, now) {
      const { window, resetSeconds } = windowOf(now);
      const k = `ratelimit:${key}:${window}`;
      const [[, count]] = (await redis.multi().incr(k).expire(k, 120).exec()) as [[Error | null, number], unknown];
      return state(count, limit, resetSeconds);
    },
    async close() { await redis.quit(); },
  };
}

/** First day of the quota period (calendar month, UTC) as YYYY-MM-DD. */
export function quotaPeriodStart(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}
