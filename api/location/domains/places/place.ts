import { createHash } from 'node:crypto';
import { Place, walkMinutes } from '../../../../schemas/place.ts';
import type { PointHit } from '../../kinds/points.ts';

/**
 * A point of a places table as the contract's Place (spec 2.5). The id is derived from the
 * source's id and the producer's own id (`plc_` + 20 hex of their SHA-256): the same stop of the
 * same feed keeps its id across ingests, and no public numbering shows through.
 */
export function placeId(pointId: string): string {
  return `plc_${createHash('sha256').update(pointId).digest('hex').slice(0, 20)}`;
}

interface LineAttr { short_name?: string | null; long_name?: string | null }

/** A line as Place.lines names it: its short name, else its long name. */
const lineName = (l: LineAttr): string | null => l.short_name ?? l.long_name ?? null;

export function toPlace(hit: PointHit): Place {
  const a = hit.attributes ?? {};
  const lines = Array.isArray(a.lines) ? (a.lines as LineAttr[]).map(lineName).filter((n): n is string => n !== null) : null;
  const distance = Math.round(hit.distance_m);
  return {
    id: placeId(hit.id), category: hit.category, name: hit.name, address: typeof a.address === 'string' ? a.address : null,
    latitude: hit.latitude, longitude: hit.longitude, distance_m: distance, walk_minutes: walkMinutes(distance),
    // Lines for transport stops only (spec 2.5), an empty list when the feed publishes none.
    lines: hit.category.startsWith('transport.') && Array.isArray(a.lines) ? [...new Set(lines)] : null,
  };
}
