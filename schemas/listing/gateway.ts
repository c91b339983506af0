/**
 * Gateways: the syndication channels a board's listings are published to (portals, feeds,
 * websites). Properties name theirs in `gateway_ids`.
 */
import { z } from 'zod';
import { MlsBoard, PageQuery, Timestamp, oneOf, pageOf, updateOf } from './common.ts';

export const GATEWAY_KINDS = ['portal', 'feed', 'website', 'social'] as const;
export const FEED_FORMATS = ['json', 'xml', 'csv'] as const;

export const GatewayInput = z.strictObject({
  code: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, _ and -').describe('unique in the board'),
  name: z.string().trim().min(1).max(200),
  kind: z.enum(GATEWAY_KINDS),
  format: z.enum(FEED_FORMATS).default('json'),
  endpoint_url: z.url({ protocol: /^https$/ }).max(2000).nullable().default(null).describe('where listings are pushed (https)'),
  active: z.boolean().default(true),
});
export type GatewayInput = z.output<typeof GatewayInput>;
export const GatewayUpdate = updateOf(GatewayInput.shape);
export type GatewayUpdate = z.output<typeof GatewayUpdate>;

export const Gateway = z.strictObject({
  id: z.number().int(),
  mls_board: MlsBoard,
  code: z.string(),
  name: z.string(),
  kind: z.enum(GATEWAY_KINDS),
  format: z.enum(FEED_FORMATS),
  endpoint_url: z.string().nullable(),
  active: z.boolean(),
  property_count: z.number().int().describe('properties published to this gateway'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Gateway = z.infer<typeof Gateway>;
export const GatewayPage = pageOf(Gateway);
export const GatewayOne = oneOf(Gateway);

export const GatewayListQuery = z.strictObject({
  ...PageQuery,
  kind: z.enum(GATEWAY_KINDS).optional(),
  active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
