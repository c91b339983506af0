import type { AccessTokenResolver } from './routes.ts';

/**
 * The resolver a server uses while no OAuth provider is wired in: with no sign-in module
 * there are no access tokens, so every access_token is unknown (401 invalid_access_token).
 * The sign-in module (api/signin/) supplies the real resolver: the token's user id and the
 * client_uid of the OAuth client it was issued to.
 */
export const noAccessTokens: AccessTokenResolver = async () => null;
