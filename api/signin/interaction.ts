/**
 * The interaction pages oidc-provider sends the browser to: the sign-in form
 * (prompt `login`, when there is no session) and the consent page (prompt
 * `consent`, once per user and application). Each form carries a CSRF token;
 * the pages cannot be framed.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type default as Provider } from 'oidc-provider';
import type { AccountRepository } from '../accounts/accounts.ts';
import type { Clock } from '../core/clock.ts';
import type { RateLimiter } from '../core/limits.ts';
import { parseInput } from '../../schemas/inputs.ts';
import { ConsentForm, LoginForm } from '../../schemas/signin.ts';
import { csrfCookie, csrfToken, csrfValid, CSRF_COOKIE, newCsrfNonce, parseCookies } from './csrf.ts';
import { consentPage, errorPage, loginPage, PAGE_HEADERS, pickLang, type Lang } from './pages.ts';
import { SIGNIN_PATHS } from './provider.ts';

export interface InteractionDeps {
  provider: Provider;
  accounts: AccountRepository;
  csrfKey: string;
  secure: boolean;
  /** Sign-in attempts allowed per minute and e-mail address, counted before the password is checked. */
  attempts: { limiter: RateLimiter; clock: Clock; perMinute: number };
}

type Req = FastifyRequest<{ Params: { uid: string }; Body: Record<string, unknown> | undefined }>;
type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(PAGE_HEADERS).send(html);

export function interactionRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  const { provider, accounts } = deps;
  const base = SIGNIN_PATHS.interaction;

  /** The pending interaction of this browser, or an error page when there is none (expired, other browser). */
  async function load(request: Req, reply: FastifyReply): Promise<{ details: Details; lang: Lang; clientName: string } | null> {
    const fallbackLang = pickLang(undefined, request.headers['accept-language']);
    let details: Details;
    try {
      details = await provider.interactionDetails(request.raw, reply.raw);
    } catch (err) {
      if (!(err instanceof errors.SessionNotFound)) throw err;
      page(reply, 400, errorPage(fallbackLang, 'invalid_request', fallbackLang === 'fr'
        ? 'la demande de connexion a expiré ou a été ouverte dans un autre navigateur'
        : 'the sign-in request has expired or was opened in another browser'));
      return null;
    }
    const lang = pickLang(details.params.ui_locales, request.headers['accept-language']);
    if (details.uid !== request.params.uid) {
      page(reply, 400, errorPage(lang, 'invalid_request', 'interaction mismatch'));
      return null;
    }
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) {
      page(reply, 400, errorPage(lang, 'invalid_client', 'the application is no longer registered'));
      return null;
    }
    return { details, lang, clientName: client.clientName ?? client.clientId };
  }

  function csrfFor(request: Req, reply: FastifyReply, uid: string): string {
    let nonce = parseCookies(request.headers.cookie)[CSRF_COOKIE];
    if (!nonce || !/^[A-Za-z0-9_-]{32}$/.test(nonce)) {
      nonce = newCsrfNonce();
      // Appended to the raw response so it merges with the provider's own cookies.
      reply.raw.appendHeader('Set-Cookie', csrfCookie(nonce, deps.secure));
    }
    return csrfToken(deps.csrfKey, nonce, uid);
  }

  function csrfRejected(request: Req, reply: FastifyReply, lang: Lang): boolean {
    const nonce = parseCookies(request.headers.cookie)[CSRF_COOKIE];
    if (csrfValid(deps.csrfKey, nonce, request.params.uid, request.body?.csrf)) return false;
    page(reply, 403, errorPage(lang, 'invalid_request', lang === 'fr'
      ? 'jeton CSRF absent ou invalide : rechargez la page du formulaire'
      : 'missing or invalid CSRF token: reload the form page'));
    return true;
  }

  /** The form's fields through the shared input checks; an error page (400) when they cannot be read. */
  function formOf<S extends typeof LoginForm | typeof ConsentForm>(schema: S, request: Req, reply: FastifyReply, lang: Lang): ReturnType<S['parse']> | null {
    const r = parseInput(schema, request.body ?? {});
    if (r.ok) return r.data as ReturnType<S['parse']>;
    const { issue } = r;
    page(reply, 400, errorPage(lang, 'invalid_request', issue.repeated ? `the field ${issue.parameter} is given more than once` : `${issue.parameter || 'form'}: ${issue.message}`));
    return null;
  }

  const requestedScopes = (d: Details) => String(d.params.scope ?? '').split(' ').filter((s) => s === 'public' || s === 'openid');

  async function userName(accountId: string | undefined): Promise<string> {
    const user = accountId && /^\d+$/.test(accountId) ? await accounts.user(Number(accountId)).catch(() => null) : null;
    return user ? `${user.first_name} ${user.last_name} <${user.email}>` : '';
  }

  app.get(`${base}/:uid`, { config: { policy: { auth: false, units: 0 } } }, async (request: Req, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { details, lang, clientName } = loaded;
    const form = { lang, uid: details.uid, csrf: csrfFor(request, reply, details.uid), clientName };
    if (details.prompt.name === 'login') return page(reply, 200, loginPage(form));
    if (details.prompt.name === 'consent') {
      return page(reply, 200, consentPage({ ...form, userName: await userName(details.session?.accountId), scopes: requestedScopes(details) }));
    }
    return page(reply, 400, errorPage(lang, 'invalid_request', `unsupported prompt ${details.prompt.name}`));
  });

  app.post(`${base}/:uid/login`, { config: { policy: { auth: false, units: 0 } } }, async (request: Req, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { details, lang, clientName } = loaded;
    const body = formOf(LoginForm, request, reply, lang);
    if (!body) return reply;
    if (csrfRejected(request, reply, lang)) return reply;
    if (details.prompt.name !== 'login') return page(reply, 400, errorPage(lang, 'invalid_request', 'no sign-in is expected now'));
    const email = body.email ?? '';
    const password = body.password ?? '';
    const form = { lang, uid: details.uid, csrf: csrfFor(request, reply, details.uid), clientName, email };
    const key = `signin:${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;
    const rate = await deps.attempts.limiter.hit(key, deps.attempts.perMinute, deps.attempts.clock.now());
    if (rate.exceeded) {
      reply.header('Retry-After', String(rate.resetSeconds));
      return page(reply, 429, loginPage({ ...form, failed: { retryAfter: rate.resetSeconds } }));
    }
    const user = email && password ? await accounts.verifyCredentials(email, password) : null;
    if (!user) return page(reply, 401, loginPage({ ...form, failed: 'credentials' }));
    const to = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: String(user.id) } }, { mergeWithLastSubmission: false });
    return reply.redirect(to, 303);
  });

  app.post(`${base}/:uid/confirm`, { config: { policy: { auth: false, units: 0 } } }, async (request: Req, reply) => {
    const loaded = await load(request, reply);
    if (!loaded) return reply;
    const { details, lang } = loaded;
    const body = formOf(ConsentForm, request, reply, lang);
    if (!body) return reply;
    if (csrfRejected(request, reply, lang)) return reply;
    if (details.prompt.name !== 'consent') return page(reply, 400, errorPage(lang, 'invalid_request', 'no consent is expected now'));
    if (body.decision !== 'allow') {
      const to = await provider.interactionResult(
        request.raw, reply.raw,
        { error: 'access_denied', error_description: 'the user did not allow the application' },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(to, 303);
    }
    const accountId = details.session!.accountId;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    if (!grant) return page(reply, 400, errorPage(lang, 'invalid_request', 'the consent being given no longer exists'));
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    const to = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return reply.redirect(to, 303);
  });
}
