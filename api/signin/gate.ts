/**
 * Checks run before oidc-provider sees a request (an onRequest hook of its scope):
 * - the origin comes from configuration: Host (and X-Forwarded-Host/Proto, which the provider
 *   trusts behind a proxy) are replaced with the issuer's, so discovery and every URL the
 *   provider builds name the configured issuer, and a malformed Host cannot break it;
 * - query parameters are text the store can hold (schemas/inputs.ts), each given once
 *   (RFC 6749 section 3.1), of a bounded length; otherwise 400 invalid_request;
 * - a method the path does not serve answers 405 in the OAuth form.
 * Form bodies are read by the provider itself; what it looks up or stores from them goes
 * through the adapter's guards (adapter.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput, safeText } from '../../schemas/inputs.ts';
import { providerMethodsOf, sendOAuthError, sendSigninNotFound } from './errors.ts';

/** Any OAuth parameter: text of at most 4,096 characters, named in at most 100, given once. */
export const OAuthParameters = z.record(z.string().max(100, 'a parameter name of at most 100 characters'), safeText({ min: 0, max: 4096 }));

export function providerGate(issuer: string) {
  const origin = new URL(issuer);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = request.raw.headers;
    headers.host = origin.host;
    delete headers['x-forwarded-host'];
    headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);

    const allowed = providerMethodsOf(request.url);
    if (!allowed || !allowed.includes(request.method)) return sendSigninNotFound(request, reply);

    const r = parseInput(OAuthParameters, request.query);
    if (!r.ok) {
      const { issue } = r;
      const description = issue.repeated
        ? `parameter ${issue.parameter} is given more than once`
        : `parameter ${issue.parameter}: ${issue.message}`;
      return sendOAuthError(reply, 400, 'invalid_request', description);
    }
  };
}
