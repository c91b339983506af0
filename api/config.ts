import { z } from 'zod';
import { parseRetrySchedule } from './marketplace/webhooks/worker.ts';

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * Server configuration, parsed once from the environment at start-up and frozen; a bad value
 * stops the process with a message naming the variable (README, Configuration).
 */
export const ConfigSchema = z.object({
  PORT: int(3000, 0).pipe(z.number().max(65535)),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  GEOCODER_URL: z.string().url().optional(),
  GEOCODER_TIMEOUT_MS: int(3000, 100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_MINUTE: int(600, 1),
  SANDBOX_RATE_LIMIT_PER_MINUTE: int(60, 1),
  QUOTA_UNITS_PER_MONTH: int(100_000, 1),
  SANDBOX_QUOTA_UNITS_PER_MONTH: int(1_000, 1),
  /** Seconds a found key is kept in memory: a key revoked from another process is refused within it; 0: no cache. */
  KEY_CACHE_TTL_S: int(10, 0),
  /** Milliseconds between two writes of the quota units counted in memory; 0: one write per response. */
  QUOTA_FLUSH_INTERVAL_MS: int(1000, 0),
  MAINTENANCE_UNTIL: z.string().datetime().optional(),
  /** End of support of listing API 3.0 (/api/v3/): announced by Deprecation and Sunset headers. */
  LISTING_V3_SUNSET: z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional(),
  LISTING_RATE_LIMIT_PER_MINUTE: int(600, 1),
  /** Marketplace: requests per minute of one partner in one store. */
  MARKETPLACE_RATE_LIMIT_PER_MINUTE: int(600, 1),
  /** Marketplace: seconds between two renewal runs inside the server; 0 turns them off. */
  MARKETPLACE_RENEW_INTERVAL_S: int(300, 0),
  /** Marketplace: milliseconds between two webhook delivery rounds inside the server; 0 turns them off. */
  MARKETPLACE_WEBHOOK_INTERVAL_MS: int(2000, 0),
  MARKETPLACE_WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  /** Marketplace: waits after each failed webhook attempt ("5s,1m,...,12h"); once spent, the delivery is failed. */
  MARKETPLACE_WEBHOOK_RETRY_SCHEDULE: z.string().default('5s,1m,5m,30m,1h,2h,4h,8h,12h,12h,12h,12h,12h')
    .transform((v, ctx) => parseRetrySchedule(v) ?? (ctx.addIssue({ code: 'custom', message: 'durations with a unit (ms, s, m, h, d), comma-separated, such as 5s,1m,1h' }), z.NEVER)),
  /** Marketplace: hours a debit's Idempotency-Key and its response are kept. */
  MARKETPLACE_IDEMPOTENCY_TTL_H: int(24, 1).pipe(z.number().max(24 * 30)),
  /** Marketplace: lets webhooks reach loopback and private addresses (local development only). */
  MARKETPLACE_WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Issuer and base URL of the partner sign-in as browsers and partners reach it: an origin, no path. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:$/.test(new URL(v).protocol) && new URL(v).pathname === '/' && !new URL(v).search && !new URL(v).hash, 'an http(s) origin such as https://signin.example.com, with no path')
    .transform((v) => new URL(v).origin)
    .optional(),
  /** Signs the sign-in cookies; when absent a key is generated once and kept in the state store. */
  SIGNIN_COOKIE_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  /** Sign-in attempts per minute and per e-mail address on the sign-in form (online password guessing). */
  SIGNIN_ATTEMPTS_PER_MINUTE: int(10, 1),
});
export type Config = Readonly<z.infer<typeof ConfigSchema>>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return Object.freeze(parsed.data);
}

/** The sign-in issuer: PUBLIC_URL, else http://localhost:PORT (local use). */
export function publicUrl(config: Config): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}
