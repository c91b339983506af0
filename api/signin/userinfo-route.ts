/**
 * GET /api/oauth/me: the user-info of spec 2.1 for a bearer token (RFC 6750).
 * A missing, unknown, expired or revoked token (or one whose application or
 * consent was withdrawn, or whose user was disabled) answers 401 with
 * `WWW-Authenticate: Bearer`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import { UserInfo } from '../../schemas/signin.ts';
import type { AccountRepository } from '../accounts/accounts.ts';
import { checkAccessToken } from './access-tokens.ts';
import { SIGNIN_PATHS } from './provider.ts';
import { userInfo } from './userinfo.ts';

export interface UserinfoDeps {
  provider: Provider;
  accounts: AccountRepository;
  issuer: string;
}

const quote = (s: string) => `"${s.replace(/["\\]/g, '')}"`;

export function userinfoRoute(app: FastifyInstance, deps: UserinfoDeps): void {
  const { provider, accounts } = deps;
  const realm = `realm=${quote(deps.issuer)}`;

  function refuse(reply: FastifyReply, status: 401 | 403, error: string, description: string, withCode: boolean) {
    const challenge = withCode ? `Bearer ${realm}, error=${quote(error)}, error_description=${quote(description)}` : `Bearer ${realm}`;
    return reply
      .code(status)
      .header('WWW-Authenticate', challenge)
      .header('Cache-Control', 'no-store')
      .send({ error, error_description: description });
  }
  const invalid = (reply: FastifyReply, description: string) => refuse(reply, 401, 'invalid_token', description, true);

  app.get(SIGNIN_PATHS.userinfo, { config: { policy: { auth: false, units: 0 } } }, async (request, reply) => {
    reply.header('Access-Control-Allow-Origin', '*');
    const header = request.headers.authorization;
    // RFC 6750 section 3.1: no error code when the request carries no credentials.
    if (!header) return refuse(reply, 401, 'invalid_token', 'send Authorization: Bearer <ACCESS_TOKEN>', false);
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) return refuse(reply, 401, 'invalid_request', 'malformed Authorization header: expected Bearer <ACCESS_TOKEN>', true);

    const checked = await checkAccessToken(provider, accounts, m[1]!);
    if (!checked.ok) return invalid(reply, checked.reason);
    if (!checked.scopes.has('public') && !checked.scopes.has('openid')) {
      return refuse(reply, 403, 'insufficient_scope', 'the token needs scope public or openid', true);
    }
    return reply.header('Cache-Control', 'no-store').send(UserInfo.parse(userInfo(checked.user)));
  });

  app.options(SIGNIN_PATHS.userinfo, { config: { policy: { auth: false, units: 0 } } }, async (_request, reply) =>
    reply
      .code(204)
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Methods', 'GET')
      .header('Access-Control-Allow-Headers', 'Authorization')
      .header('Access-Control-Max-Age', '3600')
      .send(),
  );
}
