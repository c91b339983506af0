/**
 * The client space as a client lives it, in Debian's Chromium (playwright-core): sign in
 * through the partner sign-in's form; see the agency's keys and their use; revoke and replace
 * a key (the old one refused by the location API at once, the new one served); a user of
 * another agency sees none of them; the services and their balance after a debit made through
 * the marketplace API; "Open" lands in the partner application signed in as the same user
 * with no password asked; axe-core finds no serious or critical violation in either language.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type Isolated } from '../core/state/backends.ts';
import { PASSWORD, signIn, startSpace, type SpaceFixture } from './fixture.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LOCATION = '/api/v1/fr/location?lat=48.86305&lng=2.36196';

/** Serious and critical axe-core violations of the page, as "rule: target" strings. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } })
      .axe.run({ resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return result;
}

describe.skipIf(!existsSync(CHROMIUM)).each(backends)('client space in Chromium on $name', (backend) => {
  let db: Isolated;
  let f: SpaceFixture;
  let browser: Browser;
  let alice: BrowserContext;
  let page: Page;
  const locate = (key: string) => fetch(f.issuer + LOCATION, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    db = await backend.open();
    f = await startSpace(db.sql);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    alice = await browser.newContext({ locale: 'fr-FR' });
    page = await alice.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await db?.cleanup();
  });

  it('signs in through the sign-in form (no consent for the space) and shows the agency’s keys and their use', async () => {
    await page.goto(`${f.issuer}/space`);
    expect(await page.locator('h1').textContent()).toBe('Espace client');
    const headers = (await page.request.get(`${f.issuer}/space`)).headers();
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");

    await page.click('a.button[href^="/space/login"]');
    // The partner sign-in's own form, naming the space as the application.
    expect(page.url()).toContain('/oauth/interaction/');
    expect(await page.locator('h1').textContent()).toBe('Connexion');
    await page.fill('#email', 'alice@marais.example.fr');
    await page.fill('#password', 'pas le bon');
    await page.click('button[type=submit]');
    expect(await page.locator('.error').textContent()).toContain('incorrect');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(/\/space\?lang=fr$/), page.click('button[type=submit]')]);

    expect(await page.locator('header').textContent()).toContain('Alice Martin');
    const cards = page.locator('section.card[data-fingerprint]');
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-fingerprint')))).toEqual(
      [f.sandboxKey.fingerprint.slice(0, 12), f.liveKey.fingerprint.slice(0, 12)],
    );
    const live = page.locator(`section[data-fingerprint="${f.liveKey.fingerprint.slice(0, 12)}"]`);
    expect(await live.locator('h3').textContent()).toContain('Site web');
    expect(await live.locator('dd.usage').textContent()).toMatch(/^57 sur 100\s000$/);
    expect(await live.locator('dl').textContent()).toContain('production');
    // 30 bars and a 30-row table with the same figures.
    expect(await live.locator('svg rect').count()).toBe(30);
    const rows = await live.locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toHaveLength(30);
    expect(rows[0]![0]).toBe('2026-10-22');
    expect(rows.at(-1)).toEqual(['2026-11-20', '5']);
    expect(rows.find((r) => r[0] === '2026-11-18')).toEqual(['2026-11-18', '40']);
    expect(await live.locator('svg rect title').allTextContents()).toContain('2026-11-18: 40');
    // Agency B's key is nowhere on the page.
    expect(await page.content()).not.toContain(f.otherKey.fingerprint.slice(0, 12));
  });

  it('counts units of a request in the chart and the period', async () => {
    expect((await locate(f.liveKey.key)).status).toBe(200);
    await page.goto(`${f.issuer}/space`);
    const live = page.locator(`section[data-fingerprint="${f.liveKey.fingerprint.slice(0, 12)}"]`);
    expect(await live.locator('dd.usage').textContent()).toMatch(/^58 sur/);
    expect(await live.locator('table tbody tr').last().textContent()).toBe('2026-11-206');
  });

  let newKey = '';
  it('revokes and replaces a key: the new key shown once, the old one refused at once, the new one served', async () => {
    const live = page.locator(`section[data-fingerprint="${f.liveKey.fingerprint.slice(0, 12)}"]`);
    await live.locator('button', { hasText: 'Révoquer et remplacer' }).click();
    newKey = await page.locator('#new-key').inputValue();
    expect(newKey).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(await page.locator('.notice.ok[role=status]').first().textContent()).toContain(f.liveKey.fingerprint.slice(0, 12));
    // The copy button is shown by the page's own script (allowed by the CSP).
    await expect.poll(() => page.locator('button[data-copy]').isVisible()).toBe(true);
    expect((await locate(f.liveKey.key)).status).toBe(401);
    expect((await locate(newKey)).status).toBe(200);
    // Same label, countries, domains, sandbox flag and agency.
    const replacement = (await f.keys.listForAgency(f.users.alice.agency_id)).find((k) => k.revokedAt === null && k.label === 'Site web')!;
    expect(replacement).toMatchObject({ countries: ['fr'], domains: ['location', 'market'], sandbox: false, agencyId: f.users.alice.agency_id });
    // Listed as an action, by whom; the key is never shown again.
    const actions = await page.locator('#actions tbody tr').allTextContents();
    expect(actions[0]).toContain('Alice Martin <alice@marais.example.fr>');
    expect(actions.some((a) => a.includes('révocation et remplacement') && a.includes(f.liveKey.fingerprint.slice(0, 12)))).toBe(true);
    await page.goto(`${f.issuer}/space`);
    expect(await page.content()).not.toContain(newKey);
    expect(await page.locator('#new-key').count()).toBe(0);
  });

  it('shows another agency’s user only that agency’s keys', async () => {
    const carol = await browser.newContext({ locale: 'fr-FR' });
    try {
      const p = await carol.newPage();
      await signIn(p, f.issuer, 'carol@bastille.example.fr');
      expect(await p.locator('section.card[data-fingerprint]').evaluateAll((els) => els.map((e) => e.getAttribute('data-fingerprint')))).toEqual([f.otherKey.fingerprint.slice(0, 12)]);
      const html = await p.content();
      for (const fp of [f.liveKey.fingerprint, f.sandboxKey.fingerprint]) expect(html).not.toContain(fp.slice(0, 12));
      expect(html).not.toContain('Alice Martin');
      expect(await p.locator('#svc-h + p').textContent()).toBe('Vous n’avez pas de service actif.');
    } finally {
      await carol.close();
    }
  });

  it('lists the services with the token balance of spec 2.4, following a debit made through the marketplace API', async () => {
    await page.goto(`${f.issuer}/space`);
    const tours = page.locator('[data-product="VVP-TOURS"]');
    expect(await tours.locator('.balance').textContent()).toBe('20');
    expect(await tours.locator('tbody tr').count()).toBe(2);
    expect(await tours.locator('dl').textContent()).toContain('jamais');
    expect(await page.locator('[data-product="VVP-STATS"] tbody').textContent()).toContain('abonnement mensuel');
    const res = await fetch(`${f.issuer}/stores/maison/fr/api/v1/services/debit/${f.tokenAuthorizationId}/13`, {
      method: 'POST', headers: { apiKey: f.owner.apiKey, apiToken: f.owner.apiToken, 'content-type': 'application/json' }, body: '{}',
    });
    expect(res.status).toBe(200);
    await page.reload();
    expect(await tours.locator('.balance').textContent()).toBe('7');
    expect(await tours.locator('tbody').textContent()).toMatch(/0.*7|7.*0/s);
    expect(await tours.locator('dl').textContent()).not.toContain('jamais');
  });

  it('opens the partner application by third-party initiated login, signed in as the same user without a password', async () => {
    await page.goto(`${f.issuer}/space`);
    await page.locator('[data-product="VVP-TOURS"] a.button').click();
    // First time for this application: consent, once; never the password form.
    await page.waitForSelector('h1');
    expect(await page.locator('h1').textContent()).toBe('Autorisation');
    expect(await page.locator('#password').count()).toBe(0);
    await Promise.all([page.waitForURL(`${f.partner.origin}/callback?**`), page.click('button[value=allow]')]);
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice@marais.example.fr');
    const init = f.partner.initiations.at(-1)!;
    expect(init.get('iss')).toBe(f.issuer);
    expect(init.get('login_hint')).toBe('alice@marais.example.fr');
    expect(init.get('target_link_uri')).toBe(`${f.partner.origin}/`);
    expect(f.partner.initiations).toHaveLength(1);

    // The second time: straight in, no page of ours in between.
    await page.goto(`${f.issuer}/space`);
    await Promise.all([page.waitForURL(`${f.partner.origin}/callback?**`), page.locator('[data-product="VVP-TOURS"] a.button').click()]);
    expect(await page.locator('#who').textContent()).toBe('Signed in as alice@marais.example.fr');
    expect(f.partner.initiations).toHaveLength(2);
  });

  it('has no serious or critical accessibility violation, in French and in English, and reads at mobile width', async () => {
    await page.goto(`${f.issuer}/space?lang=fr`);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${f.issuer}/space?lang=en`);
    expect(await page.locator('h1').textContent()).toBe('Client space');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    // Nothing wider than the screen but the scrolling tables and the chart, which scales.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const signedOut = await browser.newContext({ locale: 'en-GB' });
    try {
      const p = await signedOut.newPage();
      await p.goto(`${f.issuer}/space`);
      expect(await p.locator('h1').textContent()).toBe('Client space');
      expect(await axeViolations(p)).toEqual([]);
    } finally {
      await signedOut.close();
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it('signs out: the session of the sign-in ends too', async () => {
    await page.goto(`${f.issuer}/space?lang=fr`);
    await page.click('header button[type=submit]');
    expect(await page.locator('.notice.ok').textContent()).toBe('Vous êtes déconnecté.');
    await page.goto(`${f.issuer}/space`);
    expect(await page.locator('a.button[href^="/space/login"]').count()).toBe(1);
    // Opening the sign-in again asks for the password.
    await page.click('a.button[href^="/space/login"]');
    expect(await page.locator('#password').count()).toBe(1);
  });
});
