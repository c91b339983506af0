import { quotedString, type DuckDBValue } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import { perRefresh, type Warehouse } from '../../core/warehouse.ts';
import { indexCache, lowerBound, type IndexCache } from '../search/warehouse-index.ts';
import { DISTANCE_SQL, distanceM, RAD, radiusRanges, rangeClusters } from './radius.ts';

/**
 * The API reader of the "points" table kind (schemas/tables/points.ts): the points within a
 * radius, nearest first with their exact distance (ties by id), counted per category, one page of
 * them served. From an in-process index of the table once it is built, else from the Parquet
 * files through DuckDB: both give the same answer (test/api/location/kinds/points.test.ts).
 */

export interface PointHit {
  id: string; category: string; name: string | null; attributes: Record<string, unknown> | null;
  latitude: number; longitude: number; distance_m: number; source: string;
}
/**
 * A hit whose attributes are decoded only when asked (pointsAroundLite): a merge of every point
 * within the radius reads names and positions; the attributes of the page served are decoded then.
 */
export interface LitePointHit extends Omit<PointHit, 'attributes'> { loadAttributes(): Record<string, unknown> | null }
export interface PointsQuery {
  lat: number; lng: number; radiusM: number;
  /** Groups or categories of the taxonomy (school matches school and school.*); none: every point. */
  categories?: readonly string[];
  limit: number; offset: number;
}
export interface PointsAnswer { counts: Record<string, number>; total: number; items: PointHit[] }
export interface LitePointsAnswer { counts: Record<string, number>; total: number; items: LitePointHit[] }

const matches = (category: string, filters: readonly string[] | undefined) =>
  !filters || filters.length === 0 || filters.some((f) => category === f || category.startsWith(`${f}.`));

const order = (a: { distance_m: number; id: string }, b: { distance_m: number; id: string }) =>
  a.distance_m - b.distance_m || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The same answer by a DuckDB scan of the Parquet files: before the index is built, and as its reference in tests. */
export async function pointsAroundSql(warehouse: Warehouse, country: Country, table: string, q: PointsQuery): Promise<PointsAnswer> {
  const scans: string[] = [];
  for (const c of rangeClusters(radiusRanges(q.lat, q.lng, q.radiusM))) {
    const files = warehouse.filesWithCells(country, table, c.lo, c.hi);
    if (files.length === 0) continue;
    // Cell bounds are integers computed here, file names quoted: no client text reaches the SQL.
    scans.push(`SELECT id, category, name, attributes, latitude, longitude, source FROM read_parquet([${files.map(quotedString).join(', ')}], union_by_name = true)
      WHERE cell BETWEEN ${c.lo}::BIGINT AND ${c.hi}::BIGINT`);
  }
  if (scans.length === 0) return { counts: {}, total: 0, items: [] };
  const filters = q.categories ?? [];
  // Categories are bound parameters ($3...), never spliced into the text.
  const where = filters.length === 0 ? '' : ` AND (${filters.map((_, i) => `category = $${i + 3} OR starts_with(category, $${i + 3} || '.')`).join(' OR ')})`;
  const rows = await warehouse.query<Record<string, unknown>>(
    `WITH r AS MATERIALIZED (SELECT * FROM (SELECT *, ${DISTANCE_SQL} AS distance_m FROM (${scans.join(' UNION ALL ')})) WHERE distance_m <= ${Math.floor(q.radiusM)}${where})
     SELECT 'count' AS kind, category, count(*)::INTEGER AS n, NULL AS id, NULL AS name, NULL AS attributes, NULL::DOUBLE AS latitude, NULL::DOUBLE AS longitude, NULL AS source, NULL::DOUBLE AS distance_m FROM r GROUP BY category
     UNION ALL
     SELECT * FROM (SELECT 'item', category, NULL, id, name, attributes, latitude, longitude, source, distance_m FROM r ORDER BY distance_m, id LIMIT ${Math.floor(q.limit)} OFFSET ${Math.floor(q.offset)})`,
    [q.lat, q.lng, ...filters] as DuckDBValue[],
  );
  const counts: Record<string, number> = {};
  const items: PointHit[] = [];
  for (const r of rows) {
    if (r.kind === 'count') { counts[r.category as string] = r.n as number; continue; }
    items.push({
      id: r.id as string, category: r.category as string, name: r.name as string | null, attributes: r.attributes ? JSON.parse(r.attributes as string) : null,
      latitude: r.latitude as number, longitude: r.longitude as number, distance_m: r.distance_m as number, source: r.source as string,
    });
  }
  // UNION ALL keeps no order across its branches: the page is sorted again here.
  items.sort(order);
  return { counts: sortedKeys(counts), total: Object.values(counts).reduce((a, b) => a + b, 0), items };
}

const sortedKeys = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The table in memory, in cell order: cells, positions and a category number per point (25 bytes),
 * and a source number (2 bytes), and the text of each point (id, name, then attributes) as UTF-8
 * behind one offset (4 bytes).
 */
export interface PointsIndex {
  readonly size: number; readonly bytes: number;
  around(q: PointsQuery): PointsAnswer;
  /** The same answer, each item's attributes decoded on demand. */
  aroundLite(q: PointsQuery): LitePointsAnswer;
  /** The nearest point of the categories however far (distance, then id), or null when the table holds none. */
  nearest(q: NearestQuery): PointHit | null;
}

/** A nearest-point query (spec 2.11: found beyond the radius, however far within the country's table). */
export interface NearestQuery { lat: number; lng: number; categories: readonly string[] }

/**
 * Radius of the first look for a nearest point: a disk read as `around` reads it. Nothing of the
 * categories there, the points of those categories are scanned (one list per category, kept at build).
 */
export const NEAREST_FIRST_RADIUS_M = 3000;

/** Default memory budget of one points table: above it the index is not built and DuckDB answers. */
export const POINTS_INDEX_BUDGET = 1 * 2 ** 30;
const SEP = 0;

export async function buildPointsIndex(warehouse: Warehouse, country: Country, table: string, budget = POINTS_INDEX_BUDGET): Promise<PointsIndex | null> {
  if (!warehouse.has(country, table)) return null;
  const view = `${country}_${table}`;
  const [{ n, text }] = await warehouse.query<{ n: number; text: number }>(
    `SELECT count(*)::INTEGER AS n, coalesce(sum(strlen(id) + strlen(coalesce(name, '')) + strlen(coalesce(attributes, '')) + 3), 0)::BIGINT::DOUBLE AS text FROM ${view}`,
  ) as [{ n: number; text: number }];
  // 31 bytes a point (cell, position, category and source numbers, text offset) and 4 for its place in its category's list.
  const bytes = n * 35 + text;
  if (bytes > budget) return null;
  const cells = new BigUint64Array(n), lats = new Float64Array(n), lngs = new Float64Array(n);
  const cats = new Uint16Array(n), srcs = new Uint16Array(n), offsets = new Uint32Array(n + 1);
  const utf8 = new Uint8Array(text);
  const categories: string[] = [];
  const catIndex = new Map<string, number>();
  // Sources are few (one per producer file or feed): a number per point, each name decoded once.
  const sources: string[] = [];
  const srcIndex = new Map<string, number>();
  const encoder = new TextEncoder();
  let i = 0, at = 0;
  await warehouse.scan(`SELECT cell, latitude, longitude, category, id, name, attributes, source FROM ${view} ORDER BY cell, id`, (cols) => {
    const [cell, la, ln, cat, id, name, attrs, source] = cols as [bigint[], number[], number[], string[], string[], (string | null)[], (string | null)[], string[]];
    for (let r = 0; r < cell.length && i < n; r++, i++) {
      cells[i] = cell[r]!; lats[i] = la[r]!; lngs[i] = ln[r]!;
      let c = catIndex.get(cat[r]!);
      if (c === undefined) { c = categories.length; categories.push(cat[r]!); catIndex.set(cat[r]!, c); }
      cats[i] = c;
      let sn = srcIndex.get(source[r]!);
      if (sn === undefined) { sn = sources.length; sources.push(source[r]!); srcIndex.set(source[r]!, sn); }
      srcs[i] = sn;
      offsets[i] = at;
      // Attributes last: a lite read decodes id and name and stops at the second separator.
      for (const part of [id[r]!, name[r] ?? '', attrs[r] ?? '']) {
        at += encoder.encodeInto(part, utf8.subarray(at)).written;
        utf8[at++] = SEP;
      }
    }
  });
  offsets[i] = at;
  // The points of each category, for the nearest beyond the first radius.
  const sizes = new Uint32Array(categories.length);
  for (let k = 0; k < i; k++) sizes[cats[k]!]!++;
  const members = [...sizes].map((size) => new Uint32Array(size));
  const filled = new Uint32Array(categories.length);
  for (let k = 0; k < i; k++) { const c = cats[k]!; members[c]![filled[c]!++] = k; }
  const decoder = new TextDecoder();
  const idOf = (k: number) => { const s = offsets[k]!; return decoder.decode(utf8.subarray(s, utf8.indexOf(SEP, s))); };
  /** Id, name and source of a point, and where its attributes' JSON is. */
  const headOf = (k: number) => {
    const s = offsets[k]!;
    const end = utf8.indexOf(SEP, utf8.indexOf(SEP, s) + 1);
    const [id, name] = decoder.decode(utf8.subarray(s, end)).split('\u0000') as [string, string];
    return { id, name: name === '' ? null : name, source: sources[srcs[k]!]!, attrsAt: end + 1, attrsEnd: offsets[k + 1]! - 1 };
  };
  const attributesAt = (from: number, to: number): Record<string, unknown> | null => (to > from ? JSON.parse(decoder.decode(utf8.subarray(from, to))) : null);
  const hitOf = (k: number, distance_m: number): PointHit => {
    const h = headOf(k);
    return { id: h.id, category: categories[cats[k]!]!, name: h.name, attributes: attributesAt(h.attrsAt, h.attrsEnd), latitude: lats[k]!, longitude: lngs[k]!, distance_m, source: h.source };
  };
  const liteHitOf = (k: number, distance_m: number): LitePointHit => {
    const h = headOf(k);
    return { id: h.id, category: categories[cats[k]!]!, name: h.name, latitude: lats[k]!, longitude: lngs[k]!, distance_m, source: h.source, loadAttributes: () => attributesAt(h.attrsAt, h.attrsEnd) };
  };
  /** Every point within the radius of the categories, nearest first (ties: id), and the counts per category. */
  const hitsAround = (q: PointsQuery) => {
    const cosLat = Math.cos(q.lat * RAD);
    const allowed = categories.map((c) => matches(c, q.categories));
    const hits: { k: number; distance_m: number; id: string }[] = [];
    for (const [lo, hi] of radiusRanges(q.lat, q.lng, q.radiusM)) {
      for (let k = lowerBound(cells, lo); k < i && cells[k]! <= hi; k++) {
        if (!allowed[cats[k]!]) continue;
        const d = distanceM(q.lat, q.lng, cosLat, lats[k]!, lngs[k]!);
        // The SQL path compares with the floor of the radius: the same rim here.
        if (d <= Math.floor(q.radiusM)) hits.push({ k, distance_m: d, id: '' });
      }
    }
    const counts: Record<string, number> = {};
    for (const h of hits) { const c = categories[cats[h.k]!]!; counts[c] = (counts[c] ?? 0) + 1; }
    // Ids are decoded only where distances tie.
    hits.sort((a, b) => a.distance_m - b.distance_m || ((a.id ||= idOf(a.k)) < (b.id ||= idOf(b.k)) ? -1 : a.id > b.id ? 1 : 0));
    return { counts: sortedKeys(counts), hits };
  };

  const index: PointsIndex = {
    size: i,
    bytes,
    around(q) {
      const { counts, hits } = hitsAround(q);
      return { counts, total: hits.length, items: hits.slice(q.offset, q.offset + q.limit).map(({ k, distance_m }) => hitOf(k, distance_m)) };
    },
    aroundLite(q) {
      const { counts, hits } = hitsAround(q);
      return { counts, total: hits.length, items: hits.slice(q.offset, q.offset + q.limit).map(({ k, distance_m }) => liteHitOf(k, distance_m)) };
    },
    nearest(q) {
      const near = index.around({ lat: q.lat, lng: q.lng, radiusM: NEAREST_FIRST_RADIUS_M, categories: q.categories, limit: 1, offset: 0 });
      if (near.items.length > 0) return near.items[0]!;
      const cosLat = Math.cos(q.lat * RAD);
      let best = -1, bestD = Infinity, bestId = '';
      categories.forEach((c, ci) => {
        if (!matches(c, q.categories)) return;
        for (const k of members[ci]!) {
          const d = distanceM(q.lat, q.lng, cosLat, lats[k]!, lngs[k]!);
          if (d > bestD) continue;
          // Ties by id, as the SQL orders them.
          const id = d === bestD ? idOf(k) : '';
          if (d < bestD || id < bestId) { best = k; bestD = d; bestId = id || idOf(k); }
        }
      });
      if (best < 0) return null;
      return hitOf(best, bestD);
    },
  };
  return index;
}

/** The nearest point by a DuckDB scan of the table ordered as the radius reader orders (distance, id): before the index is built, and as its reference. */
export async function nearestPointSql(warehouse: Warehouse, country: Country, table: string, q: NearestQuery): Promise<PointHit | null> {
  if (!warehouse.has(country, table) || q.categories.length === 0) return null;
  // The view name is the country enum and a table name of the code; the position and the codes are bound.
  const where = q.categories.map((_, i) => `category = $${i + 3} OR starts_with(category, $${i + 3} || '.')`).join(' OR ');
  const rows = await warehouse.query<Record<string, unknown>>(
    `SELECT id, category, name, attributes, latitude, longitude, source, ${DISTANCE_SQL} AS distance_m FROM ${country}_${table}
     WHERE ${where} ORDER BY distance_m, id LIMIT 1`,
    [q.lat, q.lng, ...q.categories] as DuckDBValue[],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id as string, category: r.category as string, name: r.name as string | null, attributes: r.attributes ? JSON.parse(r.attributes as string) : null,
    latitude: r.latitude as number, longitude: r.longitude as number, distance_m: r.distance_m as number, source: r.source as string,
  };
}

/**
 * The categories a points table holds (a category without any row is not ingested there, which
 * is not "none around"), read once per warehouse refresh: a scan of the category column would
 * otherwise run on every request.
 */
export function pointCategories(warehouse: Warehouse, country: Country, table: string): Promise<Set<string>> {
  if (!warehouse.has(country, table)) return Promise.resolve(new Set());
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `categories ${key}`, () => warehouse.query<{ category: string }>(`SELECT DISTINCT category FROM ${key}`).then((rows) => new Set(rows.map((r) => r.category))));
}

/** The (category, source) pairs of a points table, read once per warehouse refresh as pointCategories. */
export function pointCategorySources(warehouse: Warehouse, country: Country, table: string): Promise<{ category: string; source: string }[]> {
  if (!warehouse.has(country, table)) return Promise.resolve([]);
  const key = `${country}_${table}`;
  return perRefresh(warehouse, `category sources ${key}`, () => warehouse.query<{ category: string; source: string }>(`SELECT DISTINCT category, source FROM ${key}`));
}

const caches = new Map<string, IndexCache<PointsIndex>>();
const cacheOf = (table: string) => {
  let c = caches.get(table);
  if (!c) { c = indexCache(table, (w, country) => buildPointsIndex(w, country, table)); caches.set(table, c); }
  return c;
};

/** The index of a points table once built (null meanwhile: DuckDB answers). */
export const pointsIndexOf = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).of(warehouse, country);
export const pointsIndexReady = (warehouse: Warehouse, country: Country, table: string) => cacheOf(table).ready(warehouse, country);

/** The nearest point of the categories however far: from the index once built, else by a DuckDB scan. */
export async function nearestPoint(warehouse: Warehouse, country: Country, table: string, q: NearestQuery): Promise<PointHit | null> {
  const index = pointsIndexOf(warehouse, country, table);
  return index ? index.nearest(q) : nearestPointSql(warehouse, country, table, q);
}

/** As pointsAround, each item's attributes decoded when asked (a merge over every point within the radius). */
export async function pointsAroundLite(warehouse: Warehouse, country: Country, table: string, q: PointsQuery): Promise<LitePointsAnswer> {
  const index = pointsIndexOf(warehouse, country, table);
  if (index) return index.aroundLite(q);
  const answer = await pointsAroundSql(warehouse, country, table, q);
  return { ...answer, items: answer.items.map(({ attributes, ...h }) => ({ ...h, loadAttributes: () => attributes })) };
}

/** Points within the radius, nearest first: from the index once built, else from the Parquet files. */
export async function pointsAround(warehouse: Warehouse, country: Country, table: string, q: PointsQuery): Promise<PointsAnswer> {
  const index = pointsIndexOf(warehouse, country, table);
  return index ? index.around(q) : pointsAroundSql(warehouse, country, table, q);
}
