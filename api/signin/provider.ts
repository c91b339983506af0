/**
 * The OAuth 2.0 / OpenID Connect provider: oidc-provider (OpenID Certified),
 * configured for what spec sections 4.1 and 5 ask and the OAuth 2.0 Security
 * BCP (RFC 9700) recommends:
 * - authorization code flow only; PKCE S256 required for public clients,
 *   accepted for confidential ones; redirect_uri matched exactly and always
 *   sent; `iss` in the authorization response (RFC 9207, always on in
 *   oidc-provider 9); codes single-use and short-lived (a second use revokes
 *   the grant and everything issued under it);
 * - scopes `public` and `openid` (spec 2.2); id_tokens signed RS256 with the
 *   keys of the state store, published at /oauth/jwks;
 * - opaque access tokens "without time limit" (spec 5): a TTL of 100 years
 *   and not tied to the browser session; revocation endpoint (RFC 7009)
 *   withdraws the whole consent (grant);
 * - consent asked once per user and application, remembered by its grant.
 */
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AccountRepository } from '../accounts/accounts.ts';
import type { Sql } from '../core/state/sql.ts';
import { findGrantId, payloadAdapter } from './adapter.ts';
import { clientSecretMatches, type ClientRepository } from './clients.ts';
import { errorPage, PAGE_HEADERS, pickLang } from './pages.ts';
import type { SigninSecrets } from './secrets.ts';
import { USERINFO_CLAIMS, userInfo } from './userinfo.ts';

/** "No time limit" (spec 5) as a number oidc-provider accepts: 100 years, in seconds. */
export const NO_TIME_LIMIT_SECONDS = 100 * 365 * 24 * 3600;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

export const SIGNIN_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/api/oauth/me',
  interaction: '/oauth/interaction',
  discovery: '/.well-known/openid-configuration',
} as const;

export interface ProviderDeps {
  issuer: string;
  sql: Sql;
  accounts: AccountRepository;
  clients: ClientRepository;
  secrets: SigninSecrets;
  /**
   * The operator's own applications (the client space): signed in through the same form and
   * session, never asked for consent (their grant of `openid` is made on first use).
   */
  firstPartyClientIds?: readonly string[];
}

export function createProvider(deps: ProviderDeps): Provider {
  const { sql, accounts } = deps;
  const configuration: Configuration = {
    adapter: payloadAdapter(sql, deps.clients),
    jwks: deps.secrets.jwks as Configuration['jwks'],
    cookies: { keys: deps.secrets.cookieKeys },

    async findAccount(_ctx, sub) {
      if (!/^\d+$/.test(sub)) return undefined;
      const user = await accounts.user(Number(sub)).catch(() => null);
      if (!user || user.disabled_at !== null) return undefined;
      return { accountId: sub, claims: () => userInfo(user) };
    },
    // `openid` gives what `public` gives (spec 2.2); the claims of 2.1 go with both.
    claims: { openid: ['sub', ...USERINFO_CLAIMS], public: [...USERINFO_CLAIMS] },
    scopes: ['openid', 'public'],

    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    allowOmittingSingleRegisteredRedirectUri: false,
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      // No symmetric (HS*) algorithm anywhere: the client secret is only known as its hash.
      requestObjectSigningAlgValues: ['RS256'],
      clientAuthSigningAlgValues: ['RS256'],
    },

    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // Only the application a token was issued to may revoke it (RFC 7009 section 2.1); a
        // public client presenting another's token gets the usual 200 and nothing is revoked.
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      // The user-info of spec 2.1 is served by our own route (userinfo-route.ts): scope `public`
      // alone must read it, which oidc-provider's endpoint (openid only) does not allow.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: { enabled: false },
      introspection: { enabled: false },
      registration: { enabled: false },
      requestObjects: { enabled: false },
      claimsParameter: { enabled: false },
    },
    routes: {
      authorization: SIGNIN_PATHS.authorization,
      token: SIGNIN_PATHS.token,
      revocation: SIGNIN_PATHS.revocation,
      jwks: SIGNIN_PATHS.jwks,
    },
    discovery: {
      userinfo_endpoint: deps.issuer + SIGNIN_PATHS.userinfo,
      ui_locales_supported: ['fr', 'en'],
      claims_supported: ['sub', ...USERINFO_CLAIMS],
    },

    ttl: {
      AccessToken: NO_TIME_LIMIT_SECONDS,
      Grant: NO_TIME_LIMIT_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
    },
    // Tokens outlive the browser session: they stay valid until revoked (spec 5).
    expiresWithSession: () => false,
    // Revoking a token withdraws the consent: the grant and every token it issued go.
    revokeGrantPolicy: () => true,

    interactions: { url: (_ctx, interaction) => `${SIGNIN_PATHS.interaction}/${interaction.uid}` },
    // Consent is per user and application, not per browser session: a grant given in another
    // session is found again by (account, client).
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { Grant } = ctx.oidc.provider;
      const clientId = ctx.oidc.client!.clientId;
      const fromSession = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(clientId);
      if (fromSession) {
        const grant = await Grant.find(fromSession);
        if (grant) return grant;
      }
      const accountId = ctx.oidc.session!.accountId;
      if (!accountId) return undefined;
      const id = await findGrantId(sql, accountId, clientId);
      const found = id ? await Grant.find(id) : undefined;
      if (found || !deps.firstPartyClientIds?.includes(clientId)) return found;
      const grant = new Grant({ accountId, clientId });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },

    // Browser-facing errors that cannot be redirected to the client (unknown client, wrong
    // redirect_uri): our own page, in the user's language.
    renderError(ctx, out) {
      for (const [k, v] of Object.entries(PAGE_HEADERS)) ctx.set(k, v);
      const lang = pickLang(ctx.oidc?.params?.ui_locales, ctx.get('accept-language'));
      ctx.body = errorPage(lang, out.error, out.error_description ?? '');
    },
    // A browser application may call the token and revocation endpoints from its redirect origins.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris!.some((u) => new URL(u).origin === origin),
  };

  const provider = new Provider(deps.issuer, configuration);
  // Behind a TLS-terminating proxy (https issuer), trust X-Forwarded-Proto for secure cookies.
  provider.proxy = deps.issuer.startsWith('https:');

  // Client secrets are stored hashed (migration 003): the client's `client_secret` metadata holds
  // the hash, and the presented secret is compared with it. oidc-provider exposes this method
  // for that purpose (panva/node-oidc-provider#631); nothing else reads the secret since no
  // symmetric algorithm is enabled.
  provider.Client.prototype.compareClientSecret = function compareHashed(this: { clientSecret?: string }, actual: string) {
    return Promise.resolve(clientSecretMatches(actual, this.clientSecret ?? null));
  };
  return provider;
}
