/**
 * Active key records kept in memory for a short time, so that a request does not read the state
 * store to recognise its key (spec section 5, checked on every authenticated request).
 *
 * Bounded staleness: a key revoked by another process (the keys CLI on PostgreSQL) is refused by
 * this one at most `ttlMs` after; revoked or replaced through this repository (the client space
 * of this process), it is refused at once. Only
 * found keys are kept: an unknown or revoked key is looked up in the store every time, so a key
 * created by the CLI works on its first request.
 */
import type { Clock } from '../clock.ts';
import { fingerprint, isKeyShaped, type KeyRecord, type KeyRepository } from './keys.ts';

export interface KeyCacheOptions {
  clock: Clock;
  /** 0: no cache, every request reads the store. */
  ttlMs: number;
  /** Records kept at most; the oldest is dropped first. */
  maxEntries?: number;
}

export function cacheActiveKeys(repo: KeyRepository, opts: KeyCacheOptions): KeyRepository {
  if (opts.ttlMs === 0) return repo;
  const maxEntries = opts.maxEntries ?? 10_000;
  const found = new Map<string, { record: KeyRecord; expires: number }>();
  // A read under way when a revocation lands may return the key as it was: it is then not kept.
  let revocations = 0;
  return {
    ...repo,
    async findActive(key) {
      if (typeof key !== 'string' || !isKeyShaped(key)) return null;
      // Looked up by the SHA-256 of the key, as the store does: timing reveals nothing of a stored key.
      const fp = fingerprint(key);
      const now = opts.clock.now().getTime();
      const hit = found.get(fp);
      if (hit && hit.expires > now) return hit.record;
      found.delete(fp);
      const before = revocations;
      const record = await repo.findActive(key);
      if (record && before === revocations) {
        found.set(fp, { record, expires: now + opts.ttlMs });
        if (found.size > maxEntries) found.delete(found.keys().next().value!);
      }
      return record;
    },
    async revoke(fingerprintOrPrefix, options) {
      revocations++;
      const result = await repo.revoke(fingerprintOrPrefix, options);
      revocations++;
      found.delete(result.record.fingerprint);
      return result;
    },
    async replace(fp, options) {
      revocations++;
      const result = await repo.replace(fp, options);
      revocations++;
      found.delete(result.replaced.fingerprint);
      return result;
    },
  };
}
