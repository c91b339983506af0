/**
 * The zone-of-a-point rule (DESIGN.md, Spatial indexing), once for the ingest jobs and the API:
 * the cover rows of a point's cell and its ancestors (table zone_cells) give, per level, either an
 * interior cell (the point is in that zone, no test needed) or border candidates; a border
 * candidate wins when its outline contains the point, candidates tried in code order so that a
 * point exactly on a shared edge gets the same zone in every reader.
 */
export interface CoverHit { level: string; code: string; interior: boolean }

export interface LevelCandidates<H extends CoverHit> { level: string; interior: H | null; border: H[] }

/** Groups the cover rows by level, in the order levels first appear, border candidates sorted by code. */
export function candidatesByLevel<H extends CoverHit>(hits: Iterable<H>): LevelCandidates<H>[] {
  const byLevel = new Map<string, LevelCandidates<H>>();
  for (const h of hits) {
    const e = byLevel.get(h.level) ?? { level: h.level, interior: null, border: [] };
    // A cell is interior to one zone per level; the finest cell's row comes first and is kept.
    if (h.interior) e.interior ??= h; else e.border.push(h);
    byLevel.set(h.level, e);
  }
  for (const e of byLevel.values()) e.border.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return [...byLevel.values()];
}

/** The zone of each level containing the point, `contains` being the exact outline test. */
export function zonesOfPoint<H extends CoverHit>(hits: Iterable<H>, contains: (hit: H) => boolean): H[] {
  const found: H[] = [];
  for (const e of candidatesByLevel(hits)) {
    const z = e.interior ?? e.border.find(contains);
    if (z) found.push(z);
  }
  return found;
}

/** The same rule when outlines are read on demand (the API fetches them from the warehouse). */
export async function zonesOfPointAsync<H extends CoverHit>(hits: Iterable<H>, contains: (hit: H) => Promise<boolean>): Promise<H[]> {
  const found: H[] = [];
  for (const e of candidatesByLevel(hits)) {
    if (e.interior) { found.push(e.interior); continue; }
    for (const z of e.border) if (await contains(z)) { found.push(z); break; }
  }
  return found;
}
