import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceJobs } from '../../../api/marketplace/jobs.ts';
import { cancelPurchase, purchase, renewDue } from '../../../api/marketplace/purchases.ts';
import { createDeliveryWorker } from '../../../api/marketplace/webhooks/worker.ts';
import { DebitResponse, DeliveryLogResponse, MarketErrorBody, ServicesResponse } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { inlineRefs } from '../../helpers/openapi.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

/** 1 s, 2 s, 4 s... after each failure: ten attempts. */
const DOUBLING = Array.from({ length: 9 }, (_, i) => 1000 * 2 ** i);

const BASE = '/stores/maison/fr/api/v1';

describe.each(backends)('marketplace cycle on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  let worker: ReturnType<typeof createDeliveryWorker>;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
    worker = createDeliveryWorker({ sql: db.sql, clock: f.clock, retrySchedule: DOUBLING, allowPrivateNetworks: true });
  });
  afterAll(async () => {
    await closeMarket(db, f);
  });

  const services = async (who: keyof MarketFixture['creds'], query: string) => {
    const res = await f.app.inject({ method: 'GET', url: `${BASE}/services?${query}`, headers: f.headers(who) });
    expect(res.statusCode, res.body).toBe(200);
    return ServicesResponse.parse(res.json());
  };
  const debitCall = (who: keyof MarketFixture['creds'], id: number, qty: number | string, query = '') =>
    f.app.inject({ method: 'POST', url: `${BASE}/services/debit/${id}/${qty}${query}`, headers: { ...f.headers(who), 'content-type': 'application/json' } });
  const tokensOf = async (id: number) => (await db.sql.query<{ tokens: number }>(`SELECT tokens FROM mkt_authorizations WHERE id = $1`, [id]))[0]!.tokens;
  const eventCount = async () => Number((await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM mkt_events`))[0]!.n);

  it('a purchase creates an active authorization; authorization.create reaches the owner and the product supplier, signed', async () => {
    const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-STATS-M' }, f.clock);
    const run = await worker.runOnce();
    expect(run).toMatchObject({ delivered: 2, retried: 0, failed: 0 });
    expect(f.receiver.rejected).toEqual([]);
    for (const partner of ['OWNER', 'ACME']) {
      const [r] = f.receiver.of(partner);
      expect(r!.envelope).toEqual({
        webhook: 'authorization.create',
        store: { id: expect.any(Number), slug: 'maison' },
        client: { id: f.users.julie, uid: 'crm-1001', email: 'julie@example.ca', first_name: 'Julie', last_name: 'Tremblay' },
        data: {
          id: p.authorizationId, pricing_sku: 'ACME-STATS-M', product_sku: 'ACME-STATS', status: 'active', name: 'Statistics (Monthly)',
          validity_date_start: '2026-11-20', validity_date_end: '2026-12-20', inactive_date: null, mode: 'plan_month', extras: [],
        },
      });
    }
    expect(f.receiver.of('BETA')).toEqual([]);

    const body = await services('OWNER', 'email=julie@example.ca');
    expect(body.authorizations.tokens).toEqual([]);
    expect(body.authorizations.plans).toEqual([
      expect.objectContaining({ id: p.authorizationId, validity_date_start: '2026-11-20T10:00:00+00:00', validity_date_end: '2026-12-20T10:00:00+00:00', status: 'active' }),
    ]);
    expect(body.profile).toMatchObject({
      id: f.users.julie, uid: 'crm-1001', username: 'jtremblay', country: 'CA', public_email: 'contact@julie.example.ca', phone: '+1 514 555 0101',
      phone_sms: '+1 514 555 0102', phone_office: null, spoken_languages: 'fr,en', picture_url: 'https://img.example.ca/julie.jpg', corporate_account: 1,
      color1: '#1A2B3C', color2: '', bio: { fr: 'Courtière depuis 2010', en: 'Broker since 2010', es: '' },
      billing_address: { address1: '1 rue Rachel', address2: '', city: 'Montréal', country: 'CA', province: 'QC', zipcode: 'H2J 2H1' },
      shipping_address: { same_as_billing: 0 }, uids: [{ uid: 'crm-1001', provider: 'account' }, { uid: 'fb-77', provider: 'facebook' }],
    });
    // uid and id identify the same client.
    expect((await services('OWNER', 'uid=crm-1001')).profile.id).toBe(f.users.julie);
    expect((await services('OWNER', `id=${f.users.julie}`)).profile.id).toBe(f.users.julie);
  });

  it('renewal: at the end of the period, authorization.disable then authorization.create, exactly once', async () => {
    const before = f.receiver.received.length;
    f.clock.set(new Date('2026-12-20T10:00:01Z'));
    const renewals = await renewDue(db.sql, f.clock.now());
    expect(renewals).toHaveLength(1);
    expect(await renewDue(db.sql, f.clock.now())).toEqual([]);
    await worker.runOnce();
    for (const partner of ['OWNER', 'ACME']) {
      const got = f.receiver.of(partner).slice(-2).map((r) => [r.envelope.webhook, r.envelope.data.id, r.envelope.data.status]);
      expect(got).toEqual([
        ['authorization.disable', renewals[0]!.disabled, 'inactive'],
        ['authorization.create', renewals[0]!.created, 'active'],
      ]);
    }
    expect(f.receiver.received.length - before).toBe(4);
    const disabled = f.receiver.of('OWNER').at(-2)!.envelope.data;
    expect(disabled.inactive_date).toBe('2026-12-20');
    const created = f.receiver.of('OWNER').at(-1)!.envelope.data;
    expect([created.validity_date_start, created.validity_date_end]).toEqual(['2026-12-20', '2027-01-20']);
    const body = await services('OWNER', 'email=julie@example.ca');
    expect(body.authorizations.plans.map((a) => a.id)).toEqual([renewals[0]!.created]);
  });

  it('debit: rule 1 from the named authorization, rule 2 across two authorizations in purchase order, one tokens.debit per authorization touched', async () => {
    const first = await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100', options: ['hd'] }, f.clock);
    const second = await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    await worker.runOnce();
    const seen = f.receiver.of('ACME').length;

    const r1 = await debitCall('ACME', first.authorizationId, 30);
    expect(r1.statusCode, r1.body).toBe(200);
    expect(DebitResponse.parse(r1.json())).toEqual({ status: 'ok' });
    expect([await tokensOf(first.authorizationId), await tokensOf(second.authorizationId)]).toEqual([70, 100]);

    const r2 = await debitCall('OWNER', second.authorizationId, 150, '?email=julie@example.ca');
    expect(r2.statusCode, r2.body).toBe(200);
    expect([await tokensOf(first.authorizationId), await tokensOf(second.authorizationId)]).toEqual([20, 0]);

    await worker.runOnce();
    const debits = f.receiver.of('ACME').slice(seen).map((r) => [r.envelope.webhook, r.envelope.data.id, r.envelope.data.tokens]);
    expect(debits).toEqual([
      ['tokens.debit', first.authorizationId, 70],
      ['tokens.debit', second.authorizationId, 0],
      ['tokens.debit', first.authorizationId, 20],
    ]);
    const tokens = (await services('OWNER', 'email=julie@example.ca&product_sku=ACME-TOURS')).authorizations;
    expect(tokens.plans).toEqual([]);
    expect(tokens.tokens.map((a) => [a.id, a.tokens, a.updated, a.extras])).toEqual([
      [first.authorizationId, 20, true, [{ code: 'hd', name: 'HD rendering' }]],
      [second.authorizationId, 0, true, []],
    ]);
  });

  it('402 when the total balance is short: nothing debited, no event, a clear message', async () => {
    const [a] = (await services('OWNER', 'email=julie@example.ca&product_sku=ACME-TOURS')).authorizations.tokens;
    const events = await eventCount();
    const res = await debitCall('ACME', a!.id, 21);
    expect(res.statusCode).toBe(402);
    const body = MarketErrorBody.parse(res.json());
    expect(body.error).toMatchObject({ code: 'insufficient_tokens', details: { requested: 21, available: 20 } });
    expect(body.error.message).toMatch(/21 requested, 20 available.*nothing was debited/);
    expect(await tokensOf(a!.id)).toBe(20);
    expect(await eventCount()).toBe(events);
  });

  it('30 debits at once through one app: the balance stays exact and the refused ones debit nothing', async () => {
    const a = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    const b = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'ACME-TOURS-T100' }, f.clock);
    await db.sql.query(`UPDATE mkt_authorizations SET tokens = 25 WHERE id = ANY($1)`, [[a.authorizationId, b.authorizationId]]);
    const codes = await Promise.all(Array.from({ length: 30 }, (_, i) => debitCall('OWNER', i % 2 ? a.authorizationId : b.authorizationId, 2).then((r) => r.statusCode)));
    expect(codes.filter((c) => c === 200)).toHaveLength(25);
    expect(codes.filter((c) => c === 402)).toHaveLength(5);
    expect((await tokensOf(a.authorizationId)) + (await tokensOf(b.authorizationId))).toBe(0);
    // Clean up marc's tokens for the tests below.
    await db.sql.query(`UPDATE mkt_authorizations SET status = 'inactive', inactive_at = now() WHERE id = ANY($1)`, [[a.authorizationId, b.authorizationId]]);
    await worker.runOnce();
  });

  it('supplier isolation: a supplier sees and debits only its own products, and identifies users by access_token', async () => {
    const photo = await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'BETA-PHOTO-T50' }, f.clock);
    // A token the sign-in gave without naming its client, one given to BETA's application.
    f.accessTokens.set('tok-julie', { userId: f.users.julie, clientUid: null });
    f.accessTokens.set('tok-julie-beta', { userId: f.users.julie, clientUid: 'client-beta' });
    expect((await services('BETA', 'access_token=tok-julie-beta')).profile.id).toBe(f.users.julie);
    const stolen = await f.app.inject({ method: 'GET', url: `${BASE}/services?access_token=tok-julie-beta`, headers: f.headers('ACME') });
    expect(stolen.statusCode).toBe(401);
    expect(MarketErrorBody.parse(stolen.json()).error).toMatchObject({ code: 'invalid_access_token', message: 'the access_token was issued to another application' });
    const beta = await services('BETA', 'access_token=tok-julie');
    expect([...beta.authorizations.plans, ...beta.authorizations.tokens].map((a) => a.product_sku)).toEqual(['BETA-PHOTO']);
    const acme = await services('ACME', 'access_token=tok-julie');
    expect(new Set([...acme.authorizations.plans, ...acme.authorizations.tokens].map((a) => a.product_sku))).toEqual(new Set(['ACME-STATS', 'ACME-TOURS']));
    expect((await services('BETA', 'access_token=tok-julie&product_sku=ACME-TOURS')).authorizations.tokens).toEqual([]);
    // Another supplier's authorization is unknown to BETA; its own is debited.
    const acmeTokens = acme.authorizations.tokens[0]!;
    const refused = await debitCall('BETA', acmeTokens.id, 1);
    expect(refused.statusCode).toBe(404);
    expect(MarketErrorBody.parse(refused.json()).error.code).toBe('authorization_not_found');
    expect(await tokensOf(acmeTokens.id)).toBe(acmeTokens.tokens);
    expect((await debitCall('BETA', photo.authorizationId, 5, '?access_token=tok-julie')).statusCode).toBe(200);
    // A supplier cannot look users up by e-mail.
    const byEmail = await f.app.inject({ method: 'GET', url: `${BASE}/services?email=julie@example.ca`, headers: f.headers('BETA') });
    expect(byEmail.statusCode).toBe(400);
    expect(MarketErrorBody.parse(byEmail.json()).error.details).toMatchObject({ parameter: 'email' });
    await worker.runOnce();
    expect(f.receiver.of('BETA').map((r) => r.envelope.data.product_sku)).toEqual(['BETA-PHOTO', 'BETA-PHOTO']);
    expect(f.receiver.of('ACME').every((r) => r.envelope.data.product_sku.startsWith('ACME-'))).toBe(true);
  });

  it('answers every 4xx with the marketplace error body', async () => {
    const cases: [string, { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }, number, string][] = [
      ['no credentials', { method: 'GET', url: `${BASE}/services?email=julie@example.ca` }, 401, 'unauthorized'],
      ['wrong token', { method: 'GET', url: `${BASE}/services?email=julie@example.ca`, headers: { ...f.headers('OWNER'), apiToken: f.creds.ACME.apiToken } }, 401, 'unauthorized'],
      ['credentials of another store', { method: 'GET', url: `${BASE}/services?email=julie@example.ca`, headers: f.headers('OTHER') }, 401, 'unauthorized'],
      ['bad body without credentials: credentials first', { method: 'POST', url: `${BASE}/services/debit/1/1`, headers: { 'content-type': 'application/json' }, payload: '{' }, 401, 'unauthorized'],
      ['unknown access_token', { method: 'GET', url: `${BASE}/services?access_token=nope`, headers: f.headers('ACME') }, 401, 'invalid_access_token'],
      ['no user parameter', { method: 'GET', url: `${BASE}/services`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['two user parameters', { method: 'GET', url: `${BASE}/services?email=julie@example.ca&uid=crm-1001`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['malformed e-mail', { method: 'GET', url: `${BASE}/services?email=julie`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['malformed product_sku', { method: 'GET', url: `${BASE}/services?email=julie@example.ca&product_sku=tours`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['unknown parameter', { method: 'GET', url: `${BASE}/services?email=julie@example.ca&foo=1`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['zero quantity', { method: 'POST', url: `${BASE}/services/debit/1/0`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['quantity not a number', { method: 'POST', url: `${BASE}/services/debit/1/abc`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['invalid JSON body', { method: 'POST', url: `${BASE}/services/debit/1/1`, headers: { ...f.headers('OWNER'), 'content-type': 'application/json' }, payload: '{"email":' }, 400, 'invalid_parameter'],
      ['user not a client', { method: 'GET', url: `${BASE}/services?email=stranger@example.ca`, headers: f.headers('OWNER') }, 404, 'client_not_found'],
      ['unknown user', { method: 'GET', url: `${BASE}/services?uid=nobody`, headers: f.headers('OWNER') }, 404, 'client_not_found'],
      ['unknown authorization', { method: 'POST', url: `${BASE}/services/debit/999999/1`, headers: f.headers('OWNER') }, 404, 'authorization_not_found'],
      ['unknown route under a store', { method: 'GET', url: `${BASE}/nothing-here`, headers: f.headers('OWNER') }, 404, 'not_found'],
      ['unknown route, no credentials', { method: 'GET', url: '/stores/maison/fr/api/v2/services' }, 404, 'not_found'],
      ['malformed URL', { method: 'GET', url: `${BASE}/services/%E0%A4%A`, headers: f.headers('OWNER') }, 400, 'invalid_parameter'],
      ['unknown store', { method: 'GET', url: '/stores/nowhere/fr/api/v1/services?email=julie@example.ca', headers: f.headers('OWNER') }, 404, 'store_not_found'],
    ];
    for (const [label, req, status, code] of cases) {
      const res = await f.app.inject(req);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
      expect(MarketErrorBody.parse(res.json()).error.code, label).toBe(code);
    }
    // A plan authorization cannot be debited; the debit names its user, who must own it.
    const plan = (await services('OWNER', 'email=julie@example.ca')).authorizations.plans[0]!;
    const notTokens = await debitCall('OWNER', plan.id, 1);
    expect([notTokens.statusCode, MarketErrorBody.parse(notTokens.json()).error.code]).toEqual([400, 'not_a_tokens_authorization']);
    const token = (await services('OWNER', 'email=julie@example.ca&product_sku=ACME-TOURS')).authorizations.tokens[0]!;
    const otherUser = await debitCall('OWNER', token.id, 1, '?email=marc@example.ca');
    expect(otherUser.statusCode).toBe(404);
  });

  it("the server's jobs renew and deliver; a cancelled subscription ends without a new period", async () => {
    const jobs = createMarketplaceJobs({
      sql: db.sql, clock: f.clock, renewIntervalMs: 0, webhookIntervalMs: 0, webhook: { timeoutMs: 5000, retrySchedule: [1000, 2000], allowPrivateNetworks: true },
      log: { info: () => {}, error: () => {} },
    });
    const yearly = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'BETA-PHOTO-Y' }, f.clock);
    const monthly = await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'ACME-STATS-M' }, f.clock);
    await cancelPurchase(db.sql, monthly.purchaseId, f.clock);
    await jobs.deliver();
    const start = f.clock.now();
    f.clock.set(new Date(start.getTime() + 40 * 86_400_000));
    const marcs = <T extends { purchaseId: number }>(list: T[]) => list.filter((r) => r.purchaseId === monthly.purchaseId || r.purchaseId === yearly.purchaseId);
    expect(marcs(await jobs.renew())).toEqual([{ purchaseId: monthly.purchaseId, disabled: monthly.authorizationId, created: null }]);
    f.clock.set(new Date(start.getTime() + 366 * 86_400_000));
    const [renewal, ...more] = marcs(await jobs.renew());
    expect(more).toEqual([]);
    expect(renewal).toMatchObject({ purchaseId: yearly.purchaseId, disabled: yearly.authorizationId });
    expect(await jobs.deliver()).toMatchObject({ retried: 0, failed: 0 });
    const beta = f.receiver.of('BETA').slice(-2).map((r) => [r.envelope.webhook, r.envelope.data.id]);
    expect(beta).toEqual([['authorization.disable', yearly.authorizationId], ['authorization.create', renewal!.created]]);
    const marc = await services('OWNER', 'email=marc@example.ca');
    expect(marc.authorizations.plans.map((a) => a.id)).toEqual([renewal!.created]);
    f.clock.set(start);
  });

  it('publishes its OpenAPI document, without credentials', async () => {
    const res = await f.app.inject({ method: 'GET', url: '/stores/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = inlineRefs(res.json());
    expect(Object.keys(doc.paths)).toEqual([
      '/stores/{store}/fr/api/v1/services', '/stores/{store}/fr/api/v1/services/debit/{authorizationId}/{quantityToDebit}', '/stores/{store}/fr/api/v1/webhooks/deliveries',
      '/stores/{store}/fr/api/v1/webhooks/test',
    ]);
    const debitDoc = doc.paths['/stores/{store}/fr/api/v1/services/debit/{authorizationId}/{quantityToDebit}'].post;
    expect(Object.keys(debitDoc.responses)).toEqual(['200', '400', '401', '402', '404', '422', '429', '500']);
    expect(debitDoc.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain('header:Idempotency-Key');
    expect(doc.paths['/stores/{store}/fr/api/v1/services'].get.responses['200'].content['application/json'].schema.properties).toHaveProperty('profile');
    expect(doc.components.securitySchemes.apiToken).toEqual({ type: 'apiKey', in: 'header', name: 'apiToken' });
  });

  it('keeps access tokens and API credentials out of the logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const app = await f.buildApp({}, { level: 'info', stream });
    f.accessTokens.set('tok-secret-123', { userId: f.users.julie, clientUid: null });
    const res = await app.inject({ method: 'GET', url: `${BASE}/services?product_sku=ACME-TOURS&access_token=tok-secret-123`, headers: f.headers('ACME') });
    expect(res.statusCode).toBe(200);
    const all = lines.join('');
    expect(all).toContain('access_token=[redacted]');
    for (const secret of ['tok-secret-123', f.creds.ACME.apiKey, f.creds.ACME.apiToken]) expect(all).not.toContain(secret);
  });

  it('429 past the per-minute limit of an access', async () => {
    const app = await f.buildApp({ MARKETPLACE_RATE_LIMIT_PER_MINUTE: '2' });
    const call = () => app.inject({ method: 'GET', url: `${BASE}/services?email=julie@example.ca`, headers: f.headers('OWNER') });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(200);
    const res = await call();
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(MarketErrorBody.parse(res.json()).error.code).toBe('rate_limited');
  });

  it('receiver down for a while, then up: every event arrives once acknowledged, in order, after a restart', async () => {
    f.receiver.setMode('reset');
    const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'crm-1002', plan: 'ACME-TOURS-T100' }, f.clock);
    for (const q of [10, 20, 30]) expect((await debitCall('ACME', p.authorizationId, q)).statusCode).toBe(200);
    const before = f.receiver.received.length;
    // Only the first event of each (receiver, client) sequence is tried while it is pending.
    expect(await worker.runOnce()).toMatchObject({ attempted: 2, delivered: 0, retried: 2 });
    f.receiver.setMode('http503');
    expect((await worker.runOnce()).attempted).toBe(0); // backoff: not due yet
    f.clock.advance(1000);
    expect(await worker.runOnce()).toMatchObject({ attempted: 2, retried: 2 });
    // A fresh worker (a restarted server) picks the state up from the database.
    f.receiver.setMode('up');
    const restarted = createDeliveryWorker({ sql: db.sql, clock: f.clock, retrySchedule: DOUBLING, allowPrivateNetworks: true });
    f.clock.advance(2000);
    expect(await restarted.runOnce()).toMatchObject({ delivered: 8, retried: 0 });
    for (const partner of ['OWNER', 'ACME']) {
      const got = f.receiver.of(partner).filter((r) => r.envelope.client.uid === 'crm-1002' && r.envelope.data.id === p.authorizationId).map((r) => [r.envelope.webhook, r.envelope.data.tokens]);
      expect(got).toEqual([['authorization.create', 100], ['tokens.debit', 90], ['tokens.debit', 70], ['tokens.debit', 40]]);
    }
    expect(f.receiver.received.length - before).toBe(8);
    expect(new Set(f.receiver.received.map((r) => `${r.partner} ${r.webhookId}`)).size).toBe(f.receiver.received.length);
    expect(f.receiver.rejected).toEqual([]);

    // The partner reads its delivery log back, with every attempt.
    const res = await f.app.inject({ method: 'GET', url: `${BASE}/webhooks/deliveries?limit=4`, headers: f.headers('ACME') });
    expect(res.statusCode, res.body).toBe(200);
    const log = DeliveryLogResponse.parse(res.json());
    expect(log.deliveries.map((d) => d.event)).toEqual(['tokens.debit', 'tokens.debit', 'tokens.debit', 'authorization.create']);
    const create = log.deliveries[3]!;
    expect(create.status).toBe('delivered');
    expect(create.attempts.map((a) => a.status_code)).toEqual([null, 503, 204]);
    expect(create.attempts[0]!.error).toMatch(/cannot reach the receiver/);
    expect(log.next_before).toBe(create.id);
  });

  it('a revoked access loses its credentials and its pending deliveries; a store without receiver URL keeps events waiting', async () => {
    f.receiver.setMode('http503');
    await purchase(db.sql, f.catalog, { store: 'maison', user: 'marc@example.ca', plan: 'BETA-PHOTO-T50' }, f.clock);
    await worker.runOnce();
    await f.catalog.revokeAccess(f.creds.BETA.accessId);
    const res = await f.app.inject({ method: 'GET', url: `${BASE}/services?access_token=tok-julie`, headers: f.headers('BETA') });
    expect(res.statusCode).toBe(401);
    const [beta] = await db.sql.query<{ status: string; last_error: string }>(
      `SELECT status, last_error FROM mkt_deliveries WHERE access_id = $1 ORDER BY id DESC LIMIT 1`, [f.creds.BETA.accessId]);
    expect(beta).toEqual({ status: 'failed', last_error: 'access revoked' });
    // The owner's delivery waits while its URL is removed, and goes once it is back.
    await f.catalog.setWebhookUrl(f.creds.OWNER.accessId, null);
    f.receiver.setMode('up');
    f.clock.advance(60_000);
    expect((await worker.runOnce()).attempted).toBe(0);
    await f.catalog.setWebhookUrl(f.creds.OWNER.accessId, f.receiver.url('OWNER'));
    expect(await worker.runOnce()).toMatchObject({ delivered: 1 });
    expect(f.receiver.of('OWNER').at(-1)!.envelope.data.pricing_sku).toBe('BETA-PHOTO-T50');
  });
});
