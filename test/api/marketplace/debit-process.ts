/**
 * A separate process debiting concurrently (used by concurrency.test.ts): opens its own
 * pool on DATABASE_URL, runs the debits of argv as fast as it can, prints the outcomes.
 *   node --import tsx debit-process.ts <accessId> <now> <authId:qty,authId:qty,...>
 */
import { openPostgres } from '../../../api/core/state/sql.ts';
import { createCatalog } from '../../../api/marketplace/catalog.ts';
import { debit } from '../../../api/marketplace/debit.ts';
import { MarketError } from '../../../api/marketplace/errors.ts';
import { systemClock } from '../../../api/core/clock.ts';

const [accessId, now, list] = process.argv.slice(2);
const sql = await openPostgres(process.env.DATABASE_URL!, { max: 8 });
try {
  const access = await createCatalog(sql, systemClock).access(Number(accessId));
  const jobs = list!.split(',').map((s) => s.split(':').map(Number) as [number, number]);
  const outcomes = await Promise.all(
    jobs.map(([authorizationId, quantity]) =>
      debit(sql, { access, authorizationId, quantity, userId: null, now: new Date(now!) }).then(
        (parts) => ({ quantity, ok: true, parts: parts.length }),
        (e: unknown) => {
          if (e instanceof MarketError && e.code === 'insufficient_tokens') return { quantity, ok: false, parts: 0 };
          throw e;
        },
      ),
    ),
  );
  process.stdout.write(JSON.stringify(outcomes));
} finally {
  await sql.close();
}
