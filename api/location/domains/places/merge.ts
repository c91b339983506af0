import type { PointHit } from '../../kinds/points.ts';
import { distanceM, RAD } from '../../kinds/radius.ts';

/**
 * "A place published several times is served once" (spec 2.5). Two points are one place when:
 * - they have the same category (a metro station and the train station above it stay two places);
 * - they are at most MERGE_DISTANCE_M apart (great-circle, between the two points), or
 *   LARGE_SITE_MERGE_DISTANCE_M for train stations and airports, whose producers place them
 *   at different points of a large site (Paris Gare de Lyon: 90 m between SNCF and the RER stop);
 * - their names match: lower-cased, accents and punctuation removed, the words of one are all
 *   words of the other ("De Brouckère" and "Brussel De Brouckère"); or one of them has no name
 *   (INSEE's BPE publishes none) and they come from different sources: a BPE school 20 m from the
 *   school of the education directory is that school, two nameless BPE pharmacies stay two.
 * The place served is the nearest of them to the query (ties: smallest id), with the lines of
 * all of them, its own first, and the name of a twin when it has none; counts count it once.
 * Written up in docs/places.md.
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

const nameless = (h: PointHit) => nameWords(h.name).length === 0;

export function samePlace(a: PointHit, b: PointHit): boolean {
  return a.category === b.category
    && distanceM(a.latitude, a.longitude, Math.cos(a.latitude * RAD), b.latitude, b.longitude) <= mergeDistanceOf(a.category)
    && (sameName(a.name, b.name) || ((nameless(a) || nameless(b)) && a.source !== b.source));
}

/**
 * Grid the kept places are bucketed in, in degrees: each side above the largest merge distance
 * (300 m: 0.003 degree of latitude is 333 m; 0.01 degree of longitude is 380 m up to 70 degrees
 * north), so a twin is in one of the 9 buckets around a point.
 */
const BUCKET_LAT = 0.003, BUCKET_LNG = 0.01;

/**
 * The hits (nearest first) with each place once; the kept hit carries the lines of the merged
 * ones. A hit merges into the first kept place it is the same place as, as a scan of all of them
 * would find; the kept places are bucketed by category and grid only because a national table
 * gives thousands of places within 1,000 m of a city point, which a pairwise scan compares squared.
 */
export function mergeDuplicates(hits: readonly PointHit[]): PointHit[] {
  const kept: PointHit[] = [];
  const buckets = new Map<string, number[]>();
  const keyOf = (category: string, i: number, j: number) => `${category}|${i}|${j}`;
  for (const h of hits) {
    const i = Math.floor(h.latitude / BUCKET_LAT), j = Math.floor(h.longitude / BUCKET_LNG);
    let first = -1;
    for (let di = -1; di <= 1; di++) {
      for (let dj = -1; dj <= 1; dj++) {
        for (const k of buckets.get(keyOf(h.category, i + di, j + dj)) ?? []) {
          if ((first < 0 || k < first) && samePlace(kept[k]!, h)) first = k;
        }
      }
    }
    if (first < 0) {
      const key = keyOf(h.category, i, j);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(kept.length); else buckets.set(key, [kept.length]);
      kept.push({ ...h });
      continue;
    }
    const twin = kept[first]!;
    if (nameless(twin) && !nameless(h)) twin.name = h.name;
    const mine = twin.attributes?.lines, theirs = h.attributes?.lines;
    if (Array.isArray(mine) && Array.isArray(theirs)) {
      const names = new Set(mine.map((l) => JSON.stringify(l)));
      twin.attributes = { ...twin.attributes, lines: [...mine, ...theirs.filter((l) => !names.has(JSON.stringify(l)))] };
    }
  }
  return kept;
}
