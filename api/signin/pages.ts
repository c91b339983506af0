/**
 * The server-rendered pages of the sign-in (no JavaScript): the sign-in form,
 * the consent page and the error page, in French and English. Every value is
 * HTML-escaped; the only style is a fixed sheet allowed by its hash in the
 * Content-Security-Policy (see {@link PAGE_HEADERS}).
 */
import { createHash } from 'node:crypto';

export type Lang = 'fr' | 'en';
export const LANGS: readonly Lang[] = ['fr', 'en'];

const TEXT = {
  fr: {
    signInTitle: 'Connexion',
    signInLead: (app: string) => `Connectez-vous pour continuer vers ${app}.`,
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    badCredentials: 'Adresse e-mail ou mot de passe incorrect.',
    tooManyAttempts: (s: number) => `Trop de tentatives de connexion pour ce compte : réessayez dans ${s} s.`,
    consentTitle: 'Autorisation',
    consentLead: (app: string) => `L’application ${app} demande l’accès à votre compte.`,
    signedInAs: (who: string) => `Connecté en tant que ${who}.`,
    willRead: 'Elle pourra lire :',
    scopes: {
      public: 'vos informations de base : nom, adresse e-mail, téléphone, photo, langues, votre agence et votre chambre',
      openid: 'la confirmation de votre identité (jeton d’identité OpenID Connect)',
    } as Record<string, string>,
    remembered: 'Votre accord est conservé jusqu’à ce que vous le retiriez.',
    allow: 'Autoriser',
    deny: 'Refuser',
    errorTitle: 'Connexion impossible',
    back: 'Revenez à l’application et recommencez.',
  },
  en: {
    signInTitle: 'Sign in',
    signInLead: (app: string) => `Sign in to continue to ${app}.`,
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    badCredentials: 'Wrong e-mail address or password.',
    tooManyAttempts: (s: number) => `Too many sign-in attempts for this account: try again in ${s} s.`,
    consentTitle: 'Authorization',
    consentLead: (app: string) => `The application ${app} asks for access to your account.`,
    signedInAs: (who: string) => `Signed in as ${who}.`,
    willRead: 'It will be able to read:',
    scopes: {
      public: 'your basic information: name, e-mail address, phone, picture, languages, your agency and your board',
      openid: 'the confirmation of your identity (OpenID Connect ID token)',
    } as Record<string, string>,
    remembered: 'Your consent is kept until you withdraw it.',
    allow: 'Allow',
    deny: 'Deny',
    errorTitle: 'Sign-in failed',
    back: 'Go back to the application and start again.',
  },
} as const;

const CSS = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1.2rem}.error{color:#a40000}.app{font-weight:bold}small{color:#555}`;

/** Headers of every page: no framing (clickjacking), no script, nothing cached. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  // form-action is left out on purpose: browsers apply it to the redirect to the partner's redirect_uri.
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The page language: the first supported tag of `ui_locales` (OpenID Connect
 * authorization parameter), else the best of Accept-Language, else French.
 */
export function pickLang(uiLocales: unknown, acceptLanguage: string | undefined): Lang {
  const base = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0];
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(/\s+/)) if ((LANGS as string[]).includes(base(tag))) return base(tag) as Lang;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, i) => {
        const [tag, ...params] = part.split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
        return { lang: base(tag), q: q ? Number(q[1]) : 1, i };
      })
      .filter((x) => x.q > 0 && (LANGS as string[]).includes(x.lang))
      .sort((a, b) => b.q - a.q || a.i - b.i);
    if (ranked[0]) return ranked[0].lang as Lang;
  }
  return 'fr';
}

function layout(lang: Lang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body>${body}</body></html>`;
}

export interface FormContext {
  lang: Lang;
  uid: string;
  csrf: string;
  clientName: string;
}

export function loginPage(c: FormContext & { email?: string; failed?: 'credentials' | { retryAfter: number } }): string {
  const t = TEXT[c.lang];
  const failure = c.failed === undefined ? null : c.failed === 'credentials' ? t.badCredentials : t.tooManyAttempts(c.failed.retryAfter);
  return layout(
    c.lang,
    t.signInTitle,
    `<h1>${t.signInTitle}</h1>
<p>${escapeHtml(t.signInLead(c.clientName))}</p>
${failure ? `<p class="error" role="alert">${escapeHtml(failure)}</p>` : ''}
<form method="post" action="/oauth/interaction/${encodeURIComponent(c.uid)}/login">
<input type="hidden" name="csrf" value="${escapeHtml(c.csrf)}">
<label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(c.email ?? '')}">
<label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t.signIn}</button>
</form>`,
  );
}

export function consentPage(c: FormContext & { userName: string; scopes: string[] }): string {
  const t = TEXT[c.lang];
  const items = c.scopes.filter((s) => t.scopes[s]).map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(t.scopes[s])}</li>`);
  return layout(
    c.lang,
    t.consentTitle,
    `<h1>${t.consentTitle}</h1>
<p>${escapeHtml(t.consentLead('\u0000')).replace('\u0000', `<span class="app">${escapeHtml(c.clientName)}</span>`)}</p>
<p><small>${escapeHtml(t.signedInAs(c.userName))}</small></p>
<p>${t.willRead}</p>
<ul>${items.join('')}</ul>
<p><small>${t.remembered}</small></p>
<form method="post" action="/oauth/interaction/${encodeURIComponent(c.uid)}/confirm">
<input type="hidden" name="csrf" value="${escapeHtml(c.csrf)}">
<button type="submit" name="decision" value="allow">${t.allow}</button>
<button type="submit" name="decision" value="deny">${t.deny}</button>
</form>`,
  );
}

export function errorPage(lang: Lang, error: string, description: string): string {
  const t = TEXT[lang];
  return layout(
    lang,
    t.errorTitle,
    `<h1>${t.errorTitle}</h1>
<p class="error"><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>
<p>${t.back}</p>`,
  );
}
