import type { LitePointHit, PointHit } from '../../kinds/points.ts';
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
  return sameWords(nameWords(a), nameWords(b));
}

function sameWords(wa: readonly string[], wb: readonly string[]): boolean {
  if (wa.length === 0 || wb.length === 0) return false;
  const [small, large] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
  return small.every((w) => large.includes(w));
}

/** What the merge reads of a point: its category, position, name and source (never its attributes). */
export type Mergeable = Pick<PointHit, 'category' | 'name' | 'latitude' | 'longitude' | 'source'>;

export function samePlace(a: Mergeable, b: Mergeable): boolean {
  return samePlaceWords(a, nameWords(a.name), b, nameWords(b.name));
}

/** samePlace with the names' words already read (the merge reads each name once). */
function samePlaceWords(a: Mergeable, wa: readonly string[], b: Mergeable, wb: readonly string[]): boolean {
  return a.category === b.category
    && distanceM(a.latitude, a.longitude, Math.cos(a.latitude * RAD), b.latitude, b.longitude) <= mergeDistanceOf(a.category)
    && (sameWords(wa, wb) || ((wa.length === 0 || wb.length === 0) && a.source !== b.source));
}

const EARTH_M = 6371008.8;

/** A place kept by the merge: the nearest of its points, and the others merged into it, nearest first. */
export type Kept<H> = H & { twins: H[] };

/**
 * The hits (nearest first) with each place once, each kept hit with its twins; the name of a twin
 * when the kept one has none. A hit merges into the first kept place it is the same place as, as a
 * scan of all of them would find; the kept places are bucketed by category and grid only because a
 * national table gives thousands of places within 1,000 m of a city point, which a pairwise scan
 * compares squared (each category's grid sized by its merge distance). Attributes are not read: the lines of the twins are joined for the places
 * served only (servedHit).
 */
export function mergeTwins<H extends Mergeable>(hits: readonly H[]): Kept<H>[] {
  const kept: Kept<H>[] = [];
  const keptWords: string[][] = [];
  // The grid of a category: cells just wider than its merge distance, so a twin is in one of the
  // 9 cells around a point: in latitude d / R; in longitude d / (R cos φ) at the highest latitude
  // of the hits (a great-circle distance d spans at most that much of either), 1 % over.
  let maxLat = 0;
  for (const h of hits) maxLat = Math.max(maxLat, Math.abs(h.latitude));
  const cosMin = Math.cos(Math.min(maxLat, 89.9) * RAD);
  const grids = new Map<string, { no: number; lat: number; lng: number }>();
  // Bucket keys are numbers: the category's number, then the cell's row and column (21 bits each).
  const buckets = new Map<number, number[]>();
  const keyOf = (c: number, i: number, j: number) => (c * 2097152 + (i & 0x1fffff)) * 2097152 + (j & 0x1fffff);
  for (const h of hits) {
    let grid = grids.get(h.category);
    if (!grid) {
      const lat = (mergeDistanceOf(h.category) / EARTH_M / RAD) * 1.01;
      grids.set(h.category, (grid = { no: grids.size, lat, lng: Math.min(360, lat / cosMin) }));
    }
    const i = Math.floor(h.latitude / grid.lat), j = Math.floor(h.longitude / grid.lng);
    const words = nameWords(h.name);
    let first = -1;
    for (let di = -1; di <= 1; di++) {
      for (let dj = -1; dj <= 1; dj++) {
        const bucket = buckets.get(keyOf(grid.no, i + di, j + dj));
        if (!bucket) continue;
        for (const k of bucket) {
          if ((first < 0 || k < first) && samePlaceWords(kept[k]!, keptWords[k]!, h, words)) first = k;
        }
      }
    }
    if (first < 0) {
      const key = keyOf(grid.no, i, j);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(kept.length); else buckets.set(key, [kept.length]);
      kept.push({ ...h, twins: [] });
      keptWords.push(words);
      continue;
    }
    const twin = kept[first]!;
    if (keptWords[first]!.length === 0 && words.length > 0) { twin.name = h.name; keptWords[first] = words; }
    twin.twins.push(h);
  }
  return kept;
}

type AnyHit = PointHit | LitePointHit;
const attributesOf = (h: AnyHit) => ('loadAttributes' in h ? h.loadAttributes() : h.attributes);

/** A kept place as served: its attributes, with the lines of its twins after its own (each line once). */
export function servedHit(kept: Kept<AnyHit>): PointHit {
  const { twins, ...own } = kept;
  let attributes = attributesOf(kept);
  for (const t of twins) {
    const mine = attributes?.lines, theirs = attributesOf(t)?.lines;
    if (Array.isArray(mine) && Array.isArray(theirs)) {
      const names = new Set(mine.map((l) => JSON.stringify(l)));
      attributes = { ...attributes, lines: [...mine, ...theirs.filter((l) => !names.has(JSON.stringify(l)))] };
    }
  }
  const { loadAttributes: _, ...fields } = own as LitePointHit & PointHit;
  return { ...fields, attributes };
}

/** The hits with each place once, as served (mergeTwins, then servedHit). */
export function mergeDuplicates(hits: readonly PointHit[]): PointHit[] {
  return mergeTwins(hits).map(servedHit);
}
