/**
 * The sign-in flow driven over plain HTTP (no browser): a cookie jar, the authorization request,
 * the sign-in form and the consent form posted as a browser would post them, and the callback's
 * code. Used where the flow is a means (bad-input suites), not the subject (flow.test.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SigninFixture } from './fixture.ts';
import { PASSWORD } from './fixture.ts';

export class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export async function get(url: string, jar: Jar): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.take(res);
  return res;
}

export async function postForm(url: string, jar: Jar, form: Record<string, string> | string): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
  jar.take(res);
  return res;
}

const absolute = (f: SigninFixture, location: string) => new URL(location, f.issuer).href;
export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

export interface Pending { jar: Jar; interaction: string; csrf: string; verifier: string; state: string }

/** Starts an authorization of the confidential client (PKCE); returns the sign-in form's interaction. */
export async function startAuthorization(f: SigninFixture, scope = 'openid public'): Promise<Pending> {
  const jar = new Jar();
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const q = new URLSearchParams({
    client_id: f.confidential.client.client_id, redirect_uri: f.partner.redirectUri, response_type: 'code', scope, state,
    nonce: 'n-1', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  });
  const res = await get(`${f.issuer}/oauth/authorize?${q}`, jar);
  if (res.status !== 303) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  const interaction = absolute(f, res.headers.get('location')!);
  const page = await get(interaction, jar);
  return { jar, interaction, csrf: csrfOf(await page.text()), verifier, state };
}

/** Follows redirects (303/302) until the partner's callback; returns its URL. */
async function untilCallback(f: SigninFixture, jar: Jar, res: Response): Promise<URL> {
  let r = res;
  for (let i = 0; i < 8; i++) {
    const location = r.headers.get('location');
    if (!location) throw new Error(`no redirect: ${r.status} ${await r.text()}`);
    const url = new URL(location, f.issuer);
    if (url.href.startsWith(f.partner.redirectUri)) return url;
    r = await get(url.href, jar);
    if (r.status === 200) {
      // The consent page: allow.
      const html = await r.text();
      r = await postForm(`${url.href}/confirm`, jar, { csrf: csrfOf(html), decision: 'allow' });
    }
  }
  throw new Error('too many redirects');
}

/** Signs in and consents; returns the authorization code and what the exchange needs. */
export async function authorizationCode(f: SigninFixture): Promise<{ code: string; verifier: string }> {
  const p = await startAuthorization(f);
  const res = await postForm(`${p.interaction}/login`, p.jar, { csrf: p.csrf, email: f.user.email, password: PASSWORD });
  const callback = await untilCallback(f, p.jar, res);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  return { code, verifier: p.verifier };
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** An access token of the fixture's user for the confidential client. */
export async function accessToken(f: SigninFixture): Promise<string> {
  const { code, verifier } = await authorizationCode(f);
  const res = await fetch(`${f.issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(f.confidential.client.client_id, f.confidential.secret) },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: f.partner.redirectUri, code_verifier: verifier }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}
