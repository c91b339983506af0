/**
 * The balance under concurrent debits from several processes and connections, and renewals
 * run concurrently: PostgreSQL server only (row locks), when DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchase, renewDue } from '../../../api/marketplace/purchases.ts';
import { createDeliveryWorker } from '../../../api/marketplace/webhooks/worker.ts';
import { MarketErrorBody } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const run = promisify(execFile);
const postgres = backends.find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('concurrency on PostgreSQL (DATABASE_URL)', () => {
  const backend = postgres!;
  let db: Isolated;
  let f: MarketFixture;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
  });
  afterAll(async () => {
    await closeMarket(db, f);
  });

  it('100 concurrent debits from two processes and two pools: exact final balance, never negative, one webhook per authorization touched', async () => {
    const auths: number[] = [];
    for (let i = 0; i < 3; i++) auths.push((await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100' }, f.clock)).authorizationId);
    await db.sql.query(`UPDATE mkt_authorizations SET tokens = 40 WHERE id = ANY($1)`, [auths]); // 120 tokens in all
    // 100 debits of 1, 2 or 3 tokens (200 in all), naming the three authorizations in turn.
    const jobs = Array.from({ length: 100 }, (_, i) => ({ auth: auths[i % 3]!, qty: 1 + (i % 3 === 0 ? 2 : i % 2) }));
    const requested = jobs.reduce((s, j) => s + j.qty, 0);
    expect(requested).toBeGreaterThan(120);

    // Half through HTTP on two apps, each with its own pool; half in two child processes.
    const apps = [await f.buildAppOn(await db.openAnother!()), await f.buildAppOn(await db.openAnother!())];
    const viaHttp = jobs.slice(0, 50).map(async (j, i) => {
      const res = await apps[i % 2]!.inject({ method: 'POST', url: `/stores/maison/fr/api/v1/services/debit/${j.auth}/${j.qty}`, headers: f.headers('ACME') });
      if (res.statusCode === 200) return { quantity: j.qty, ok: true };
      expect(res.statusCode, res.body).toBe(402);
      expect(MarketErrorBody.parse(res.json()).error.code).toBe('insufficient_tokens');
      return { quantity: j.qty, ok: false };
    });
    const script = path.join(import.meta.dirname, 'debit-process.ts');
    const viaProcesses = [jobs.slice(50, 75), jobs.slice(75)].map(async (part) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, String(f.creds.ACME.accessId), f.clock.now().toISOString(), part.map((j) => `${j.auth}:${j.qty}`).join(',')], {
        env: { ...process.env, DATABASE_URL: db.url! },
      });
      return JSON.parse(stdout) as { quantity: number; ok: boolean }[];
    });
    const outcomes = [...(await Promise.all(viaHttp)), ...(await Promise.all(viaProcesses)).flat()];
    expect(outcomes).toHaveLength(100);

    const rows = await db.sql.query<{ id: number; tokens: number }>(`SELECT id::int AS id, tokens FROM mkt_authorizations WHERE id = ANY($1) ORDER BY id`, [auths]);
    const debited = outcomes.filter((o) => o.ok).reduce((s, o) => s + o.quantity, 0);
    const remaining = rows.reduce((s, r) => s + r.tokens, 0);
    expect(rows.every((r) => r.tokens >= 0)).toBe(true);
    expect(remaining).toBe(120 - debited);
    // Every refused debit asked more than what was left at the end (otherwise it would have fit).
    for (const o of outcomes.filter((x) => !x.ok)) expect(o.quantity).toBeGreaterThan(remaining);

    // The tokens.debit events, per authorization, tell each decrement exactly once.
    const events = await db.sql.query<{ authorization_id: number; tokens: number }>(
      `SELECT authorization_id::int AS authorization_id, (payload->'data'->>'tokens')::int AS tokens FROM mkt_events
        WHERE type = 'tokens.debit' AND authorization_id = ANY($1) ORDER BY id`,
      [auths],
    );
    let fromEvents = 0;
    for (const id of auths) {
      let last = 40;
      for (const e of events.filter((x) => x.authorization_id === id)) {
        expect(e.tokens).toBeLessThan(last);
        fromEvents += last - e.tokens;
        last = e.tokens;
      }
      expect(last).toBe(rows.find((r) => r.id === id)!.tokens);
    }
    expect(fromEvents).toBe(debited);
    const successes = outcomes.filter((o) => o.ok).length;
    expect(events.length).toBeGreaterThanOrEqual(successes);
    // A debit touches more than one authorization only when it drains the one it names.
    expect(events.length).toBeLessThanOrEqual(successes + 2 * auths.length);

    // And the receivers get exactly one webhook per event.
    const worker = createDeliveryWorker({ sql: db.sql, clock: f.clock, batch: 50, allowPrivateNetworks: true });
    await worker.runOnce();
    const debitsReceived = f.receiver.of('ACME').filter((r) => r.envelope.webhook === 'tokens.debit' && auths.includes(r.envelope.data.id));
    expect(debitsReceived).toHaveLength(events.length);
    expect(new Set(debitsReceived.map((r) => r.webhookId)).size).toBe(events.length);
  });

  it('renewals run at once by several connections renew each subscription exactly once', async () => {
    const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'BETA-PHOTO-Y' }, f.clock);
    const pools = [db.sql, await db.openAnother!(), await db.openAnother!()];
    const at = new Date(f.clock.now().getTime() + 366 * 86_400_000);
    const results = await Promise.all(pools.flatMap((s) => [renewDue(s, f.clock.now(), at), renewDue(s, f.clock.now(), at)]));
    expect(results.flat().filter((r) => r.purchaseId === p.purchaseId)).toHaveLength(1);
    const events = await db.sql.query<{ type: string }>(
      `SELECT e.type FROM mkt_events e JOIN mkt_authorizations a ON a.id = e.authorization_id WHERE a.purchase_id = $1 ORDER BY e.id`,
      [p.purchaseId],
    );
    expect(events.map((e) => e.type)).toEqual(['authorization.create', 'authorization.disable', 'authorization.create']);
  });

  it('three workers on three pools deliver a burst once each, in order per authorization', async () => {
    const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    for (let i = 0; i < 15; i++) {
      const res = await f.app.inject({ method: 'POST', url: `/stores/maison/fr/api/v1/services/debit/${p.authorizationId}/2`, headers: f.headers('ACME') });
      expect(res.statusCode).toBe(200);
    }
    const before = f.receiver.received.length;
    const pools = [db.sql, await db.openAnother!(), await db.openAnother!()];
    const workers = pools.map((sql) => createDeliveryWorker({ sql, clock: f.clock, allowPrivateNetworks: true }));
    const results = await Promise.all(workers.map((w) => w.runOnce()));
    // Each worker stops when nothing is claimable at that moment; finish what is left.
    while ((await workers[0]!.runOnce()).attempted > 0);
    expect(results.reduce((s, r) => s + r.failed + r.retried, 0)).toBe(0);
    const got = f.receiver.received.slice(before).filter((r) => r.envelope.data.id === p.authorizationId);
    for (const partner of ['OWNER', 'ACME']) {
      const tokens = got.filter((r) => r.partner === partner).map((r) => r.envelope.data.tokens);
      expect(tokens).toEqual([100, ...Array.from({ length: 15 }, (_, i) => 98 - 2 * i)]);
    }
    expect(new Set(got.map((r) => `${r.partner} ${r.webhookId}`)).size).toBe(got.length);
  });
});
