import { statSync } from 'node:fs';
import type { Country } from '../../../schemas/common.ts';
import type { Warehouse } from '../../core/warehouse.ts';

/**
 * Mechanics shared by the in-process indexes of warehouse tables (sales radius index, address
 * index): arrays sorted by H3 cell searched by binary search, and one index per warehouse and
 * table, built in the background after a refresh that changed the table's files, the DuckDB
 * path answering until it is ready.
 */

/** First position whose cell is >= x in an ascending array. */
export function lowerBound(cells: BigUint64Array, x: bigint): number {
  let lo = 0, hi = cells.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if (cells[m]! < x) lo = m + 1; else hi = m; }
  return lo;
}

/** The table's files as an index saw them (path, size, modification time): a refresh that left them alone keeps the index. */
function filesSignature(warehouse: Warehouse, country: Country, table: string): string {
  if (!warehouse.has(country, table)) return '';
  // Every file of the table: a table without a cell column (zones, diagnoses, property events) has no cell statistics.
  const files = warehouse.filesOf?.(country, table) ?? warehouse.filesWithCells(country, table, 0n, 2n ** 64n - 1n);
  return [...files].sort().map((f) => {
    try { const s = statSync(f); return `${f}:${s.size}:${s.mtimeMs}`; } catch { return `${f}:gone`; }
  }).join('|');
}

/** How long the last build of each index took, per warehouse: index (its tables), country, seconds, when it ended. */
export interface IndexBuild { index: string; country: Country; seconds: number; built_at: Date }
const builds = new WeakMap<Warehouse, Map<string, IndexBuild>>();

/** The last build of every in-memory index of the warehouse (for /metrics). */
export function indexBuildTimes(warehouse: Warehouse): IndexBuild[] {
  return [...(builds.get(warehouse)?.values() ?? [])].sort((a, b) => a.index.localeCompare(b.index) || a.country.localeCompare(b.country));
}

type Entry<T> = { generation: number; files: string; index: T | null; ready: Promise<T | null> };

export interface IndexCache<T> {
  /** The index of the current files, or null while it is built (or when there is none): callers then use DuckDB. */
  of(warehouse: Warehouse, country: Country): T | null;
  /** Resolves when the current index is built (null: no table, over budget, or the read failed). */
  ready(warehouse: Warehouse, country: Country): Promise<T | null>;
}

/**
 * One index per warehouse and country of `table` (or tables), built by `build` on first use after a
 * refresh that changed their files (a new manifest). The previous index is dropped first, so two
 * never coexist; a build that fails (table rewritten under the read, read error) leaves the
 * DuckDB path answering until the next refresh retries.
 */
export function indexCache<T>(table: string | readonly string[], build: (warehouse: Warehouse, country: Country) => Promise<T | null>): IndexCache<T> {
  const tables = typeof table === 'string' ? [table] : table;
  const signature = (warehouse: Warehouse, country: Country) => tables.map((t) => filesSignature(warehouse, country, t)).join('#');
  const built = new WeakMap<Warehouse, Map<Country, Entry<T>>>();
  const current = (warehouse: Warehouse, country: Country): Entry<T> => {
    let byCountry = built.get(warehouse);
    if (!byCountry) { byCountry = new Map(); built.set(warehouse, byCountry); }
    const hit = byCountry.get(country);
    if (hit && hit.generation === warehouse.generation) return hit;
    const files = signature(warehouse, country);
    if (hit && hit.files === files) { hit.generation = warehouse.generation; return hit; }
    const entry: Entry<T> = { generation: warehouse.generation, files, index: null, ready: Promise.resolve(null) };
    byCountry.set(country, entry);
    const started = performance.now();
    entry.ready = build(warehouse, country).then(
      (index) => {
        if (byCountry.get(country) === entry && signature(warehouse, country) === files) entry.index = index;
        if (entry.index !== null) {
          let times = builds.get(warehouse);
          if (!times) { times = new Map(); builds.set(warehouse, times); }
          const name = tables.join('+');
          times.set(`${name}/${country}`, { index: name, country, seconds: (performance.now() - started) / 1000, built_at: new Date() });
        }
        return entry.index;
      },
      () => null,
    );
    return entry;
  };
  return { of: (w, c) => current(w, c).index, ready: (w, c) => current(w, c).ready };
}
