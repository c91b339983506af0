import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import { ApiError } from './errors.ts';
import type { KeyRepository } from './keys/keys.ts';
import { createUsageMeter } from './keys/usage-meter.ts';
import { quotaPeriodStart, type RateLimiter, setRateLimitHeaders } from './limits.ts';
import './policy.ts';

export interface GuardDeps {
  keys: KeyRepository;
  rateLimiter: RateLimiter;
  clock: Clock;
  config: Config;
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/**
 * Authentication, country rights, rate limit and quota (spec sections 5 and 8), driven by the
 * policy in each route's config. Units are counted only for successful responses, in memory and
 * written behind (api/core/keys/usage-meter.ts); the app's close writes what is left.
 */
export function installGuard(app: FastifyInstance, deps: GuardDeps): void {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('units', 0);
  const usage = createUsageMeter({
    keys: deps.keys, flushIntervalMs: deps.config.QUOTA_FLUSH_INTERVAL_MS,
    onError: (err, units) => app.log.error({ err, units }, 'quota units not written to the state store; retried at the next flush'),
  });
  app.addHook('onClose', async () => { await usage.close(); });

  app.addHook('preHandler', async (request, reply) => {
    const policy = request.routeOptions.config.policy;
    if (!policy || !policy.auth) return;
    if (deps.config.MAINTENANCE_UNTIL) {
      const secs = Math.max(1, Math.ceil((Date.parse(deps.config.MAINTENANCE_UNTIL) - deps.clock.now().getTime()) / 1000));
      throw new ApiError('maintenance', `announced maintenance until ${deps.config.MAINTENANCE_UNTIL}`, {}, { 'Retry-After': String(secs) });
    }
    const key = bearer(request);
    if (!key) throw new ApiError('unauthorized', 'missing key: send Authorization: Bearer <API_KEY>');
    const record = await deps.keys.findActive(key);
    if (!record) throw new ApiError('unauthorized', 'unknown or revoked key');
    request.apiKey = record;
    if (policy.country && !record.countries.includes(policy.country)) {
      throw new ApiError('country_not_allowed', `this key is not opened for country ${policy.country}`, { country: policy.country });
    }
    if (policy.domain && record.domains && !record.domains.includes(policy.domain)) {
      throw new ApiError('domain_not_allowed', `this key is not opened for domain ${policy.domain}`, { domain: policy.domain });
    }
    const now = deps.clock.now();
    const limit = record.sandbox ? deps.config.SANDBOX_RATE_LIMIT_PER_MINUTE : deps.config.RATE_LIMIT_PER_MINUTE;
    const rate = await deps.rateLimiter.hit(record.fingerprint, limit, now);
    setRateLimitHeaders(reply, rate);
    if (rate.exceeded) {
      throw new ApiError('rate_limited', `more than ${rate.limit} requests in a minute; wait ${rate.resetSeconds} s`, {}, { 'Retry-After': String(rate.resetSeconds) });
    }
    const quota = record.sandbox ? deps.config.SANDBOX_QUOTA_UNITS_PER_MONTH : deps.config.QUOTA_UNITS_PER_MONTH;
    const used = await usage.used(record.fingerprint, quotaPeriodStart(now));
    request.units = policy.units === 'report' ? 1 : policy.units;
    reply.header('X-Quota-Remaining', String(Math.max(0, quota - used)));
    if (policy.units !== 0 && used + Math.max(request.units, 1) > quota) {
      throw new ApiError('quota_exceeded', `the ${quota} units of this period are used up`, { quota }, { 'Retry-After': String(secondsToNextPeriod(now)) });
    }
  });

  // Reports fix their units once the domains are known; the cost is recorded on success only.
  app.addHook('onSend', async (request, reply, payload) => {
    const policy = request.routeOptions.config?.policy;
    if (!policy?.auth || !request.apiKey || reply.statusCode >= 400 || request.units === 0) return payload;
    const now = deps.clock.now();
    const quota = request.apiKey.sandbox ? deps.config.SANDBOX_QUOTA_UNITS_PER_MONTH : deps.config.QUOTA_UNITS_PER_MONTH;
    const total = await usage.add(request.apiKey.fingerprint, quotaPeriodStart(now), request.units, now.toISOString().slice(0, 10));
    reply.header('X-Quota-Remaining', String(Math.max(0, quota - total)));
    return payload;
  });
}

function secondsToNextPeriod(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - now.getTime()) / 1000);
}
