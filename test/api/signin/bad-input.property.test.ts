/**
 * Property-based bad input at every route input of the sign-in (issue 21, section 5), over
 * HTTP as partners and browsers send it: the authorization request's query, the token and
 * revocation forms (with and without client authentication), the Authorization header of the
 * user-info, the sign-in and consent forms of a pending interaction, discovery and JWKS with
 * any Host, any method. Every answer is below 500; JSON answers are OAuth errors
 * `{ error, error_description }`; no client secret, code or token is echoed; a refused
 * request stores nothing. Seeded; FUZZ_RUNS scales it.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthErrorBody } from '../../../schemas/signin.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { encodeComponent, fuzzParams, hostileText, pathSegment, queryString, Tally } from '../../helpers/fuzz.ts';
import { startSignin, type SigninFixture } from './fixture.ts';
import { accessToken, authorizationCode, basic, postForm, startAuthorization, type Pending } from './http-flow.ts';

const AUTHORIZE = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'ui_locales', 'acr_values', 'max_age', 'login_hint', 'response_mode', 'request', 'claims'] as const;
const TOKEN = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'client_id', 'client_secret', 'refresh_token', 'scope'] as const;
const REVOKE = ['token', 'token_type_hint', 'client_id', 'client_secret'] as const;

describe.each(backends)('sign-in bad input (property-based) on $name', (backend) => {
  let db: Isolated;
  let f: SigninFixture;
  let port: number;
  let token: string;
  let code: { code: string; verifier: string };
  let pending: Pending;
  const tally = new Tally();
  beforeAll(async () => {
    db = await backend.open();
    f = await startSignin(db.sql);
    port = Number(new URL(f.issuer).port);
    token = await accessToken(f);
    code = await authorizationCode(f);
    pending = await startAuthorization(f);
  });
  afterAll(async () => {
    console.log(tally.summary(`sign-in on ${backend.name}`));
    await f?.close();
    await db?.cleanup();
  });

  const stored = async () => (await db.sql.query<{ n: number; tokens: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE model IN ('AccessToken', 'Grant'))::int AS tokens FROM oidc_payloads`,
  ))[0]!;
  const secrets = () => [f.confidential.secret, token, code.code];

  /** Checks an answer; `changes` says what a refusal may not have written. */
  async function check(what: string, res: Response, before?: { n: number; tokens: number }) {
    const text = await res.text();
    tally.record(res.status, what);
    expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
    for (const s of secrets()) expect(text.includes(s), `secret echoed: ${what}`).toBe(false);
    if (res.status >= 400 && text !== '' && (res.headers.get('content-type') ?? '').startsWith('application/json')) {
      expect(OAuthErrorBody.safeParse(JSON.parse(text)).success, text).toBe(true);
    }
    if (res.status >= 400 && before) expect(await stored()).toEqual(before);
    return text;
  }

  const valid = () => ({
    client_id: f.confidential.client.client_id, redirect_uri: f.partner.redirectUri, response_type: 'code', scope: 'openid public', state: 's1',
    nonce: 'n1', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  });

  it('GET /oauth/authorize: any query', async () => {
    await fc.assert(fc.asyncProperty(queryString(AUTHORIZE, valid()), async (q) => {
      const before = await stored();
      await check(`authorize ?${q}`, await fetch(`${f.issuer}/oauth/authorize?${q}`, { redirect: 'manual' }), before);
    }), fuzzParams);
  });

  it('POST /oauth/token and /oauth/revoke: any form, with or without client authentication', async () => {
    const base = { grant_type: 'authorization_code', code: code.code, redirect_uri: f.partner.redirectUri, code_verifier: code.verifier };
    const auth = fc.oneof(
      fc.constant(undefined),
      fc.constant(basic(f.confidential.client.client_id, f.confidential.secret)),
      fc.tuple(hostileText, hostileText).map(([a, b]) => `Basic ${Buffer.from(`${encodeComponent(a)}:${encodeComponent(b)}`).toString('base64')}`),
      hostileText.map((t) => t.replace(/[^\t\x20-\x7e]/g, '').slice(0, 200)),
    );
    const endpoint = fc.constantFrom(['/oauth/token', TOKEN] as const, ['/oauth/revoke', REVOKE] as const);
    await fc.assert(fc.asyncProperty(endpoint.chain(([p, names]) => fc.tuple(fc.constant(p), queryString(names, p === '/oauth/token' ? base : { token }))), auth, async ([p, body], a) => {
      const before = await stored();
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (a !== undefined) headers.authorization = a;
      const res = await fetch(`${f.issuer}${p}`, { method: 'POST', headers, body });
      const text = await check(`${p} ${body}`, res);
      // A refusal issues no token and no consent; a revocation may remove, never add.
      if (res.status >= 400 || p === '/oauth/revoke') expect((await stored()).tokens, text).toBeLessThanOrEqual(before.tokens);
    }), fuzzParams);
  });

  it('GET /api/oauth/me: any Authorization header', async () => {
    const header = fc.oneof(
      hostileText.map((t) => `Bearer ${t}`),
      hostileText,
      fc.constant(`Bearer ${token}x`),
    ).map((h) => h.replace(/[^\t\x20-\x7e]/g, '').slice(0, 8000));
    await fc.assert(fc.asyncProperty(header, async (h) => {
      await check(`me ${h}`, await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: h } }));
    }), fuzzParams);
  });

  it('the sign-in and consent forms of a pending interaction: any form body, any content type', async () => {
    const fields = ['csrf', 'email', 'password', 'decision'] as const;
    const ctype = fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data; boundary=x');
    await fc.assert(fc.asyncProperty(fc.constantFrom('login', 'confirm', ''), queryString(fields, { csrf: pending.csrf, email: f.user.email, password: 'wrong password' }), ctype, async (action, body, ct) => {
      const url = action ? `${pending.interaction}/${action}` : pending.interaction;
      const before = await stored();
      const res = ct === 'application/x-www-form-urlencoded'
        ? await postForm(url, pending.jar, body)
        : await fetch(url, { method: 'POST', headers: { cookie: pending.jar.header(), 'content-type': ct }, body: ct === 'application/json' ? JSON.stringify(Object.fromEntries(new URLSearchParams(body))) : body });
      await check(`${action} ${ct} ${body}`, res, before);
    }), fuzzParams);
  });

  it('any path and method under the sign-in, discovery and JWKS with any Host', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
    const path = fc.oneof(
      fc.constantFrom('/oauth/authorize', '/oauth/token', '/oauth/revoke', '/oauth/jwks', '/.well-known/openid-configuration', '/api/oauth/me', '/oauth/interaction/x'),
      pathSegment.map((s) => `/oauth/${s}`),
      pathSegment.map((s) => `/oauth/authorize/${s}`),
      pathSegment.map((s) => `/oauth/interaction/${s}/login`),
    );
    const host = fc.oneof(fc.constant(undefined), hostileText.map((t) => t.replace(/[^\x21-\x7e ]/g, '').slice(0, 100)));
    await fc.assert(fc.asyncProperty(method, path, host, async (m, p, h) => {
      const res = await new Promise<Response>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: m, path: p, headers: h === undefined ? {} : { host: h } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve(new Response(m === 'HEAD' || r.statusCode === 204 || r.statusCode === 304 ? null : Buffer.concat(chunks), { status: r.statusCode!, headers: r.headers as Record<string, string> })));
        });
        req.on('error', reject);
        req.end();
      });
      const text = await check(`${m} ${p} Host ${h}`, res);
      if (p === '/.well-known/openid-configuration' && m === 'GET' && res.status === 200) {
        expect((JSON.parse(text) as { jwks_uri: string }).jwks_uri).toBe(`${f.issuer}/oauth/jwks`);
      }
    }), fuzzParams);
    expect(tally.serverErrors).toEqual([]);
  });
});
