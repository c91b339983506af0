/**
 * The client space (issue 22; spec location-data-service.md section 5 and
 * partner-signin-and-marketplace.md section 1): GET /space, where a client's users manage the
 * API keys of their agency and open their marketplace services. An encapsulated plugin: its
 * pages and error pages are its own HTML, never the location API's error body.
 *
 * Every form carries a CSRF token bound to the provider session and to a nonce cookie that is
 * renewed after each accepted form: a token is good once, so a form posted twice or a copied
 * token is refused without doing anything.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AccountRepository } from '../accounts/accounts.ts';
import type { Clock } from '../core/clock.ts';
import { agencyKeyActions, lastUsedDays, usageByDay, usageInPeriod } from '../core/keys/history.ts';
import { KeyNotFoundError, KeyRevokedError, KeyValidationError, type KeyActor, type KeyRepository } from '../core/keys/keys.ts';
import { quotaPeriodStart } from '../core/limits.ts';
import type { Sql } from '../core/state/sql.ts';
import { csrfToken, csrfValid, newCsrfNonce, parseCookies } from '../signin/csrf.ts';
import { pickLang, type Lang } from '../signin/pages.ts';
import { lastDays } from './chart.ts';
import { field, optionalField, RULES } from './input.ts';
import { COPY_SCRIPT, errorPage, signedOutPage, spacePage, SPACE_HEADERS, type Notice } from './page.ts';
import { servicesOf } from './services.ts';
import {
  CALLBACK_PATH, clearLoginCookie, consumeCode, endSession, pendingSignIn, readSession, registerSpaceClient, sameState, SPACE_PATH, startSignIn,
} from './session.ts';
import { TEXT } from './text.ts';

export interface SpaceDeps {
  sql: Sql;
  accounts: AccountRepository;
  /** The server's key repository (with its cache): a revocation here is refused at once by this process. */
  keys: KeyRepository;
  /** The sign-in's provider and CSRF key, once the sign-in plugin has made them. */
  signin: () => { provider: Provider; csrfKey: string };
  issuer: string;
  clock: Clock;
  quota: { live: number; sandbox: number };
  /** KEY_CACHE_TTL_S: how long other processes may still accept a revoked key. */
  keyCacheSeconds: number;
}

const CSRF_COOKIE = 'space_csrf';
const policy = { policy: { auth: false, units: 0 } };
type Req = FastifyRequest<{ Querystring: Record<string, unknown>; Body: Record<string, unknown> | undefined }>;

const send = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(SPACE_HEADERS).send(html);

export async function spacePlugin(app: FastifyInstance, deps: SpaceDeps): Promise<void> {
  const secure = deps.issuer.startsWith('https:');
  await registerSpaceClient(deps.sql, deps.issuer, `${TEXT.fr.clientName} / ${TEXT.en.clientName}`);

  // Forms only: the space reads no JSON or text body (a 415 page).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => {
      // A repeated field becomes a list, which the field checks refuse.
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        const had = out[k];
        out[k] = had === undefined ? v : ([] as string[]).concat(had, v);
      }
      done(null, out);
    },
  );
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lang = pickLang(undefined, request.headers['accept-language']);
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'client space: internal error');
    const t = TEXT[lang];
    const message = status === 500 ? t.internal : status === 413 ? t.badInput(t.tooLarge) : status === 415 ? t.badInput(t.formsOnly) : t.badInput(`HTTP ${status}`);
    return send(reply, status, errorPage(lang, message));
  });

  const rawCtx = (request: FastifyRequest, reply: FastifyReply) => ({ req: request.raw, res: reply.raw, secure });

  /** The page language: `lang` of the query or form when valid, else Accept-Language. */
  function langOf(request: Req): Lang {
    const given = request.body?.lang ?? request.query?.lang;
    const checked = optionalField(given, RULES.lang);
    return checked.ok && checked.value ? (checked.value as Lang) : pickLang(undefined, request.headers['accept-language']);
  }

  function csrfFor(request: FastifyRequest, reply: FastifyReply, sessionUid: string, renew = false): string {
    let nonce = parseCookies(request.headers.cookie)[CSRF_COOKIE];
    if (renew || !nonce || !/^[A-Za-z0-9_-]{32}$/.test(nonce)) {
      nonce = newCsrfNonce();
      reply.raw.appendHeader('Set-Cookie', `${CSRF_COOKIE}=${nonce}; Path=${SPACE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
    }
    return csrfToken(deps.signin().csrfKey, nonce, `space:${sessionUid}`);
  }

  const csrfAccepted = (request: Req, sessionUid: string) => {
    const token = field(request.body?.csrf, RULES.csrf);
    return token.ok && csrfValid(deps.signin().csrfKey, parseCookies(request.headers.cookie)[CSRF_COOKIE], `space:${sessionUid}`, token.value);
  };

  /** The signed-in user, or null after answering the signed-out page. */
  async function signedIn(request: Req, reply: FastifyReply, lang: Lang) {
    const session = await readSession(deps.signin().provider, rawCtx(request, reply));
    const user = session.accountId && /^\d+$/.test(session.accountId) ? await deps.accounts.user(Number(session.accountId)).catch(() => null) : null;
    if (!user || user.disabled_at !== null) {
      send(reply, request.method === 'GET' ? 200 : 401, signedOutPage(lang, request.method === 'GET' ? [] : [{ kind: 'error', text: TEXT[lang].notSignedIn }]));
      return null;
    }
    return { user, session };
  }

  async function render(request: Req, reply: FastifyReply, status: number, lang: Lang, who: NonNullable<Awaited<ReturnType<typeof signedIn>>>, extra: { notices?: Notice[]; newKey?: string; renewCsrf?: boolean } = {}) {
    const { user } = who;
    const now = deps.clock.now();
    const today = now.toISOString().slice(0, 10);
    const all = await deps.keys.listForAgency(user.agency_id);
    const active = all.filter((k) => k.revokedAt === null);
    const fps = active.map((k) => k.fingerprint);
    const from = lastDays(today, 30, undefined)[0].day;
    const [byDay, period, lastUsed, actions, services] = await Promise.all([
      usageByDay(deps.sql, fps, from, today), usageInPeriod(deps.sql, fps, quotaPeriodStart(now)), lastUsedDays(deps.sql, fps),
      agencyKeyActions(deps.sql, user.agency_id), servicesOf(deps.sql, user.id),
    ]);
    return send(reply, status, spacePage({
      lang, csrf: csrfFor(request, reply, who.session.uid, extra.renewCsrf),
      user: { name: `${user.first_name} ${user.last_name}`, email: user.email, agency: user.agency.name },
      keys: active.map((record) => ({
        record, used: period.get(record.fingerprint) ?? 0, quota: record.sandbox ? deps.quota.sandbox : deps.quota.live,
        lastUsed: lastUsed.get(record.fingerprint) ?? null, series: lastDays(today, 30, byDay.get(record.fingerprint)),
      })),
      revoked: all.filter((k) => k.revokedAt !== null),
      actions, services, notices: extra.notices ?? [], newKey: extra.newKey,
    }));
  }

  app.get('/space/copy.js', { config: policy }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').header('X-Content-Type-Options', 'nosniff').send(COPY_SCRIPT));

  app.get(SPACE_PATH, { config: policy }, async (request: Req, reply) => {
    const lang = langOf(request);
    const who = await signedIn(request, reply, lang);
    return who ? render(request, reply, 200, lang, who) : reply;
  });

  app.get(`${SPACE_PATH}/login`, { config: policy }, async (request: Req, reply) => {
    const start = startSignIn(deps.issuer, langOf(request), secure);
    reply.raw.appendHeader('Set-Cookie', start.cookie);
    return reply.redirect(start.location, 303);
  });

  app.get(CALLBACK_PATH, { config: policy }, async (request: Req, reply) => {
    const pending = pendingSignIn(parseCookies(request.headers.cookie));
    const lang = pending?.lang ?? langOf(request);
    const t = TEXT[lang];
    reply.raw.appendHeader('Set-Cookie', clearLoginCookie(secure));
    const error = optionalField(request.query.error, RULES.oauthError);
    if (error.ok && error.value) return send(reply, 400, signedOutPage(lang, [{ kind: 'error', text: error.value === 'access_denied' ? t.signInDenied : t.signInFailed }]));
    const code = field(request.query.code, RULES.code);
    const state = field(request.query.state, RULES.state);
    // RFC 9207: the response names its issuer; one from elsewhere is not ours to consume.
    const iss = request.query.iss;
    if (!pending || !code.ok || !state.ok || !sameState(state.value, pending.state) || (iss !== undefined && iss !== deps.issuer)) {
      return send(reply, 400, signedOutPage(lang, [{ kind: 'error', text: t.signInFailed }]));
    }
    const { provider } = deps.signin();
    const session = await readSession(provider, rawCtx(request, reply));
    if (!session.accountId || !(await consumeCode(provider, code.value, session.accountId))) {
      return send(reply, 400, signedOutPage(lang, [{ kind: 'error', text: t.signInFailed }]));
    }
    return reply.redirect(`${SPACE_PATH}?lang=${lang}`, 303);
  });

  app.post(`${SPACE_PATH}/logout`, { config: policy }, async (request: Req, reply) => {
    const lang = langOf(request);
    const who = await signedIn(request, reply, lang);
    if (!who) return reply;
    if (!csrfAccepted(request, who.session.uid)) return render(request, reply, 403, lang, who, { notices: [{ kind: 'error', text: TEXT[lang].csrf }] });
    await endSession(deps.signin().provider, rawCtx(request, reply));
    return send(reply, 200, signedOutPage(lang, [{ kind: 'ok', text: TEXT[lang].signedOut }]));
  });

  for (const action of ['replace', 'revoke'] as const) {
    app.post(`${SPACE_PATH}/keys/${action}`, { config: policy }, async (request: Req, reply) => {
      const lang = langOf(request);
      const t = TEXT[lang];
      const who = await signedIn(request, reply, lang);
      if (!who) return reply;
      const refuse = (status: number, text: string) => render(request, reply, status, lang, who, { notices: [{ kind: 'error', text }] });
      if (!csrfAccepted(request, who.session.uid)) return refuse(403, t.csrf);
      const fp = field(request.body?.fingerprint, RULES.fingerprint);
      if (!fp.ok) return refuse(400, t.badInput(fp.message));
      const actor: KeyActor = { userId: who.user.id, name: `${who.user.first_name} ${who.user.last_name} <${who.user.email}>` };
      const options = { agencyId: who.user.agency_id, actor };
      try {
        if (action === 'replace') {
          const done = await deps.keys.replace(fp.value, options);
          return render(request, reply, 200, lang, who, {
            renewCsrf: true, newKey: done.key,
            notices: [{ kind: 'ok', text: `${t.replaced(done.replaced.fingerprint.slice(0, 12), done.record.fingerprint.slice(0, 12))} ${t.cacheNote(deps.keyCacheSeconds)}` }],
          });
        }
        const done = await deps.keys.revoke(fp.value, options);
        if (done.alreadyRevoked) return refuse(409, t.alreadyRevoked(fp.value.slice(0, 12)));
        return render(request, reply, 200, lang, who, {
          renewCsrf: true, notices: [{ kind: 'ok', text: `${t.revoked(fp.value.slice(0, 12))} ${t.cacheNote(deps.keyCacheSeconds)}` }],
        });
      } catch (err) {
        if (err instanceof KeyNotFoundError || err instanceof KeyValidationError) return refuse(404, t.notYourKey);
        if (err instanceof KeyRevokedError) return refuse(409, t.alreadyRevoked(fp.value.slice(0, 12)));
        throw err;
      }
    });
  }

  // Third-party initiated login (OpenID Connect Core 1.0 section 4): the application is asked
  // to start a sign-in at this issuer for this user; the session makes it password-free.
  app.get(`${SPACE_PATH}/open`, { config: policy }, async (request: Req, reply) => {
    const lang = langOf(request);
    const t = TEXT[lang];
    const who = await signedIn(request, reply, lang);
    if (!who) return reply;
    const store = field(request.query.store, RULES.store);
    const product = field(request.query.product, RULES.product);
    if (!store.ok) return render(request, reply, 400, lang, who, { notices: [{ kind: 'error', text: t.badInput(store.message) }] });
    if (!product.ok) return render(request, reply, 400, lang, who, { notices: [{ kind: 'error', text: t.badInput(product.message) }] });
    const services = await servicesOf(deps.sql, who.user.id);
    const target = services.find((s) => s.slug === store.value)?.products.find((p) => p.sku === product.value)?.initiateLoginUri;
    if (!target) return render(request, reply, 404, lang, who, { notices: [{ kind: 'error', text: t.noSuchService }] });
    const url = new URL(target);
    url.searchParams.set('iss', deps.issuer);
    url.searchParams.set('login_hint', who.user.email);
    url.searchParams.set('target_link_uri', `${url.origin}/`);
    return reply.redirect(url.href, 303);
  });

  // Unknown paths under /space answer this module's page (static routes win over this wildcard).
  app.all(`${SPACE_PATH}/*`, { config: policy }, async (request: Req, reply) => {
    const lang = langOf(request);
    return send(reply, 404, errorPage(lang, TEXT[lang].notFound));
  });
}
