/**
 * Quota units of the keys (spec section 8) counted in this process and written to the state
 * store behind the responses, in one statement per key and flush, instead of a read and a
 * write on every request.
 *
 * Per key and period the meter holds `stored`, the database's total when it last read or wrote
 * it, and `pending`, the units served here since. A check sees `stored + pending`. Each flush
 * adds `pending` to the database and takes the total it returns as the new `stored`, so units
 * served by other processes on the same PostgreSQL are seen at the next flush; an entry with
 * nothing pending is dropped at the flush, so its next check reads the database again.
 *
 * What this trades: within one process the count is exact; with several processes a key can
 * overshoot its quota by what the others served in the last two flush intervals (theirs waits
 * for their flush, ours for the next read). A clean stop flushes (`close`); a crash loses the
 * units not yet written (the last interval's, more while writes fail), in the client's favour.
 * `flushIntervalMs` 0 writes through: one read per check and one write per response.
 *
 * Pending units are also kept per UTC day and written with the period's in the same statement
 * (key_usage_days, the client space's chart): no extra write on the request path.
 */
import type { KeyRepository } from './keys.ts';

export interface UsageMeter {
  /** Units this key used in the period, as far as this process knows. */
  used(fingerprint: string, periodStart: string): Promise<number>;
  /** Records units served on `day` (YYYY-MM-DD, UTC); returns the period total after, as `used` counts it. */
  add(fingerprint: string, periodStart: string, units: number, day?: string): Promise<number>;
  /** Writes the pending units of every key and refreshes their totals from the database. */
  flush(): Promise<void>;
  /** Stops the timer and flushes; call before closing the state store. */
  close(): Promise<void>;
}

export interface UsageMeterOptions {
  keys: Pick<KeyRepository, 'getUsage' | 'addUsage'>;
  /** 0: write through (no counting in memory). */
  flushIntervalMs: number;
  /** A background flush that failed (its units stay pending and are retried at the next flush). */
  onError: (err: unknown, pendingUnits: number) => void;
}

interface Entry { fingerprint: string; periodStart: string; stored: number; pending: number; byDay: Map<string | undefined, number> }

export function createUsageMeter(opts: UsageMeterOptions): UsageMeter {
  const { keys } = opts;
  if (opts.flushIntervalMs === 0) {
    return {
      used: (fp, period) => keys.getUsage(fp, period),
      add: (fp, period, units, day) => keys.addUsage(fp, period, units, day),
      flush: async () => {},
      close: async () => {},
    };
  }

  const entries = new Map<string, Entry>();
  // One read per key when several requests find its entry missing at once.
  const loading = new Map<string, Promise<void>>();
  const idOf = (fp: string, period: string) => `${fp}/${period}`;

  function load(fp: string, period: string): Promise<void> {
    const id = idOf(fp, period);
    let p = loading.get(id);
    if (!p) {
      p = keys.getUsage(fp, period).then((stored) => {
        if (!entries.has(id)) entries.set(id, { fingerprint: fp, periodStart: period, stored, pending: 0, byDay: new Map() });
      }).finally(() => loading.delete(id));
      loading.set(id, p);
    }
    return p;
  }

  /**
   * The entry, read from the database when missing. Looked up again after each wait, as a flush
   * may drop it meanwhile; callers change it with no wait after this returns it synchronously.
   */
  function current(fp: string, period: string): Entry | Promise<Entry> {
    const e = entries.get(idOf(fp, period));
    return e ?? load(fp, period).then(() => current(fp, period));
  }

  async function flushOnce(): Promise<void> {
    let failed: unknown = null, unwritten = 0;
    for (const [id, e] of [...entries]) {
      if (e.pending === 0) { entries.delete(id); continue; }
      // Usually one day; two around midnight.
      for (const [day, n] of [...e.byDay]) {
        try {
          const total = await keys.addUsage(e.fingerprint, e.periodStart, n, day);
          // Units added while the write was under way stay pending; the total includes every process's writes.
          e.pending -= n;
          const left = e.byDay.get(day)! - n;
          if (left === 0) e.byDay.delete(day); else e.byDay.set(day, left);
          e.stored = total;
        } catch (err) {
          failed ??= err;
          unwritten += n;
        }
      }
    }
    if (failed) opts.onError(failed, unwritten);
  }
  // Flushes run one after the other, so two writes of the same entry never overlap.
  let tail: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => (tail = tail.then(flushOnce));

  const timer = setInterval(() => { void flush(); }, opts.flushIntervalMs);
  timer.unref();

  return {
    async used(fp, period) {
      const e = await current(fp, period);
      return e.stored + e.pending;
    },
    async add(fp, period, units, day) {
      if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`units must be a non-negative integer, got ${units}`);
      let e = current(fp, period);
      // The increment follows a synchronous look-up: a flush cannot drop the entry in between.
      while (e instanceof Promise) { await e; e = current(fp, period); }
      e.pending += units;
      e.byDay.set(day, (e.byDay.get(day) ?? 0) + units);
      return e.stored + e.pending;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
