/**
 * Who an access token speaks for. One check serves the user-info route and the
 * marketplace (supplier calls identify the user with `access_token`): the token
 * must be known and unexpired, its application and consent still there, its
 * user still active.
 */
import type Provider from 'oidc-provider';
import type { UserWithAffiliation } from '../../schemas/accounts.ts';
import type { AccountRepository } from '../accounts/accounts.ts';

export type TokenCheck =
  | { ok: true; user: UserWithAffiliation; clientId: string; scopes: Set<string> }
  | { ok: false; reason: string };

export async function checkAccessToken(provider: Provider, accounts: AccountRepository, value: string): Promise<TokenCheck> {
  const token = await provider.AccessToken.find(value).catch(() => undefined);
  if (!token || token.isExpired) return { ok: false, reason: 'unknown, expired or revoked access token' };
  const [client, grant] = await Promise.all([
    token.clientId ? provider.Client.find(token.clientId) : undefined,
    token.grantId ? provider.Grant.find(token.grantId) : undefined,
  ]);
  if (!client || !grant) return { ok: false, reason: 'the application or the consent behind this token was revoked' };
  const user = token.accountId && /^\d+$/.test(token.accountId) ? await accounts.user(Number(token.accountId)).catch(() => null) : null;
  if (!user || user.disabled_at !== null) return { ok: false, reason: 'the user of this token no longer exists or is disabled' };
  return { ok: true, user, clientId: client.clientId, scopes: new Set(String(token.scope ?? '').split(' ')) };
}
