/**
 * The listing routes, described once and served identically under every version prefix (spec
 * section 4). Handlers answer in the 3.2 shape; the plugin passes the body down the version
 * changes. `legacyValidationStatus: 400` marks the write routes that answered 400 (not 422) for
 * refused data before 3.2 (spec section 7): the account writes, agencies and users.
 */
import { z } from 'zod';
import { AgencyInput, AgencyListQuery, AgencyUpdate } from '../../schemas/listing/agency.ts';
import { MlsBoard } from '../../schemas/listing/common.ts';
import { GatewayInput, GatewayListQuery, GatewayUpdate } from '../../schemas/listing/gateway.ts';
import { PropertyInput, PropertySearchQuery, PropertyUpdate } from '../../schemas/listing/property.ts';
import { UserInput, UserListQuery, UserUpdate } from '../../schemas/listing/user.ts';
import { presentDetail, presentSummary } from './present.ts';
import type { BoardScope } from './store/board.ts';
import type { ListingStore } from './store/index.ts';
import type { ResponseKind } from './versions/index.ts';

export interface HandlerContext {
  board: BoardScope;
  query: any;
  id: number;
  body: any;
}

export interface ListingRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** After the prefix `/{locale}/api/v3.x`. */
  path: string;
  summary: string;
  tag: string;
  query: z.ZodObject;
  body?: z.ZodType;
  /** The response body's kind; null for 204 No Content. */
  kind: ResponseKind | null;
  status: 200 | 201 | 204;
  legacyValidationStatus?: 400;
  handler(ctx: HandlerContext): Promise<unknown>;
}

const BoardQuery = z.strictObject({ mls_board: MlsBoard });

interface Crud<L, I, U> {
  list(board: BoardScope, q: any): Promise<{ items: L[]; next_cursor: string | null }>;
  get(board: BoardScope, id: number): Promise<L>;
  create(board: BoardScope, input: I): Promise<L>;
  update(board: BoardScope, id: number, patch: U): Promise<L>;
  remove(board: BoardScope, id: number): Promise<void>;
}

/** List, get, create, update, delete of one resource. */
function crud<L>(o: {
  name: string; plural: string; kind: 'agency' | 'user' | 'gateway'; listQuery: z.ZodObject; input: z.ZodType; update: z.ZodType;
  store: Crud<L, any, any>; legacyValidationStatus?: 400;
}): ListingRoute[] {
  const { name, plural, kind, store } = o;
  const base = `/${plural}`;
  return [
    { method: 'GET', path: base, summary: `List the ${plural} of a board`, tag: plural, query: o.listQuery, kind: `${kind}.page`, status: 200,
      handler: async ({ board, query }) => { const p = await store.list(board, query); return { data: p.items, paging: { limit: query.limit, next_cursor: p.next_cursor } }; } },
    { method: 'GET', path: `${base}/:id`, summary: `Get a ${name}`, tag: plural, query: BoardQuery, kind: `${kind}.one`, status: 200,
      handler: async ({ board, id }) => ({ data: await store.get(board, id) }) },
    { method: 'POST', path: base, summary: `Create a ${name}`, tag: plural, query: BoardQuery, body: o.input, kind: `${kind}.one`, status: 201,
      legacyValidationStatus: o.legacyValidationStatus, handler: async ({ board, body }) => ({ data: await store.create(board, body) }) },
    { method: 'PATCH', path: `${base}/:id`, summary: `Update a ${name} (fields given replace the stored ones)`, tag: plural, query: BoardQuery, body: o.update,
      kind: `${kind}.one`, status: 200, legacyValidationStatus: o.legacyValidationStatus,
      handler: async ({ board, id, body }) => ({ data: await store.update(board, id, body) }) },
    { method: 'DELETE', path: `${base}/:id`, summary: `Delete a ${name}`, tag: plural, query: BoardQuery, kind: null, status: 204,
      handler: async ({ board, id }) => { await store.remove(board, id); return null; } },
  ];
}

export function listingRoutes(store: ListingStore): ListingRoute[] {
  const p = store.properties;
  const search = async ({ board, query }: HandlerContext) => {
    const r = await p.search(board, query);
    return { data: r.items.map(presentSummary), paging: { limit: query.limit, next_cursor: r.next_cursor } };
  };
  return [
    { method: 'GET', path: '/properties/search', summary: 'Search the properties of a board', tag: 'properties', query: PropertySearchQuery, kind: 'property.page', status: 200, handler: search },
    { method: 'GET', path: '/properties', summary: 'List the properties of a board (same filters as search)', tag: 'properties', query: PropertySearchQuery, kind: 'property.page', status: 200, handler: search },
    { method: 'GET', path: '/properties/:id', summary: 'Get a property', tag: 'properties', query: BoardQuery, kind: 'property.one', status: 200,
      handler: async ({ board, id }) => ({ data: presentDetail(await p.get(board, id)) }) },
    { method: 'POST', path: '/properties', summary: 'Create a property', tag: 'properties', query: BoardQuery, body: PropertyInput, kind: 'property.one', status: 201,
      handler: async ({ board, body }) => ({ data: presentDetail(await p.create(board, body)) }) },
    { method: 'PATCH', path: '/properties/:id', summary: 'Update a property (fields given replace the stored ones)', tag: 'properties', query: BoardQuery, body: PropertyUpdate,
      kind: 'property.one', status: 200, handler: async ({ board, id, body }) => ({ data: presentDetail(await p.update(board, id, body)) }) },
    { method: 'DELETE', path: '/properties/:id', summary: 'Delete a property', tag: 'properties', query: BoardQuery, kind: null, status: 204,
      handler: async ({ board, id }) => { await p.remove(board, id); return null; } },
    ...crud({ name: 'agency', plural: 'agencies', kind: 'agency', listQuery: AgencyListQuery, input: AgencyInput, update: AgencyUpdate, store: store.agencies, legacyValidationStatus: 400 }),
    ...crud({ name: 'user', plural: 'users', kind: 'user', listQuery: UserListQuery, input: UserInput, update: UserUpdate, store: store.users, legacyValidationStatus: 400 }),
    ...crud({ name: 'gateway', plural: 'gateways', kind: 'gateway', listQuery: GatewayListQuery, input: GatewayInput, update: GatewayUpdate, store: store.gateways }),
  ];
}
