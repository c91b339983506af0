/**
 * Debit rule 2 (spec 4.2): "the remainder from the other authorizations in order of purchase".
 * The order is the purchase's date, then the id: a purchase recorded later with
 * `marketplace purchases create --at` an earlier date comes first (issue 21, section 4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as marketplace } from '../../../api/marketplace/cli.ts';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { DebitResponse } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

describe.each(backends)('debit order on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
  });
  afterAll(async () => {
    await closeMarket(db, f);
  });

  const tokensOf = async (id: number) => (await db.sql.query<{ tokens: number }>(`SELECT tokens FROM mkt_authorizations WHERE id = $1`, [id]))[0]!.tokens;

  it('draws on the earliest purchase first, even when it was recorded after another', async () => {
    const buy = (at?: Date) => purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100', at }, f.clock);
    const recordedFirst = await buy(new Date('2026-06-01T00:00:00Z'));
    // Recorded second by the operator's command, dated before the first.
    const out: string[] = [];
    const err: string[] = [];
    const env = backend.name === 'postgres' ? { DATABASE_URL: db.url! } : {};
    const code = await marketplace(
      ['purchases', 'create', '--store', 'maison', '--user', 'julie@example.ca', '--plan', 'ACME-TOURS-T100', '--at', '2026-01-05'],
      { out: (l) => out.push(l), err: (l) => err.push(l), env },
      { clock: f.clock, sql: backend.name === 'postgres' ? undefined : db.sql },
    );
    expect(code, err.join('\n')).toBe(0);
    const backdated = Number(/authorization (\d+)/.exec(out.join('\n'))![1]);
    expect(backdated).toBeGreaterThan(recordedFirst.authorizationId);
    const named = await buy();

    const res = await f.app.inject({
      method: 'POST', url: `/stores/maison/fr/api/v1/services/debit/${named.authorizationId}/150?uid=crm-1001`,
      headers: { ...f.headers('OWNER'), 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(DebitResponse.parse(res.json())).toEqual({ status: 'ok' });
    // The named one first, then the purchase of 2026-01-05, and the one of 2026-06-01 untouched.
    expect(await tokensOf(named.authorizationId)).toBe(0);
    expect(await tokensOf(backdated)).toBe(50);
    expect(await tokensOf(recordedFirst.authorizationId)).toBe(100);
  });
});
