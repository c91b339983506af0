/**
 * The whole partner sign-in as a partner and a user live it: openid-client
 * discovers the provider and builds the authorization URL with PKCE; Debian's
 * Chromium (playwright-core) signs in and consents on the real pages; the
 * client exchanges the code, validates the id_token (signature checked
 * against the published JWKS) and reads /api/oauth/me. Then the refusals:
 * wrong redirect_uri, wrong PKCE verifier, reused code, wrong client secret,
 * revoked token, consent form posted without its CSRF token.
 */
import { existsSync } from 'node:fs';
import * as oidc from 'openid-client';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthErrorBody, TokenResponse, UserInfo } from '../../../schemas/signin.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { PASSWORD, startSignin, type SigninFixture } from './fixture.ts';
import { createCatalog } from '../../../api/marketplace/catalog.ts';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { ServicesResponse } from '../../../schemas/marketplace.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function count(f: SigninFixture, model: string): Promise<number> {
  const [r] = await f.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_payloads WHERE model = $1`, [model]);
  return r.n;
}

async function postToken(f: SigninFixture, form: Record<string, string>, basic?: [string, string]) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic[0])}:${encodeURIComponent(basic[1])}`).toString('base64')}`;
  const res = await fetch(`${f.issuer}/oauth/token`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe.skipIf(!existsSync(CHROMIUM)).each(backends)('partner sign-in end to end on $name', (backend) => {
  let db: Isolated;
  let f: SigninFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let conf: oidc.Configuration;
  let pub: oidc.Configuration;

  let REDIRECT: string;
  /** Runs a browser action; resolves with the URL the browser is then sent back to at the partner. */
  async function untilCallback(act: () => Promise<unknown>): Promise<URL> {
    const reached = f.partner.next();
    await act();
    return reached;
  }

  /** A fresh authorization of the confidential client with PKCE; returns what the exchange needs. */
  async function authorize(scope = 'openid public') {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(conf, {
      redirect_uri: REDIRECT, scope, state, ...(scope.includes('openid') ? { nonce } : {}),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    return { url, verifier, state, nonce };
  }

  beforeAll(async () => {
    db = await backend.open();
    f = await startSignin(db.sql);
    REDIRECT = f.partner.redirectUri;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ locale: 'fr-FR' });
    page = await context.newPage();
    conf = await oidc.discovery(new URL(f.issuer), f.confidential.client.client_id, f.confidential.secret, undefined, { execute: [oidc.allowInsecureRequests] });
    oidc.enableNonRepudiationChecks(conf);
    pub = await oidc.discovery(new URL(f.issuer), f.publicClient.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  });
  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await db?.cleanup();
  });

  let first: { access_token: string; code: string; verifier: string };
  let publicToken: string;
  const me = (token: string) => fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: `Bearer ${token}` } });

  it('signs in, consents once, exchanges the code, validates the id_token and reads the user-info', async () => {
    const a = await authorize();
    await page.goto(a.url.href);
    // No session yet: the sign-in form, in French (browser locale), naming the application.
    await expect(page.locator('h1').textContent()).resolves.toBe('Connexion');
    expect(await page.locator('body').textContent()).toContain('Visites Virtuelles Plus');
    await page.fill('#email', 'Julie.Tremblay@example.ca');
    await page.fill('#password', 'pas le bon mot de passe');
    await page.click('button[type=submit]');
    expect(await page.locator('.error').textContent()).toContain('incorrect');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');

    // The consent page: application name, what it will read, cannot be framed.
    await expect(page.locator('h1').textContent()).resolves.toBe('Autorisation');
    expect(await page.locator('.app').textContent()).toBe('Visites Virtuelles Plus');
    expect(await page.locator('li[data-scope]').evaluateAll((els) => els.map((e) => e.getAttribute('data-scope')))).toEqual(['openid', 'public']);
    const headers = (await page.request.get(page.url())).headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const callback = await untilCallback(() => page.click('button[value=allow]'));
    expect(callback.searchParams.get('iss')).toBe(f.issuer); // RFC 9207
    expect(callback.searchParams.get('state')).toBe(a.state);

    const tokens = await oidc.authorizationCodeGrant(conf, callback, {
      pkceCodeVerifier: a.verifier, expectedState: a.state, expectedNonce: a.nonce, idTokenExpected: true,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBeGreaterThan(99 * 365 * 24 * 3600); // "no time limit"
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: f.issuer, aud: f.confidential.client.client_id, sub: String(f.user.id), nonce: a.nonce });

    const info = UserInfo.parse(await oidc.fetchUserInfo(conf, tokens.access_token, String(f.user.id)));
    expect(info).toEqual({
      sub: String(f.user.id), id: String(f.user.id), name: 'Julie Tremblay', email: 'julie.tremblay@example.ca',
      first_name: 'Julie', last_name: 'Tremblay', location: null, description: null, image: null,
      phone: '+1 514 555 0101', urls: null, languages: ['fr', 'en'],
      extra: {
        agency: { id: String(f.user.agency.id), name: 'Immobilier Plateau', country: 'CA' },
        board: { id: String(f.user.board.id), name: 'Grand Montréal', slug: 'gmtl', default_language: 'fr-CA' },
      },
    });
    first = { access_token: tokens.access_token, code: callback.searchParams.get('code')!, verifier: a.verifier };
  });

  it("lets a marketplace supplier identify the signed-in user by the access token its application received", async () => {
    const clock = { now: () => new Date('2026-11-20T10:00:00Z') };
    const catalog = createCatalog(f.sql, clock);
    await catalog.createClient(f.user.email, {});
    await catalog.createStore({ slug: 'maison', name: 'Maison marketplace' });
    await catalog.createPartner({ code: 'VVP', name: 'Visites Virtuelles Plus' });
    await catalog.createProduct({ partner: 'VVP', sku: 'VVP-TOURS', name: 'Virtual tours' });
    await catalog.createPlan('VVP-TOURS', { sku: 'VVP-TOURS-T10', name: '10 tours', mode: 'tokens', tokens: 10 });
    const access = await catalog.grantAccess({ partner: 'VVP', store: 'maison', level: 'supplier', webhookUrl: null, oauthClientUid: f.confidential.client.client_id });
    await purchase(f.sql, catalog, { store: 'maison', user: f.user.email, plan: 'VVP-TOURS-T10' }, clock);
    const services = (token: string) => fetch(`${f.issuer}/stores/maison/fr/api/v1/services?access_token=${encodeURIComponent(token)}`, {
      headers: { apiKey: access.apiKey, apiToken: access.apiToken },
    });
    const ok = await services(first.access_token);
    expect(ok.status).toBe(200);
    const body = ServicesResponse.parse(await ok.json());
    expect(body.profile.id).toBe(f.user.id);
    expect(body.authorizations.tokens.map((t) => [t.pricing_sku, t.tokens])).toEqual([['VVP-TOURS-T10', 10]]);
    // A token the provider never issued identifies nobody.
    expect((await services('not-a-token-of-ours')).status).toBe(401);
  });

  it("does not let another application revoke a token that is not its own", async () => {
    const res = await fetch(`${f.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: first.access_token, client_id: f.publicClient.client_id }),
    });
    expect(res.status).toBe(200); // RFC 7009: the answer does not tell whether the token existed
    const me = await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(me.status).toBe(200);
  });

  it('does not ask consent again: the next authorization comes straight back with a code', async () => {
    const a = await authorize('public');
    const callback = await untilCallback(() => page.goto(a.url.href));
    const tokens = await oidc.authorizationCodeGrant(conf, callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
    expect(tokens.scope).toBe('public');
    expect(tokens.id_token).toBeUndefined();
    // Scope public alone reads the user-info.
    const me = await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(UserInfo.parse(await me.json()).id).toBe(String(f.user.id));
  });

  it('accepts a confidential client without PKCE (PKCE is required of public clients only)', async () => {
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(conf, { redirect_uri: REDIRECT, scope: 'public', state });
    const callback = await untilCallback(() => page.goto(url.href));
    const tokens = await oidc.authorizationCodeGrant(conf, callback, { expectedState: state });
    expect((await me(tokens.access_token)).status).toBe(200);
  });

  it('refuses an unregistered redirect_uri on its own page, without redirecting or creating anything', async () => {
    const before = await count(f, 'Interaction');
    const url = oidc.buildAuthorizationUrl(conf, { redirect_uri: `${REDIRECT}/other`, scope: 'openid', state: 's' });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_redirect_uri');
    expect(await count(f, 'Interaction')).toBe(before);
  });

  it('refuses a wrong PKCE verifier with invalid_grant and issues nothing', async () => {
    const a = await authorize();
    const callback = await untilCallback(() => page.goto(a.url.href));
    const tokensBefore = await count(f, 'AccessToken');
    const r = await postToken(f, {
      grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT,
      code_verifier: oidc.randomPKCECodeVerifier(),
    }, [f.confidential.client.client_id, f.confidential.secret]);
    expect(r.status).toBe(400);
    expect(OAuthErrorBody.parse(r.body)).toMatchObject({ error: 'invalid_grant' });
    expect(await count(f, 'AccessToken')).toBe(tokensBefore);
  });

  it('refuses a wrong client secret with invalid_client and issues nothing', async () => {
    const a = await authorize();
    const callback = await untilCallback(() => page.goto(a.url.href));
    const tokensBefore = await count(f, 'AccessToken');
    const form = { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: a.verifier };
    const r = await postToken(f, form, [f.confidential.client.client_id, `${f.confidential.secret}x`]);
    expect(r.status).toBe(401);
    expect(OAuthErrorBody.parse(r.body)).toMatchObject({ error: 'invalid_client' });
    // Nor with the stored hash presented as the secret.
    const [{ secret_hash }] = await f.sql.query<{ secret_hash: string }>(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [f.confidential.client.client_id]);
    expect(secret_hash).not.toContain(f.confidential.secret);
    expect((await postToken(f, form, [f.confidential.client.client_id, secret_hash])).status).toBe(401);
    expect(await count(f, 'AccessToken')).toBe(tokensBefore);
  });

  it('refuses a reused code with invalid_grant and revokes what the code issued', async () => {
    const a = await authorize();
    const callback = await untilCallback(() => page.goto(a.url.href));
    const form = { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: a.verifier };
    const auth: [string, string] = [f.confidential.client.client_id, f.confidential.secret];
    const ok = await postToken(f, form, auth);
    expect(ok.status).toBe(200);
    const { access_token } = TokenResponse.parse(ok.body);
    const again = await postToken(f, form, auth);
    expect(again.status).toBe(400);
    expect(OAuthErrorBody.parse(again.body)).toMatchObject({ error: 'invalid_grant' });
    const me = await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    // The grant went with it: the first token too, and the next authorization asks consent again.
    expect((await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: `Bearer ${first.access_token}` } })).status).toBe(401);
  });

  it('asks consent again after a revocation, and a revoked token reads nothing', async () => {
    const a = await authorize();
    await page.goto(a.url.href);
    await expect(page.locator('h1').textContent()).resolves.toBe('Autorisation');
    const callback = await untilCallback(() => page.click('button[value=allow]'));
    const tokens = await oidc.authorizationCodeGrant(conf, callback, { pkceCodeVerifier: a.verifier, expectedState: a.state, expectedNonce: a.nonce });
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${f.issuer}/api/oauth/me`, { headers: bearer })).status).toBe(200);
    await oidc.tokenRevocation(conf, tokens.access_token); // RFC 7009
    const me = await fetch(`${f.issuer}/api/oauth/me`, { headers: bearer });
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*", error="invalid_token"/);
    expect(OAuthErrorBody.parse(await me.json()).error).toBe('invalid_token');
    expect(await count(f, 'Grant')).toBe(0);
  });

  it('answers 401 with WWW-Authenticate: Bearer for a missing or unknown token', async () => {
    const none = await fetch(`${f.issuer}/api/oauth/me`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="${f.issuer}"`);
    expect(OAuthErrorBody.parse(await none.json()).error).toBe('invalid_token');
    const unknown = await fetch(`${f.issuer}/api/oauth/me`, { headers: { authorization: 'Bearer notatoken' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('public client: PKCE is required; the consent form without its CSRF token is refused; in English', async () => {
    // Without a code_challenge the public client is sent back with invalid_request.
    const noPkce = oidc.buildAuthorizationUrl(pub, { redirect_uri: REDIRECT, scope: 'public', state: 'np' });
    const refused = await untilCallback(() => page.goto(noPkce.href));
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toMatch(/PKCE/);

    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(pub, {
      redirect_uri: REDIRECT, scope: 'public', state: 'pk', ui_locales: 'en',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    await page.goto(url.href);
    await expect(page.locator('h1').textContent()).resolves.toBe('Authorization');
    expect(await page.locator('.app').textContent()).toBe('Carnet Mobile');
    const action = new URL((await page.locator('form').getAttribute('action'))!, f.issuer).href;
    const grantsBefore = await count(f, 'Grant');
    const forged = await page.request.post(action, { form: { decision: 'allow' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('CSRF');
    const wrong = await page.request.post(action, { form: { decision: 'allow', csrf: 'x'.repeat(43) }, maxRedirects: 0 });
    expect(wrong.status()).toBe(403);
    expect(await count(f, 'Grant')).toBe(grantsBefore);
    expect(await count(f, 'AuthorizationCode')).toBe(0);

    // The real form still works.
    const callback = await untilCallback(() => page.click('button[value=allow]'));
    const tokens = await oidc.authorizationCodeGrant(pub, callback, { pkceCodeVerifier: verifier, expectedState: 'pk' });
    expect(tokens.scope).toBe('public');
    publicToken = tokens.access_token;
  });

  it('remembers consent per user and application across browser sessions', async () => {
    const other = await browser.newContext({ locale: 'en-GB' });
    const p = await other.newPage();
    try {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(pub, {
        redirect_uri: REDIRECT, scope: 'public', state: 'again',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      });
      await p.goto(url.href);
      await expect(p.locator('h1').textContent()).resolves.toBe('Sign in');
      // The sign-in form is CSRF-protected too: posted without its token, nothing happens.
      const action = new URL((await p.locator('form').getAttribute('action'))!, f.issuer).href;
      const forged = await p.request.post(action, { form: { email: 'julie.tremblay@example.ca', password: PASSWORD }, maxRedirects: 0 });
      expect(forged.status()).toBe(403);
      expect(forged.headers()['set-cookie'] ?? '').not.toContain('_session');
      await p.fill('#email', 'julie.tremblay@example.ca');
      await p.fill('#password', PASSWORD);
      // Consent was given to this application in the other browser: straight back with a code.
      const callback = await untilCallback(() => p.click('button[type=submit]'));
      expect(callback.searchParams.get('code')).toBeTruthy();
    } finally {
      await other.close();
    }
  });

  it('sends the user back with access_denied when they deny, and records no consent', async () => {
    const a = await authorize();
    await page.goto(a.url.href);
    await expect(page.locator('h1').textContent()).resolves.toBe('Autorisation');
    const grants = await count(f, 'Grant');
    const callback = await untilCallback(() => page.click('button[value=deny]'));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(a.state);
    expect(callback.searchParams.get('iss')).toBe(f.issuer);
    expect(callback.searchParams.get('code')).toBeNull();
    expect(await count(f, 'Grant')).toBe(grants);
  });

  it('limits sign-in attempts per e-mail address: past the limit even the right password is refused', async () => {
    const other = await f.accounts.createUser({
      agency_id: f.user.agency.id, email: 'marc.gagnon@example.ca', first_name: 'Marc', last_name: 'Gagnon', password: PASSWORD,
    });
    const ctx = await browser.newContext({ locale: 'fr-CA' });
    const p = await ctx.newPage();
    try {
      await p.goto((await authorize()).url.href);
      for (let i = 0; i < 3; i++) {
        await p.fill('#email', other.email);
        await p.fill('#password', `mauvais mot de passe ${i}`);
        await p.click('button[type=submit]');
        expect(await p.locator('.error').textContent()).toContain('incorrect');
      }
      await p.fill('#password', PASSWORD);
      const [response] = await Promise.all([p.waitForResponse((r) => r.request().method() === 'POST'), p.click('button[type=submit]')]);
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      expect(await p.locator('.error').textContent()).toContain('Trop de tentatives');
      expect(await p.locator('h1').textContent()).toBe('Connexion');
    } finally {
      await ctx.close();
    }
  });

  it('answers unknown sign-in paths in the OAuth form and tags provider responses with the request id', async () => {
    for (const path of ['/oauth/nothing', '/api/oauth/nothing']) {
      const res = await fetch(`${f.issuer}${path}`);
      expect(res.status).toBe(404);
      expect(OAuthErrorBody.parse(await res.json()).error).toBe('invalid_request');
    }
    // An interaction page without its cookie (expired, or opened in another browser): an error page.
    const stray = await fetch(`${f.issuer}/oauth/interaction/abcdefghijklmnopqrstu`, { headers: { 'accept-language': 'en' } });
    expect(stray.status).toBe(400);
    expect(stray.headers.get('x-frame-options')).toBe('DENY');
    expect(await stray.text()).toContain('expired or was opened in another browser');
    const discovery = await fetch(`${f.issuer}/.well-known/openid-configuration`, { headers: { 'x-request-id': 'req-signin-1' } });
    expect(discovery.headers.get('x-request-id')).toBe('req-signin-1');
    const password = await postToken(f, { grant_type: 'password', username: 'x', password: 'y' }, [f.confidential.client.client_id, f.confidential.secret]);
    expect(password.status).toBe(400);
    expect(OAuthErrorBody.parse(password.body).error).toBe('unsupported_grant_type');
  });

  it('stops serving a token once the operator revokes the application or disables the user', async () => {
    expect((await me(publicToken)).status).toBe(200);
    await f.clients.revoke(f.publicClient.client_id);
    const revoked = await me(publicToken);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const a = await authorize('public');
    await page.goto(a.url.href); // the last consent to this application was withdrawn above
    const callback = await untilCallback(() => page.click('button[value=allow]'));
    const tokens = await oidc.authorizationCodeGrant(conf, callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
    expect((await me(tokens.access_token)).status).toBe(200);
    await f.accounts.disableUser(f.user.id);
    expect((await me(tokens.access_token)).status).toBe(401);
  });
});
