import type { PointHit } from '../../kinds/points.ts';
import { distanceM, RAD } from '../../kinds/radius.ts';

/**
 * "A place published several times is served once" (spec 2.5). Two points are one place when:
 * - they have the same category (a metro station and the train station above it stay two places);
 * - they are at most MERGE_DISTANCE_M apart (great-circle, between the two points), or
 *   LARGE_SITE_MERGE_DISTANCE_M for train stations and airports, whose producers place them
 *   at different points of a large site (Paris Gare de Lyon: 90 m between SNCF and the RER stop);
 * - their names match: lower-cased, accents and punctuation removed, the words of one are all
 *   words of the other ("De Brouckère" and "Brussel De Brouckère").
 * The place served is the nearest of them to the query (ties: smallest id), with the lines of
 * all of them, its own first; counts count it once. Written up in docs/places.md.
 */
export const MERGE_DISTANCE_M = 50;
export const LARGE_SITE_MERGE_DISTANCE_M = 300;
const LARGE_SITES = new Set(['transport.train_station', 'transport.airport']);
export const mergeDistanceOf = (category: string) => (LARGE_SITES.has(category) ? LARGE_SITE_MERGE_DISTANCE_M : MERGE_DISTANCE_M);

export function nameWords(name: string | null): string[] {
  return (name ?? '').toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter((w) => w !== '');
}

export function sameName(a: string | null, b: string | null): boolean {
  const wa = nameWords(a), wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0) return false;
  const [small, large] = wa.length <= wb.length ? [wa, new Set(wb)] : [wb, new Set(wa)];
  return small.every((w) => large.has(w));
}

export function samePlace(a: PointHit, b: PointHit): boolean {
  return a.category === b.category && sameName(a.name, b.name)
    && distanceM(a.latitude, a.longitude, Math.cos(a.latitude * RAD), b.latitude, b.longitude) <= mergeDistanceOf(a.category);
}

/** The hits (nearest first) with each place once; the kept hit carries the lines of the merged ones. */
export function mergeDuplicates(hits: readonly PointHit[]): PointHit[] {
  const kept: PointHit[] = [];
  for (const h of hits) {
    const twin = kept.find((k) => samePlace(k, h));
    if (!twin) { kept.push({ ...h }); continue; }
    const mine = twin.attributes?.lines, theirs = h.attributes?.lines;
    if (Array.isArray(mine) && Array.isArray(theirs)) {
      const names = new Set(mine.map((l) => JSON.stringify(l)));
      twin.attributes = { ...twin.attributes, lines: [...mine, ...theirs.filter((l) => !names.has(JSON.stringify(l)))] };
    }
  }
  return kept;
}
