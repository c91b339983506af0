import type { Sql } from '../../core/state/sql.ts';
import { createAgencyStore } from './agencies.ts';
import { createGatewayStore } from './gateways.ts';
import { createPropertyStore } from './properties.ts';
import { createUserStore } from './users.ts';

/** The listing module's state, one repository per resource. */
export function createListingStore(sql: Sql) {
  return {
    properties: createPropertyStore(sql),
    agencies: createAgencyStore(sql),
    users: createUserStore(sql),
    gateways: createGatewayStore(sql),
  };
}
export type ListingStore = ReturnType<typeof createListingStore>;
