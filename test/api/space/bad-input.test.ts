/**
 * What the client space does with bad input: every field and parameter refused with the page
 * and a clear message, or a 4xx page; never a 500, never half an action. The user signs in in
 * Chromium; the forms are then posted by the browser context's own request client (same
 * cookies), as a person replaying or tampering with them would.
 */
import { existsSync } from 'node:fs';
import { chromium, type APIResponse, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type Isolated } from '../core/state/backends.ts';
import { PASSWORD, signIn, startSpace, type SpaceFixture } from './fixture.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM)).each(backends)('client space refusals on $name', (backend) => {
  let db: Isolated;
  let f: SpaceFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    db = await backend.open();
    f = await startSpace(db.sql);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ locale: 'en-GB', extraHTTPHeaders: { 'accept-language': 'en-GB' } });
    page = await context.newPage();
    await signIn(page, f.issuer, 'bob@marais.example.fr');
  });
  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await db?.cleanup();
  });

  /** A fresh CSRF token, as the page gives it. */
  async function csrf(): Promise<string> {
    const html = await (await context.request.get(`${f.issuer}/space`)).text();
    return /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  }
  const post = (path: string, form: Record<string, string> | string, headers: Record<string, string> = {}) =>
    context.request.post(`${f.issuer}${path}`, {
      ...(typeof form === 'string' ? { data: form, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } } : { form, headers }),
      maxRedirects: 0,
    });
  const get = (path: string) => context.request.get(`${f.issuer}${path}`, { maxRedirects: 0 });
  /** Every answer of the space: its own HTML page with the headers of the sign-in pages, never a 5xx. */
  async function page4xx(res: APIResponse, status: number, message?: string | RegExp): Promise<string> {
    expect(res.status()).toBe(status);
    expect(res.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers()['x-frame-options']).toBe('DENY');
    expect(res.headers()['content-security-policy']).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/at \w+ \(|node_modules|stack/i);
    if (message) expect(html).toMatch(message);
    return html;
  }
  const active = async () => (await f.keys.listForAgency(f.users.bob.agency_id)).filter((k) => k.revokedAt === null).map((k) => k.fingerprint).sort();
  const count = async () => (await f.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_keys`))[0]!.n;

  it('refuses a form without its CSRF token, or with a forged one, doing nothing', async () => {
    const before = await active();
    await page4xx(await post('/space/keys/revoke', { fingerprint: f.sandboxKey.fingerprint }), 403, /expired or was already sent/);
    await page4xx(await post('/space/keys/revoke', { fingerprint: f.sandboxKey.fingerprint, csrf: 'A'.repeat(43) }), 403, /expired or was already sent/);
    await page4xx(await post('/space/keys/replace', { fingerprint: f.sandboxKey.fingerprint, csrf: '<script>' }), 403);
    // A JSON body is no form: refused before any token is read from it.
    const json = await context.request.post(`${f.issuer}/space/keys/revoke`, { data: { fingerprint: f.sandboxKey.fingerprint, csrf: await csrf() }, maxRedirects: 0 });
    await page4xx(json, 415, /only the forms of the page are accepted/);
    await page4xx(await post('/space/logout', {}), 403);
    expect(await active()).toEqual(before);
  });

  it('refuses malformed fields with a message naming the field', async () => {
    const before = await active();
    const cases: [string, RegExp][] = [
      [`fingerprint=${encodeURIComponent(f.sandboxKey.fingerprint.slice(0, 63))}%00`, /key: contains a control character/],
      [`fingerprint=${'a'.repeat(5000)}`, /key: longer than 64 characters/],
      [`fingerprint=${f.sandboxKey.fingerprint.toUpperCase()}`, /key: expected a key fingerprint/],
      [`fingerprint=${f.sandboxKey.fingerprint}&fingerprint=${f.liveKey.fingerprint}`, /key: sent more than once/],
      ['fingerprint=', /key: missing/],
      [`fingerprint=%E2%80%AE${f.sandboxKey.fingerprint.slice(1)}`, /key: expected a key fingerprint/],
    ];
    for (const [body, message] of cases) {
      await page4xx(await post('/space/keys/revoke', `${body}&csrf=${await csrf()}`), 400, message);
    }
    // Beyond the form size limit: a 4xx page, not a crash.
    await page4xx(await post('/space/keys/revoke', `fingerprint=${'a'.repeat(20_000)}&csrf=x`), 413, /form too large/);
    await page4xx(await context.request.post(`${f.issuer}/space/keys/revoke`, { data: 'x', headers: { 'content-type': 'application/xml' }, maxRedirects: 0 }), 415);
    expect(await active()).toEqual(before);
  });

  it('finds no key of another agency, whatever fingerprint is sent', async () => {
    await page4xx(await post('/space/keys/revoke', { fingerprint: f.otherKey.fingerprint, csrf: await csrf() }), 404, /No key of your agency has this fingerprint/);
    await page4xx(await post('/space/keys/replace', { fingerprint: f.otherKey.fingerprint, csrf: await csrf() }), 404, /No key of your agency/);
    await page4xx(await post('/space/keys/revoke', { fingerprint: 'f'.repeat(64), csrf: await csrf() }), 404);
    expect((await f.keys.findActive(f.otherKey.key))?.fingerprint).toBe(f.otherKey.fingerprint);
  });

  it('does a form posted twice once: the replayed token is refused, a fresh one finds the key revoked', async () => {
    const keysBefore = await count();
    const token = await csrf();
    const first = await post('/space/keys/replace', { fingerprint: f.sandboxKey.fingerprint, csrf: token });
    expect(first.status()).toBe(200);
    expect(await first.text()).toMatch(/id="new-key" readonly value="svc_test_/);
    expect(await count()).toBe(keysBefore + 1);
    await page4xx(await post('/space/keys/replace', { fingerprint: f.sandboxKey.fingerprint, csrf: token }), 403, /already sent/);
    await page4xx(await post('/space/keys/replace', { fingerprint: f.sandboxKey.fingerprint, csrf: await csrf() }), 409, /was already revoked: nothing was done/);
    await page4xx(await post('/space/keys/revoke', { fingerprint: f.sandboxKey.fingerprint, csrf: await csrf() }), 409, /already revoked/);
    // One replacement, one audit line for it.
    expect(await count()).toBe(keysBefore + 1);
    const actions = await f.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM key_actions WHERE fingerprint = $1 AND action = 'replace'`, [f.sandboxKey.fingerprint]);
    expect(actions[0]!.n).toBe(1);
  });

  it('refuses bad parameters of "Open" and of the sign-in callback', async () => {
    // Bob holds no service.
    await page4xx(await get('/space/open?store=maison&product=VVP-TOURS'), 404, /not active for you/);
    await page4xx(await get('/space/open?store=maison&product=VVP%00TOURS'), 400, /product: contains a control character/);
    await page4xx(await get('/space/open?store=maison&store=autre&product=VVP-TOURS'), 400, /store: sent more than once/);
    await page4xx(await get(`/space/open?store=${'m'.repeat(300)}&product=VVP-TOURS`), 400, /store: longer than/);
    await page4xx(await get('/space/open'), 400, /store: missing/);
    await page4xx(await get('/space/callback?code=abc&state=def'), 400, /did not complete/);
    await page4xx(await get('/space/callback?error=access_denied&state=x'), 400, /cancelled/);
    await page4xx(await get('/space/callback?error=%00'), 400);
    await page4xx(await get('/space/nothing-here'), 404, /does not exist/);
    // An unusable language is ignored, not an error.
    const res = await get('/space?lang=%00%FF');
    expect(res.status()).toBe(200);
  });

  it('applies the sign-in form’s attempt limit per address to the space’s sign-in', async () => {
    const other = await browser.newContext({ locale: 'en-GB' });
    try {
      const p = await other.newPage();
      await p.goto(`${f.issuer}/space/login?lang=en`);
      // SIGNIN_ATTEMPTS_PER_MINUTE is 5 in the fixture.
      for (let i = 0; i < 5; i++) {
        await p.fill('#email', 'carol@bastille.example.fr');
        await p.fill('#password', `wrong ${i}`);
        await p.click('button[type=submit]');
        expect(await p.locator('.error').textContent()).toBe('Wrong e-mail address or password.');
      }
      await p.fill('#email', 'carol@bastille.example.fr');
      await p.fill('#password', PASSWORD);
      await p.click('button[type=submit]');
      expect(await p.locator('.error').textContent()).toMatch(/^Too many sign-in attempts for this account/);
      expect(p.url()).toContain('/oauth/interaction/');
    } finally {
      await other.close();
    }
  });

  it('answers a form of a signed-out browser with the sign-in page, doing nothing', async () => {
    const other = await browser.newContext({ locale: 'en-GB', extraHTTPHeaders: { 'accept-language': 'en-GB' } });
    try {
      const res = await other.request.post(`${f.issuer}/space/keys/revoke`, { form: { fingerprint: f.liveKey.fingerprint, csrf: await csrf() }, maxRedirects: 0 });
      await page4xx(res, 401, /Sign in to continue/);
      expect(await f.keys.findActive(f.liveKey.key)).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});
