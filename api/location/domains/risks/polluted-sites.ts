import { pollutedSiteCategory } from '../../../../datasets/fr/polluted-sites/source.ts';
import { SIS_LAYER } from '../../../../datasets/fr/sis/source.ts';
import { areasAt } from '../../kinds/areas.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { FrRisks } from '../../../../schemas/risks.ts';
import { pointCategories, type pointsAround } from '../../kinds/points.ts';
import type { LocationRouteDeps, ResolveContext } from '../types.ts';

export const POLLUTED_SITE_TYPES = ['former_industrial_activity', 'soil_information_area', 'contaminated_land', 'suspected_land'] as const;
const TABLE = 'polluted_sites';
/** Spec 8: default radius of polluted sites. */
const DEFAULT_RADIUS_M = 500;
const ITEMS = 10;
/**
 * Types no French producer publishes: BASOL's sites are those calling for public action
 * (contaminated_land), CASIAS's former activities (former_industrial_activity), the SIS soil
 * information areas; there is no national register of suspected land. Absent, such a type is
 * not published on this territory (not_covered), not momentarily unavailable; an operator's own
 * file of suspected sites (fr.polluted-sites --type suspected_land) is served once ingested.
 */
const NOT_PUBLISHED_IN_FRANCE: ReadonlySet<string> = new Set(['suspected_land']);

/**
 * polluted_sites of France (spec 2.10) around the point: counts per type within the radius and the
 * nearest sites. A type none of whose sites is ingested here has a null count (reason
 * unavailable, or not_covered for a type France does not publish), never 0: a zero would say
 * "no site" where nothing was looked at. `inside`: the SIS
 * areas containing the point.
 */
export async function pollutedSitesAt(deps: LocationRouteDeps, ctx: ResolveContext, around: typeof pointsAround):
  Promise<{ sites: NonNullable<FrRisks['polluted_sites']>; missing: Missing; warnings: Warning[] } | { unavailable: true }> {
  if (!deps.warehouse.has('fr', TABLE)) return { unavailable: true };
  const served = await pointCategories(deps.warehouse, 'fr', TABLE);
  const answer = await around(deps.warehouse, 'fr', TABLE, { lat: ctx.location.latitude, lng: ctx.location.longitude, radiusM: ctx.radius ?? DEFAULT_RADIUS_M, limit: ITEMS, offset: 0 });
  const missing: Missing = {};
  const inside = await sisInside(deps, ctx, served.has(pollutedSiteCategory('soil_information_area')));
  if (!Array.isArray(inside)) missing['polluted_sites.inside'] = inside.reason;
  const counts = Object.fromEntries(POLLUTED_SITE_TYPES.map((t) => {
    const category = pollutedSiteCategory(t);
    if (!served.has(category)) { missing[`polluted_sites.counts.${t}`] = NOT_PUBLISHED_IN_FRANCE.has(t) ? 'not_covered' : 'unavailable'; return [t, null]; }
    return [t, answer.counts[category] ?? 0];
  })) as NonNullable<FrRisks['polluted_sites']>['counts'];
  const unserved = POLLUTED_SITE_TYPES.filter((t) => counts[t] === null && !NOT_PUBLISHED_IN_FRANCE.has(t));
  const items = answer.items.map((h) => {
    const a = (h.attributes ?? {}) as { address?: string | null; status?: string | null; updated_on?: string | null };
    return {
      type: h.category.slice('polluted_site.'.length) as (typeof POLLUTED_SITE_TYPES)[number], status: a.status ?? null, name: h.name,
      address: a.address ?? null, distance_m: Math.round(h.distance_m), updated_on: a.updated_on ?? null,
    };
  });
  const warnings: Warning[] = unserved.length > 0
    ? [{ domain: 'risks', code: 'data_unavailable', message: `polluted_sites: ${unserved.join(', ')} not ingested yet` }]
    : [];
  return { sites: { inside: Array.isArray(inside) ? inside : null, counts, items }, missing, warnings };
}

/**
 * The soil information areas containing the point (spec 2.10 `inside`), to be reported to a
 * buyer; not said for a position known only to the street or the commune (it would be another
 * parcel's), nor where the SIS are not ingested.
 */
async function sisInside(deps: LocationRouteDeps, ctx: ResolveContext, ingested: boolean):
  Promise<NonNullable<FrRisks['polluted_sites']>['inside'] & object | { reason: 'unavailable' | 'insufficient_precision' }> {
  if (!ingested) return { reason: 'unavailable' };
  if (ctx.location.precision === 'street' || ctx.location.precision === 'locality') return { reason: 'insufficient_precision' };
  const hits = (await areasAt(deps.warehouse, 'fr', 'hazard_areas', ctx.location.longitude, ctx.location.latitude)).filter((a) => a.layer === SIS_LAYER);
  return hits.map((h) => {
    const a = (h.attributes ?? {}) as { name?: string | null; updated_on?: string | null };
    return { type: 'soil_information_area' as const, status: null, name: a.name ?? null, updated_on: a.updated_on ?? null };
  });
}
