import { z } from 'zod';

/** An everyday place or transport stop around the point (spec 2.5). */
export const Place = z.object({
  id: z.string().regex(/^plc_/),
  category: z.string().regex(/^[a-z_]+(\.[a-z_]+)?$/),
  name: z.string().nullable().describe('as the producer publishes it; null when it publishes none (INSEE\'s BPE counts equipment without names) and no other source names the place'),
  address: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  distance_m: z.number().int(),
  walk_minutes: z.number().int(),
  lines: z.array(z.string()).nullable(),
});
export type Place = z.infer<typeof Place>;

/** Walking time as the crow flies at 80 m per minute (spec 2.5). */
export function walkMinutes(distanceM: number): number {
  return Math.ceil(distanceM / 80);
}
