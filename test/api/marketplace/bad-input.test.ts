/**
 * The requests of issue 21 against the marketplace: each answered with the marketplace error
 * body, never a 5xx; secrets never repeated in an error body nor written to the log.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskQuerySecrets } from '../../../api/app.ts';
import { MarketErrorBody } from '../../../schemas/marketplace.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { rawRequest } from '../../helpers/raw-http.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const BASE = '/stores/maison/fr/api/v1';
const TOKEN = 'tok-7f3a9c-secret-value';

describe.each(backends)('marketplace under bad input on $name', (backend) => {
  let db: Isolated;
  let f: MarketFixture;
  beforeAll(async () => {
    ({ db, f } = await openMarket(backend));
    f.accessTokens.set(TOKEN, { userId: f.users.julie, clientUid: 'client-acme' });
  });
  afterAll(async () => {
    await closeMarket(db, f);
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: string) =>
    f.app.inject({ method, url, headers: { ...f.headers('OWNER'), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, payload });
  const marketError = (res: { statusCode: number; body: string }, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = MarketErrorBody.parse(JSON.parse(res.body));
    expect(body.error.code).toBe(code);
    return body;
  };

  it('a store slug, uid or body uid with NUL or a lone surrogate: 404 or 400, not 500', async () => {
    marketError(await call('GET', '/stores/mai%00son/fr/api/v1/services?uid=crm-1001'), 404, 'store_not_found');
    marketError(await call('GET', '/stores/Mai%20Son/fr/api/v1/services'), 404, 'store_not_found');
    // Past the router's path-parameter limit (100 characters): a URL that cannot be read.
    marketError(await call('GET', `/stores/${'m'.repeat(300)}/fr/api/v1/services`), 400, 'invalid_parameter');
    expect(marketError(await call('GET', `${BASE}/services?uid=%00`), 400, 'invalid_parameter').error.details.parameter).toBe('uid');
    for (const uid of ['a\u0000b', '\ud800']) {
      const res = await call('POST', `${BASE}/services/debit/1/1`, JSON.stringify({ uid }));
      expect(marketError(res, 400, 'invalid_parameter').error.message).toMatch(/NUL|surrogate/);
    }
    marketError(await call('POST', `${BASE}/services/debit/1/1`, '{"uid":{"toString":1}}'), 400, 'invalid_parameter');
  });

  it('query integers are decimal digits only', async () => {
    for (const limit of ['0x1F', '1e0', '+1', '%201', '201', '0']) {
      marketError(await call('GET', `${BASE}/webhooks/deliveries?limit=${limit}`), 400, 'invalid_parameter');
    }
    expect((await call('GET', `${BASE}/webhooks/deliveries?limit=31`)).statusCode).toBe(200);
  });

  it('an error body never repeats an access token (repeated, or under another case)', async () => {
    for (const q of [`access_token=${TOKEN}&access_token=x`, `ACCESS_TOKEN=${TOKEN}`, `access%5Ftoken=${TOKEN}&uid=x`, `access_token=${TOKEN}&email=julie@example.ca`]) {
      const res = await call('GET', `${BASE}/services?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).not.toContain(TOKEN);
    }
  });

  it('405 with Allow for another method on a route; 404 elsewhere; a head over 16 kB in the marketplace body', async () => {
    const del = await call('DELETE', `${BASE}/services`);
    marketError(del, 405, 'method_not_allowed');
    expect(del.headers.allow).toBe('GET, HEAD');
    marketError(await call('GET', `${BASE}/nothing`), 404, 'not_found');
    await f.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (f.app.server.address() as { port: number }).port;
    for (const [text, status] of [
      [`GET ${BASE}/services HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`, 431],
      [`FOO ${BASE}/services HTTP/1.1\r\nHost: x\r\n\r\n`, 405],
    ] as const) {
      const r = await rawRequest(port, text);
      expect(r.status).toBe(status);
      expect(MarketErrorBody.parse(JSON.parse(r.body)).request_id).toBe(r.headers['x-request-id']);
      expect(r.headers.connection).toBe('close');
    }
  });

  it('logs mask secret parameters by their decoded name', async () => {
    expect(maskQuerySecrets(`/x?access%5Ftoken=${TOKEN}&ACCESS_TOKEN=${TOKEN}&apiToken=${TOKEN}&client_secret=${TOKEN}&uid=1`))
      .toBe('/x?access%5Ftoken=[redacted]&ACCESS_TOKEN=[redacted]&apiToken=[redacted]&client_secret=[redacted]&uid=1');
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const app = await f.buildApp({}, { level: 'info', stream });
    const res = await app.inject({ method: 'GET', url: `${BASE}/services?access%5Ftoken=${TOKEN}`, headers: f.headers('ACME') });
    expect(res.statusCode, res.body).toBe(200);
    expect(lines.join('')).toContain('access%5Ftoken=[redacted]');
    expect(lines.join('')).not.toContain(TOKEN);
  });
});
