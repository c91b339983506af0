/**
 * Contracts of the partner sign-in (spec partner-signin-and-marketplace.md,
 * sections 2.1, 2.2, 4.1 and 5).
 */
import { z } from 'zod';
import { LANGUAGE } from './accounts.ts';
import { safeText } from './inputs.ts';

/** Sign-in scopes (spec 2.2): `openid` gives what `public` gives, plus an id_token. */
export const SIGNIN_SCOPES = ['public', 'openid'] as const;
export type SigninScope = (typeof SIGNIN_SCOPES)[number];

/**
 * The user-info (spec 2.1) in the OpenID Connect user-info form: `sub` (the
 * OIDC subject, equal to `id`) then exactly the fields of the table. Types of
 * location, description, phone and urls when not null are not shown by the
 * spec: the account model has a phone (string), the others are always null.
 */
export const UserInfo = z
  .object({
    sub: z.string(),
    id: z.string(),
    name: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    location: z.null(),
    description: z.null(),
    image: z.url().nullable(),
    phone: z.string().nullable(),
    urls: z.null(),
    languages: z.array(LANGUAGE),
    extra: z
      .object({
        agency: z.object({ id: z.string(), name: z.string(), country: z.string().regex(/^[A-Z]{2}$/) }).strict(),
        board: z
          .object({ id: z.string(), name: z.string(), slug: z.string(), default_language: LANGUAGE })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type UserInfo = z.infer<typeof UserInfo>;

/** The error body of the OAuth endpoints (RFC 6749 section 5.2, RFC 6750 section 3). */
export const OAuthErrorBody = z
  .object({
    error: z.string().regex(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/),
    error_description: z.string().optional(),
  })
  .strict();
export type OAuthErrorBody = z.infer<typeof OAuthErrorBody>;

/** The token response (RFC 6749 section 5.1) as this provider answers it. */
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  scope: z.string(),
  id_token: z.string().optional(),
});

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/**
 * A redirect URI a partner registers: absolute, https (http only for the
 * loopback host, for development), no fragment (RFC 6749 section 3.1.2).
 */
export const RedirectUri = z.string().superRefine((value, ctx) => {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `not an absolute URL: ${value}` });
    return;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback))
    ctx.addIssue({ code: 'custom', message: `must use https (http only on localhost): ${value}` });
  if (u.hash !== '' || value.includes('#')) ctx.addIssue({ code: 'custom', message: `must not contain a fragment: ${value}` });
});

export const ClientInput = z.object({
  name: z.string().trim().min(1).max(200),
  redirect_uris: z.array(RedirectUri).min(1, 'at least one redirect URI').max(20),
  client_type: z.enum(CLIENT_TYPES),
  /**
   * Where the client space sends a user opening one of the partner's services: third-party
   * initiated login (OpenID Connect Core 1.0 section 4). Validated as redirect URIs are.
   */
  initiate_login_uri: RedirectUri.pipe(z.string().max(2000)).nullish().transform((v) => v ?? null),
});
export type ClientInput = z.infer<typeof ClientInput>;

/**
 * The sign-in form of the interaction page (application/x-www-form-urlencoded only): text the
 * store can hold, each field once. Empty fields are answered by the form itself.
 */
export const LoginForm = z.object({
  email: safeText({ min: 0, max: 320, trim: true }).optional(),
  password: safeText({ min: 0, max: 1024 }).optional(),
  csrf: safeText({ min: 0, max: 200 }).optional(),
});
export type LoginForm = z.infer<typeof LoginForm>;

/** The consent form: `decision=allow` gives consent, anything else refuses it. */
export const ConsentForm = z.object({
  decision: safeText({ min: 0, max: 20 }).optional(),
  csrf: safeText({ min: 0, max: 200 }).optional(),
});
export type ConsentForm = z.infer<typeof ConsentForm>;
