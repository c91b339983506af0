/**
 * The requests of issue 21 against the sign-in, each answered in OAuth's error form (or the
 * sign-in's error page for the browser forms), never a 5xx, and nothing stored when refused.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthErrorBody } from '../../../schemas/signin.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { rawRequest } from '../../helpers/raw-http.ts';
import { startSignin, type SigninFixture } from './fixture.ts';
import { authorizationCode, basic, postForm, startAuthorization } from './http-flow.ts';

describe.each(backends)('sign-in under bad input on $name', (backend) => {
  let db: Isolated;
  let f: SigninFixture;
  let port: number;
  beforeAll(async () => {
    db = await backend.open();
    f = await startSignin(db.sql);
    port = Number(new URL(f.issuer).port);
  });
  afterAll(async () => {
    await f?.close();
    await db?.cleanup();
  });

  const payloads = async () => (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_payloads`))[0]!.n;
  const oauth = async (res: Response, status: number, error: string) => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(OAuthErrorBody.parse(JSON.parse(text)).error).toBe(error);
    return JSON.parse(text) as { error: string; error_description: string };
  };
  const form = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${f.issuer}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  const conf = () => basic(f.confidential.client.client_id, f.confidential.secret);

  it('GET /oauth/authorize?client_id=%00 and NUL in state or acr_values: 400 invalid_request, nothing stored', async () => {
    const before = await payloads();
    const id = f.confidential.client.client_id;
    const r = f.partner.redirectUri;
    for (const q of ['client_id=%00', `client_id=${id}&redirect_uri=${encodeURIComponent(r)}&response_type=code&scope=openid&state=a%00b`,
      `client_id=${id}&redirect_uri=${encodeURIComponent(r)}&response_type=code&scope=openid&acr_values=x%00`, `client_id=${id}&client_id=${id}`]) {
      const body = await oauth(await fetch(`${f.issuer}/oauth/authorize?${q}`, { redirect: 'manual' }), 400, 'invalid_request');
      expect(body.error_description).toMatch(/parameter (client_id|state|acr_values)/);
    }
    expect(await payloads()).toBe(before);
  });

  it('POST /oauth/token and /oauth/revoke with client_id=%00, or a code or token holding NUL: OAuth errors, never 5xx', async () => {
    await oauth(await form('/oauth/token', 'grant_type=authorization_code&code=x&client_id=%00'), 401, 'invalid_client');
    await oauth(await form('/oauth/revoke', 'token=x&client_id=%00'), 401, 'invalid_client');
    await oauth(await form('/oauth/token', `grant_type=authorization_code&code=a%00b&redirect_uri=${encodeURIComponent(f.partner.redirectUri)}&code_verifier=${'v'.repeat(43)}`, { authorization: conf() }), 400, 'invalid_grant');
    await oauth(await form('/oauth/token', `grant_type=authorization_code&code=%ED%A0%80&redirect_uri=x&code_verifier=${'v'.repeat(43)}`, { authorization: conf() }), 400, 'invalid_grant');
    const revoked = await form('/oauth/revoke', 'token=a%00b', { authorization: conf() });
    expect(revoked.status).toBe(200); // RFC 7009: an unknown token is not an error
  });

  it('a NUL in a parameter stored with the interaction (POSTed state) is refused, nothing stored', async () => {
    const before = await payloads();
    const res = await form('/oauth/authorize', `client_id=${f.confidential.client.client_id}&state=%00`);
    // The authorization endpoint takes GET only (the provider serves no POST): 405 with Allow.
    expect((await oauth(res, 405, 'invalid_request')).error_description).toContain('POST is not allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await payloads()).toBe(before);
  });

  it('the sign-in form: NUL in the e-mail and a JSON body answer 400, not 500', async () => {
    const p = await startAuthorization(f);
    const nul = await postForm(`${p.interaction}/login`, p.jar, `csrf=${p.csrf}&email=julie%00@example.ca&password=x`);
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain('NUL');
    const json = await fetch(`${p.interaction}/login`, {
      method: 'POST', headers: { cookie: p.jar.header(), 'content-type': 'application/json' }, body: JSON.stringify({ email: { toString: 1 } }),
    });
    expect(json.status).toBe(400);
    expect(await json.text()).toContain('application/x-www-form-urlencoded');
    const twice = await postForm(`${p.interaction}/login`, p.jar, `csrf=${p.csrf}&email=a@b.c&email=d@e.f&password=x`);
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain('more than once');
  });

  it('the flow itself still works: a code is exchanged once', async () => {
    const { code, verifier } = await authorizationCode(f);
    const body = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(f.partner.redirectUri)}&code_verifier=${verifier}`;
    const ok = await form('/oauth/token', body, { authorization: conf() });
    expect(ok.status, await ok.clone().text()).toBe(200);
    await oauth(await form('/oauth/token', body, { authorization: conf() }), 400, 'invalid_grant');
  });

  it('discovery advertises the configured issuer whatever the Host header; Host: a b is not a 500', async () => {
    for (const host of ['a b', 'evil.example', 'evil.example:443']) {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/.well-known/openid-configuration', headers: { host } }, (r) => {
          let body = '';
          r.on('data', (c) => { body += c; });
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status, res.body).toBe(200);
      const doc = JSON.parse(res.body) as Record<string, unknown>;
      expect(doc.issuer).toBe(f.issuer);
      const urls = Object.entries(doc).filter(([k, v]) => typeof v === 'string' && (k.endsWith('_endpoint') || k.endsWith('_uri')));
      expect(urls.length).toBeGreaterThan(3);
      for (const [, v] of urls) expect(String(v).startsWith(`${f.issuer}/`), String(v)).toBe(true);
    }
  });

  it('a malformed URL, an unknown path or method under /oauth answer in the OAuth form', async () => {
    await oauth(await fetch(`${f.issuer}/oauth/%E0%A4%A`), 400, 'invalid_request');
    await oauth(await fetch(`${f.issuer}/oauth/nothing-here`), 404, 'invalid_request');
    const del = await fetch(`${f.issuer}/oauth/token`, { method: 'DELETE' });
    await oauth(del, 405, 'invalid_request');
    expect(del.headers.get('allow')).toBe('POST, OPTIONS');
    const link = await rawRequest(port, 'LINK /oauth/jwks HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(link.status).toBe(405);
    expect(OAuthErrorBody.parse(JSON.parse(link.body)).error).toBe('invalid_request');
  });

  it('an unknown method or a head over 16 kB: the OAuth form, X-Request-Id, Connection: close', async () => {
    const foo = await rawRequest(port, 'FOO /oauth/token HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(foo.status).toBe(405);
    const big = await rawRequest(port, `GET /oauth/authorize HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    for (const r of [foo, big]) {
      expect(OAuthErrorBody.parse(JSON.parse(r.body)).error).toBe('invalid_request');
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers.connection).toBe('close');
    }
  });
});
