import { describe, expect, it } from 'vitest';
import { loadConfig, publicUrl } from '../../../api/config.ts';
import { csrfToken, csrfValid, parseCookies } from '../../../api/signin/csrf.ts';
import { consentPage, errorPage, loginPage, PAGE_HEADERS, pickLang } from '../../../api/signin/pages.ts';
import { userInfo } from '../../../api/signin/userinfo.ts';
import { UserInfo } from '../../../schemas/signin.ts';

describe('page language', () => {
  it('takes ui_locales first, then Accept-Language by weight, else French', () => {
    expect(pickLang('de en-GB', 'fr')).toBe('en');
    expect(pickLang(undefined, 'de-DE,en;q=0.8,fr;q=0.9')).toBe('fr');
    expect(pickLang(undefined, 'de, en-US;q=0.5')).toBe('en');
    expect(pickLang(undefined, 'en;q=0, de')).toBe('fr');
    expect(pickLang('es', undefined)).toBe('fr');
  });
});

describe('pages', () => {
  const form = { lang: 'en' as const, uid: 'abc', csrf: 'tok"en', clientName: '<script>alert(1)</script>' };
  it('escape every value and carry the CSRF token', () => {
    const html = loginPage({ ...form, email: '"><b>' });
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('name="csrf" value="tok&quot;en"');
    expect(html).toContain('value="&quot;&gt;&lt;b&gt;"');
    expect(html).toContain('action="/oauth/interaction/abc/login"');
  });
  it('show what the application will read, in the page language', () => {
    const fr = consentPage({ ...form, lang: 'fr', userName: 'Julie', scopes: ['public', 'openid', 'other'] });
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('data-scope="public"');
    expect(fr).toContain('data-scope="openid"');
    expect(fr).not.toContain('data-scope="other"');
    expect(fr).toContain('Autoriser');
    expect(errorPage('en', 'invalid_request', 'x<y')).toContain('x&lt;y');
  });
  it('cannot be framed and run no script', () => {
    expect(PAGE_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(PAGE_HEADERS['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(PAGE_HEADERS['Content-Security-Policy']).toMatch(/^default-src 'none'/);
    expect(PAGE_HEADERS['Content-Security-Policy']).not.toContain('script-src');
  });
});

describe('CSRF token', () => {
  it('is bound to the browser cookie and the interaction', () => {
    const t = csrfToken('key', 'nonce', 'uid1');
    expect(csrfValid('key', 'nonce', 'uid1', t)).toBe(true);
    expect(csrfValid('key', 'other', 'uid1', t)).toBe(false);
    expect(csrfValid('key', 'nonce', 'uid2', t)).toBe(false);
    expect(csrfValid('key2', 'nonce', 'uid1', t)).toBe(false);
    expect(csrfValid('key', undefined, 'uid1', t)).toBe(false);
    expect(csrfValid('key', 'nonce', 'uid1', undefined)).toBe(false);
    expect(parseCookies('a=1; signin_csrf=xyz; b=')).toEqual({ a: '1', signin_csrf: 'xyz', b: '' });
  });
});

describe('user-info', () => {
  it('has exactly the fields of spec 2.1 in the OpenID Connect form', () => {
    const now = new Date();
    const info = userInfo({
      id: 12, uid: 'u', agency_id: 3, email: 'a@b.example', first_name: 'Léa', last_name: 'Martin', username: null,
      languages: ['fr'], phone: null, image_url: 'https://img.example/a.jpg', sign_in_count: 1, disabled_at: null,
      created_at: now, updated_at: now,
      agency: { id: 3, board_id: 2, name: 'Agence', country: 'FR', created_at: now },
      board: { id: 2, slug: 'paris', name: 'Paris', default_language: 'fr', created_at: now },
    });
    expect(UserInfo.parse(info)).toEqual(info);
    expect(Object.keys(info)).toEqual([
      'sub', 'id', 'name', 'email', 'first_name', 'last_name', 'location', 'description', 'image', 'phone', 'urls', 'languages', 'extra',
    ]);
    expect(info).toMatchObject({ sub: '12', id: '12', name: 'Léa Martin', image: 'https://img.example/a.jpg', extra: { agency: { id: '3' }, board: { id: '2', slug: 'paris' } } });
  });
});

describe('sign-in configuration', () => {
  it('takes PUBLIC_URL as an origin, defaults to localhost:PORT, refuses a path', () => {
    expect(publicUrl(loadConfig({ PORT: '4000' }))).toBe('http://localhost:4000');
    expect(publicUrl(loadConfig({ PUBLIC_URL: 'https://signin.example.com/' }))).toBe('https://signin.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'https://example.com/signin' })).toThrow(/PUBLIC_URL: an http\(s\) origin/);
    expect(() => loadConfig({ SIGNIN_COOKIE_SECRET: 'short' })).toThrow(/SIGNIN_COOKIE_SECRET: at least 32 characters/);
  });
});
