/**
 * Webhooks as partners expect them from Stripe and Standard Webhooks (issue 19): retries on a
 * schedule over about three days, every attempt kept (the clock moved, nothing waited);
 * signing-secret rotation with both `v1,` signatures during the overlap; a test event the
 * partner triggers, delivered and logged like the others.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { createDeliveryWorker, RETRY_SCHEDULE_MS } from '../../../api/marketplace/webhooks/worker.ts';
import { DeliveryLogResponse, MarketErrorBody, WebhookTestResponse } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const BASE = '/stores/maison/fr/api/v1';

describe.each(backends)('webhooks on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  let worker: ReturnType<typeof createDeliveryWorker>;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
    worker = createDeliveryWorker({ sql: db.sql, clock: f.clock, allowPrivateNetworks: true });
  });
  afterAll(async () => { await closeMarket(db, f); });

  const log = async (who: keyof MarketFixture['creds'], query = '') => {
    const res = await f.app.inject({ method: 'GET', url: `${BASE}/webhooks/deliveries?limit=200${query}`, headers: f.headers(who) });
    expect(res.statusCode, res.body).toBe(200);
    return DeliveryLogResponse.parse(res.json()).deliveries;
  };
  /** Runs the worker at every due time until nothing is pending or `untilMs` has passed. */
  const runFor = async (untilMs: number) => {
    const end = f.clock.now().getTime() + untilMs;
    for (;;) {
      await worker.runOnce();
      const [next] = await db.sql.query<{ at: Date | null }>(`SELECT min(next_attempt_at) AS at FROM mkt_deliveries WHERE status = 'pending'`);
      if (!next?.at || next.at.getTime() > end) return;
      f.clock.set(new Date(Math.max(next.at.getTime(), f.clock.now().getTime())));
    }
  };

  it('retries a receiver that stays down on the schedule, 14 attempts over three days, every one logged, then gives up', async () => {
    await worker.runOnce();
    f.receiver.setMode('http503');
    const start = f.clock.now();
    await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'BETA-PHOTO-Y' }, f.clock);
    await runFor(4 * 86_400_000);
    const [d] = await log('BETA');
    expect(d!.event).toBe('authorization.create');
    expect(d!.status).toBe('failed');
    expect(d!.attempts).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
    expect(d!.attempts.every((a) => a.status_code === 503 && a.error === 'receiver answered HTTP 503')).toBe(true);
    const times = d!.attempts.map((a) => Date.parse(a.at) - start.getTime());
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(RETRY_SCHEDULE_MS);
    const spanH = (times.at(-1)! - times[0]!) / 3_600_000;
    expect(spanH).toBeGreaterThan(72);
    expect(spanH).toBeLessThan(80);
    expect(d!.next_attempt_at).toBeNull();
    f.receiver.setMode('up');
  });

  it('delivers once the receiver is back, a day later, with the same webhook-id on every attempt', async () => {
    f.receiver.setMode('reset');
    const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'BETA-PHOTO-T50' }, f.clock);
    await runFor(86_400_000);
    f.receiver.setMode('up');
    await runFor(86_400_000);
    const [d] = await log('BETA');
    expect(d).toMatchObject({ authorization_id: p.authorizationId, status: 'delivered' });
    expect(d!.attempts.length).toBeGreaterThan(5);
    expect(d!.attempts.slice(0, -1).every((a) => a.status_code === null && /cannot reach/.test(a.error!))).toBe(true);
    expect(d!.attempts.at(-1)!.status_code).toBe(204);
    expect(f.receiver.of('BETA').filter((r) => r.webhookId === d!.webhook_id)).toHaveLength(1);
  });

  it('rotates the signing secret: both v1 signatures during the overlap, either secret verifies; only the new one after', async () => {
    const old = f.creds.ACME.secret;
    const { webhookSecret, previousUntil } = await f.catalog.rotateWebhookSecret(f.creds.ACME.accessId, 24 * 3_600_000);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(previousUntil.getTime() - f.clock.now().getTime()).toBe(24 * 3_600_000);
    // The receiver still holds the old secret: it verifies.
    await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    await worker.runOnce();
    const during = f.receiver.of('ACME').at(-1)!;
    const sigs = during.signature.split(' ');
    expect(sigs).toHaveLength(2);
    expect(sigs.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(f.receiver.rejected).toEqual([]);
    // Each secret alone verifies the request it signed.
    const raw = JSON.stringify(during.envelope);
    const ts = Math.floor(Date.now() / 1000);
    const headers = (signature: string) => ({ 'webhook-id': during.webhookId, 'webhook-timestamp': String(ts), 'webhook-signature': signature });
    const both = `${new Webhook(webhookSecret).sign(during.webhookId, new Date(ts * 1000), raw)} ${new Webhook(old).sign(during.webhookId, new Date(ts * 1000), raw)}`;
    expect(() => new Webhook(old).verify(raw, headers(both))).not.toThrow();
    expect(() => new Webhook(webhookSecret).verify(raw, headers(both))).not.toThrow();

    // The overlap ends: one signature, the new secret's; a receiver still on the old one refuses it.
    f.clock.advance(24 * 3_600_000 + 1000);
    await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    await worker.runOnce();
    expect(f.receiver.rejected.at(-1)).toMatch(/^ACME: /);
    const [retrying] = await log('ACME');
    expect(retrying).toMatchObject({ status: 'pending' });
    expect(retrying!.attempts.at(-1)!.status_code).toBe(400);
    // The partner deploys the new secret: the retry goes through, signed once.
    f.receiver.secrets.set('ACME', webhookSecret);
    f.clock.advance(RETRY_SCHEDULE_MS[0]!);
    await worker.runOnce();
    const after = f.receiver.of('ACME').at(-1)!;
    expect(after.webhookId).toBe(retrying!.webhook_id);
    expect(after.signature.split(' ')).toHaveLength(1);
  });

  it('sends a test event the partner asks for, to that partner only, logged with no client or authorization', async () => {
    const before = { owner: f.receiver.tests.filter((t) => t.partner === 'OWNER').length, beta: f.receiver.tests.filter((t) => t.partner === 'BETA').length };
    const res = await f.app.inject({ method: 'POST', url: `${BASE}/webhooks/test`, headers: { ...f.headers('BETA'), 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    const queued = WebhookTestResponse.parse(res.json());
    await worker.runOnce();
    const got = f.receiver.tests.filter((t) => t.partner === 'BETA');
    expect(got).toHaveLength(before.beta + 1);
    expect(got.at(-1)).toMatchObject({ webhookId: queued.webhook_id, envelope: { webhook: 'webhook.test', store: { slug: 'maison' } } });
    expect(f.receiver.tests.filter((t) => t.partner === 'OWNER')).toHaveLength(before.owner);
    const [entry] = await log('BETA');
    expect(entry).toMatchObject({ id: queued.delivery_id, event: 'webhook.test', authorization_id: null, client_id: null, status: 'delivered' });
    // An access with no receiving URL is told so; a parameter is refused.
    const none = await f.app.inject({ method: 'POST', url: '/stores/autre/fr/api/v1/webhooks/test', headers: f.headers('OTHER') });
    expect([none.statusCode, MarketErrorBody.parse(none.json()).error.code]).toEqual([402, 'no_webhook_url']);
    const bad = await f.app.inject({ method: 'POST', url: `${BASE}/webhooks/test?x=1`, headers: f.headers('BETA') });
    expect([bad.statusCode, MarketErrorBody.parse(bad.json()).error.code]).toEqual([400, 'invalid_parameter']);
    const get = await f.app.inject({ method: 'GET', url: `${BASE}/webhooks/test`, headers: f.headers('BETA') });
    expect(get.statusCode).toBe(405);
  });
});
