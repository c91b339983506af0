import type { Country } from '../../schemas/common.ts';
import type { Domain } from '../../schemas/domain.ts';
import type { KeyRecord } from './keys/keys.ts';

/**
 * What a route requires and costs, declared in its route config and read by the hooks
 * (spec sections 5 and 8). `units: 'report'` means one unit per computed domain.
 */
export interface RoutePolicy {
  /** false for public routes (documentation). */
  auth: boolean;
  country?: Country;
  /** Domain a domain route serves; checked against the key. */
  domain?: Domain;
  units: number | 'report';
}

declare module 'fastify' {
  interface FastifyContextConfig { policy?: RoutePolicy }
  interface FastifyRequest {
    apiKey: KeyRecord | null;
    /** Units this request costs, fixed by the handler for reports before computing. */
    units: number;
  }
}
