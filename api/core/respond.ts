import type { FastifyRequest } from 'fastify';
import { API_VERSION } from '../../schemas/envelope.ts';
import type { Warning } from '../../schemas/domain.ts';
import type { Clock } from './clock.ts';

/** The v1.0 envelope of a successful response (spec 2.1). */
export function envelope<D>(request: FastifyRequest, clock: Clock, data: D, warnings: Warning[] = []) {
  return {
    data,
    meta: {
      request_id: String(request.id),
      api_version: API_VERSION,
      generated_at: clock.now().toISOString(),
      warnings,
      sandbox: request.apiKey?.sandbox ?? false,
    },
  };
}
