import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION } from '../../schemas/envelope.ts';
import type { ErrorBody } from '../../schemas/error.ts';
import type { Clock } from './clock.ts';
import { ApiError } from './errors.ts';

function body(request: FastifyRequest, clock: Clock, e: ApiError): ErrorBody {
  return {
    error: { code: e.code, message: e.message, details: e.details },
    meta: { request_id: String(request.id), api_version: API_VERSION, generated_at: clock.now().toISOString() },
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, clock: Clock, e: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  return reply.code(e.status).type('application/json; charset=utf-8').send(body(request, clock, e));
}

/**
 * Every failure answers the body of spec section 7. Internal errors are logged with the request
 * id and answered without any technical detail.
 */
export function installErrorHandlers(app: FastifyInstance, clock: Clock): void {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) return sendError(request, reply, clock, err);
    const fe = err as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(request, reply, clock, new ApiError('invalid_parameter', 'the request body is larger than this route accepts', { parameter: 'body', value: null }));
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && fe.code?.startsWith('FST_ERR_CTP'))) {
      return sendError(request, reply, clock, new ApiError('invalid_parameter', 'the request body cannot be read', { parameter: 'body', value: null }));
    }
    if (fe.statusCode === 404) return sendError(request, reply, clock, new ApiError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
    // Any other refusal of the request by the framework (malformed URL, body, headers) is the client's.
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(request, reply, clock, new ApiError('invalid_parameter', 'the request cannot be read', { parameter: 'request', value: null }));
    }
    request.log.error({ err }, 'internal error');
    return sendError(request, reply, clock, new ApiError('internal_error', 'internal error; the request may be retried later'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, clock, new ApiError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)));
}
