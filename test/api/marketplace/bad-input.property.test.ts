/**
 * Property-based bad input at every route input of the marketplace (issue 21, section 5):
 * generated query strings, path segments, JSON bodies and credential headers. Every answer is
 * below 500 and in the marketplace error body when refused; no access token or apiToken is
 * echoed; a refused debit changes no balance and queues no event. Seeded; FUZZ_RUNS scales it
 * (test/helpers/fuzz.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { MarketErrorBody } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { encodeComponent, fuzzParams, hostileJson, hostileText, pathSegment, queryString, Tally } from '../../helpers/fuzz.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const TOKEN = 'tok-fuzz-7c1e-secret';
const SERVICE_PARAMS = ['access_token', 'email', 'uid', 'id', 'product_sku'] as const;
const LOG_PARAMS = ['status', 'before', 'limit'] as const;

describe.each(backends)('marketplace bad input (property-based) on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  let authorizationId: number;
  let app: Awaited<ReturnType<MarketFixture['buildApp']>>;
  const tally = new Tally();
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
    f.accessTokens.set(TOKEN, { userId: f.users.julie, clientUid: 'client-acme' });
    // The rate limit is not under test here: high enough that every request reaches its route.
    app = await f.buildApp({ MARKETPLACE_RATE_LIMIT_PER_MINUTE: '100000000' });
    authorizationId = (await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100' }, f.clock)).authorizationId;
  });
  afterAll(async () => {
    console.log(tally.summary(`marketplace on ${backend.name}`));
    await closeMarket(db, f);
  });

  const state = async () => (await db.sql.query<{ tokens: number; events: number }>(
    `SELECT (SELECT coalesce(sum(tokens), 0)::int FROM mkt_authorizations) AS tokens, (SELECT count(*)::int FROM mkt_events) AS events`,
  ))[0]!;
  const secrets = () => [TOKEN, f.creds.OWNER.apiToken, f.creds.ACME.apiToken];

  async function send(opts: { method: string; url: string; headers?: Record<string, string>; payload?: string }) {
    const before = await state();
    const res = await app.inject({ method: opts.method as 'GET', url: opts.url, headers: opts.headers ?? f.headers('OWNER'), payload: opts.payload });
    tally.record(res.statusCode, `${opts.method} ${opts.url} ${opts.payload ?? ''}`);
    expect(res.statusCode, `${opts.method} ${opts.url} ${opts.payload ?? ''}: ${res.body}`).toBeLessThan(500);
    for (const s of secrets()) expect(res.body.includes(s), `secret echoed for ${opts.url}`).toBe(false);
    if (res.statusCode >= 400) {
      if (opts.method !== 'HEAD') expect(MarketErrorBody.safeParse(JSON.parse(res.body)).success, res.body).toBe(true);
      expect(await state()).toEqual(before);
    }
    return res;
  }

  const who = fc.constantFrom('OWNER', 'ACME', 'BETA') as fc.Arbitrary<'OWNER' | 'ACME' | 'BETA'>;
  const slug = fc.oneof({ weight: 4, arbitrary: fc.constant('maison') }, { weight: 1, arbitrary: pathSegment });

  it('GET services: any query, any store slug', async () => {
    await fc.assert(fc.asyncProperty(slug, who, queryString(SERVICE_PARAMS, { access_token: TOKEN, uid: 'crm-1001', email: 'julie@example.ca' }), async (s, w, q) => {
      await send({ method: 'GET', url: `/stores/${s}/fr/api/v1/services?${q}`, headers: f.headers(w) });
    }), fuzzParams);
  });

  it('POST debit: any path segments, query and JSON body; a refusal debits nothing', async () => {
    const id = fc.oneof(fc.constant(String(authorizationId)), pathSegment);
    const qty = fc.oneof(fc.constantFrom('1', '2', '100', '101'), pathSegment);
    const body = fc.oneof(
      fc.constant(undefined),
      hostileJson.map((v) => JSON.stringify(v)),
      fc.dictionary(fc.constantFrom(...SERVICE_PARAMS, 'UID', 'x'), hostileJson, { maxKeys: 3 }).map((o) => JSON.stringify(o)),
      hostileText.map((t) => t.slice(0, 500)),
    );
    await fc.assert(fc.asyncProperty(id, qty, queryString(SERVICE_PARAMS, { uid: 'crm-1001' }), body, async (i, n, q, b) => {
      await send({ method: 'POST', url: `/stores/maison/fr/api/v1/services/debit/${i}/${n}?${q}`, headers: { ...f.headers('OWNER'), 'content-type': 'application/json' }, payload: b });
    }), fuzzParams);
  });

  it('POST debit with any Idempotency-Key: a refused key debits nothing, a replay nothing more', async () => {
    const key = fc.oneof(fc.uuid(), hostileText.map((t) => t.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').slice(0, 400)));
    await fc.assert(fc.asyncProperty(key, async (k) => {
      const request = { method: 'POST', url: `/stores/maison/fr/api/v1/services/debit/${authorizationId}/1`, headers: { ...f.headers('OWNER'), 'content-type': 'application/json', 'idempotency-key': k } };
      const first = await send(request);
      const after = await state();
      const again = await send(request);
      expect(again.statusCode).toBe(first.statusCode);
      if (first.statusCode === 200) {
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await state()).toEqual(after);
      }
    }), fuzzParams);
  });

  it('POST webhooks/test: any query and body', async () => {
    const body = fc.oneof(fc.constant(undefined), hostileJson.map((v) => JSON.stringify(v)), hostileText.map((t) => t.slice(0, 500)));
    await fc.assert(fc.asyncProperty(who, queryString(['x', 'event'] as const), body, async (w, q, b) => {
      await send({ method: 'POST', url: `/stores/maison/fr/api/v1/webhooks/test?${q}`, headers: { ...f.headers(w), 'content-type': 'application/json' }, payload: b });
    }), fuzzParams);
  });

  it('GET deliveries: any query', async () => {
    await fc.assert(fc.asyncProperty(who, queryString(LOG_PARAMS, { limit: '10', status: 'pending' }), async (w, q) => {
      await send({ method: 'GET', url: `/stores/maison/fr/api/v1/webhooks/deliveries?${q}`, headers: f.headers(w) });
    }), fuzzParams);
  });

  it('credential headers and methods: any value, any method', async () => {
    const header = fc.oneof(fc.constant(f.creds.OWNER.apiKey), hostileText.map((t) => t.replace(/[^\t\x20-\x7e]/g, '').slice(0, 300)));
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
    const path = fc.constantFrom('/fr/api/v1/services', `/fr/api/v1/services/debit/${authorizationId}/1`, '/fr/api/v1/webhooks/deliveries', '/fr/api/v1/webhooks/test', '/nothing');
    await fc.assert(fc.asyncProperty(method, path, header, header, async (m, p, apiKey, apiToken) => {
      await send({ method: m, url: `/stores/maison${p}`, headers: { apiKey, apiToken } });
    }), fuzzParams);
  });

  it('the access token under its own or another case is never echoed', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('access_token', 'ACCESS_TOKEN', 'Access_Token', 'access%5Ftoken'), queryString(SERVICE_PARAMS), async (name, q) => {
      await send({ method: 'GET', url: `/stores/maison/fr/api/v1/services?${name}=${encodeComponent(TOKEN)}&${name}=${encodeComponent(TOKEN)}x&${q}`, headers: f.headers('ACME') });
    }), fuzzParams);
    expect(tally.serverErrors).toEqual([]);
  });
});
