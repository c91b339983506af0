/**
 * Idempotency-Key on the token debit (issue 19): a debit retried with the same key after a
 * timeout is answered with the first response and never debits twice, also when the retries
 * race the first request; the same key with another request is refused with the marketplace
 * error body; keys are per partner access and kept for MARKETPLACE_IDEMPOTENCY_TTL_H.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceJobs } from '../../../api/marketplace/jobs.ts';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { MarketErrorBody } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const BASE = '/stores/maison/fr/api/v1';

describe.each(backends)('debit Idempotency-Key on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  let auth: number;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
    auth = (await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100' }, f.clock)).authorizationId;
  });
  afterAll(async () => { await closeMarket(db, f); });

  const debitCall = (who: keyof MarketFixture['creds'], qty: number, key?: string, query = '?email=julie@example.ca', app = f.app) =>
    app.inject({
      method: 'POST', url: `${BASE}/services/debit/${auth}/${qty}${who === 'OWNER' ? query : ''}`,
      headers: { ...f.headers(who), 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  const tokens = async () => (await db.sql.query<{ tokens: number }>(`SELECT tokens FROM mkt_authorizations WHERE id = $1`, [auth]))[0]!.tokens;
  const debitEvents = async () => Number((await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM mkt_events WHERE type = 'tokens.debit' AND authorization_id = $1`, [auth]))[0]!.n);

  it('a debit retried with the same key after a timeout is answered with the first response and debits once', async () => {
    const [before, events] = [await tokens(), await debitEvents()];
    const first = await debitCall('OWNER', 3, 'b7e0c1d2-0001');
    expect([first.statusCode, first.json()]).toEqual([200, { status: 'ok' }]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The partner never saw that answer (timeout) and sends the same request again, an hour later.
    f.clock.advance(3_600_000);
    const retry = await debitCall('OWNER', 3, 'b7e0c1d2-0001');
    expect([retry.statusCode, retry.json()]).toEqual([200, { status: 'ok' }]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await tokens()).toBe(before - 3);
    expect(await debitEvents()).toBe(events + 1);
  });

  it('the same key with another quantity or user parameter is refused (422, marketplace error body), debiting nothing', async () => {
    const before = await tokens();
    await debitCall('OWNER', 2, 'key-reuse');
    for (const [label, res] of [
      ['quantity', await debitCall('OWNER', 5, 'key-reuse')],
      ['user', await debitCall('OWNER', 2, 'key-reuse', '?uid=crm-1001')],
    ] as const) {
      expect(res.statusCode, label).toBe(422);
      const body = MarketErrorBody.parse(res.json());
      expect(body.error.code, label).toBe('idempotency_key_reused');
      expect(body.error.message).toMatch(/another request/);
    }
    expect(await tokens()).toBe(before - 2);
  });

  it('keys belong to one partner access: the supplier may use a key the owner used', async () => {
    const before = await tokens();
    expect((await debitCall('OWNER', 1, 'shared-key')).statusCode).toBe(200);
    const acme = await debitCall('ACME', 1, 'shared-key');
    expect(acme.statusCode).toBe(200);
    expect(acme.headers['idempotent-replayed']).toBeUndefined();
    expect(await tokens()).toBe(before - 2);
  });

  it('concurrent retries with one key debit once, whichever process answers', async () => {
    const before = await tokens();
    // A second server process on its own pool (PostgreSQL), racing the first.
    const other = db.openAnother ? await f.buildAppOn(await db.openAnother()) : f.app;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => debitCall('OWNER', 4, 'race-1', undefined, i % 2 ? other : f.app)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(11);
    expect(await tokens()).toBe(before - 4);
  });

  it('a refused debit keeps no key; keys are kept for the configured time, then purged', async () => {
    const short = await debitCall('OWNER', 10_000, 'too-much');
    expect([short.statusCode, MarketErrorBody.parse(short.json()).error.code]).toEqual([402, 'insufficient_tokens']);
    expect(await db.sql.query(`SELECT 1 FROM mkt_idempotency_keys WHERE key = 'too-much'`)).toHaveLength(0);

    const before = await tokens();
    expect((await debitCall('OWNER', 1, 'day-old')).statusCode).toBe(200);
    f.clock.advance(24 * 3_600_000 - 1000);
    expect((await debitCall('OWNER', 1, 'day-old')).headers['idempotent-replayed']).toBe('true');
    f.clock.advance(2000);
    // Past 24 h the key is new again: a new debit.
    const later = await debitCall('OWNER', 1, 'day-old');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await tokens()).toBe(before - 2);
    f.clock.advance(25 * 3_600_000);
    const jobs = createMarketplaceJobs({ sql: db.sql, clock: f.clock, renewIntervalMs: 0, webhookIntervalMs: 0, webhook: { timeoutMs: 1000, retrySchedule: [], allowPrivateNetworks: true }, log: { info: () => {}, error: () => {} } });
    await jobs.renew();
    expect(await db.sql.query(`SELECT key FROM mkt_idempotency_keys WHERE expires_at <= $1`, [f.clock.now()])).toEqual([]);
  });

  it('refuses a key that is empty, too long or not visible ASCII (a repeated header arrives joined with a space)', async () => {
    const before = await tokens();
    for (const key of ['', 'x'.repeat(256), 'clé', 'a, b', 'tab\there']) {
      const res = await debitCall('OWNER', 1, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(MarketErrorBody.parse(res.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'Idempotency-Key' } });
    }
    expect(await tokens()).toBe(before);
  });
});
