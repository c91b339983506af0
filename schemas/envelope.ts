import { z } from 'zod';
import { Timestamp } from './common.ts';
import { Warning } from './domain.ts';

/** The contract version served under /api/v1/ (spec section 9). */
export const API_VERSION = '1.0';

export const Meta = z.object({
  request_id: z.string(),
  api_version: z.string(),
  generated_at: Timestamp,
  warnings: z.array(Warning),
  sandbox: z.boolean(),
});
export type Meta = z.infer<typeof Meta>;

/** Every successful response: data and meta (spec 2.1). */
export function envelope<D extends z.ZodType>(data: D) {
  return z.object({ data, meta: Meta });
}
