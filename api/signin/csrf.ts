/**
 * CSRF protection of the interaction forms: a random value in an HttpOnly
 * cookie (set when a form is shown) and, in the form, an HMAC binding that
 * value to the interaction. A forged cross-site post lacks the token; a token
 * copied from another browser or interaction does not match.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE = 'signin_csrf';

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

export const newCsrfNonce = () => randomBytes(24).toString('base64url');

export const csrfToken = (key: string, nonce: string, uid: string) =>
  createHmac('sha256', key).update(`csrf:${uid}:${nonce}`).digest('base64url');

export function csrfCookie(nonce: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${nonce}; Path=/oauth/interaction; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** True when the form's token matches the cookie and the interaction. */
export function csrfValid(key: string, nonce: string | undefined, uid: string, token: unknown): boolean {
  if (!nonce || typeof token !== 'string') return false;
  const expected = Buffer.from(csrfToken(key, nonce, uid));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
