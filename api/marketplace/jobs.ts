/**
 * The marketplace's background work inside the server: webhook delivery rounds and renewal
 * runs, each on its own interval (0 turns one off). Several server processes may run them
 * at once: deliveries are claimed with row locks and leases, renewals under purchase locks.
 */
import type { Clock } from '../core/clock.ts';
import type { Sql } from '../core/state/sql.ts';
import { purgeIdempotencyKeys } from './debit.ts';
import { renewDue, type Renewal } from './purchases.ts';
import { createDeliveryWorker, type RunResult } from './webhooks/worker.ts';

export interface JobsOptions {
  sql: Sql;
  clock: Clock;
  renewIntervalMs: number;
  webhookIntervalMs: number;
  webhook: { timeoutMs: number; retrySchedule: readonly number[]; allowPrivateNetworks: boolean };
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createMarketplaceJobs(o: JobsOptions) {
  const worker = createDeliveryWorker({ sql: o.sql, clock: o.clock, log: o.log, ...o.webhook });
  let renewing: Promise<Renewal[]> | null = null;
  const timers: NodeJS.Timeout[] = [];

  /** One renewal run (skipped while the previous one is still going). */
  function renew(): Promise<Renewal[]> {
    renewing ??= renewDue(o.sql, o.clock.now())
      .then(async (done) => {
        // Debit Idempotency-Keys past their keeping time go with the same run.
        await purgeIdempotencyKeys(o.sql, o.clock.now());
        if (done.length > 0) o.log.info({ renewals: done }, `${done.length} subscription period(s) renewed`);
        return done;
      })
      .finally(() => { renewing = null; });
    return renewing;
  }

  return {
    renew,
    deliver: (): Promise<RunResult> => worker.runOnce(),
    /** Renews what is due now, then keeps both jobs on their intervals. */
    start(): void {
      if (o.renewIntervalMs > 0) {
        const run = () => { renew().catch((err: unknown) => o.log.error({ err }, 'renewal run failed')); };
        run();
        const t = setInterval(run, o.renewIntervalMs);
        t.unref();
        timers.push(t);
      }
      if (o.webhookIntervalMs > 0) worker.start(o.webhookIntervalMs);
    },
    async stop(): Promise<void> {
      for (const t of timers) clearInterval(t);
      await worker.stop();
      await renewing?.catch(() => undefined);
    },
  };
}
