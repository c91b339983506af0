import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import initSqlJs, { type Database } from 'sql.js';

/**
 * A GeoPackage (an SQLite file, OGC 12-128r18) opened read-only in memory with sql.js (SQLite
 * compiled to WebAssembly: no native build). Used for the producers that publish one, such as
 * Quebec's Répertoire des terrains contaminés; the file is read whole (tens of megabytes).
 */
export interface GeoPackage {
  /** Tables of gpkg_contents (features and attributes), by name. */
  tables(): string[];
  columns(table: string): string[];
  /** Number of rows of a table (for a job's progress). */
  count(table: string): number;
  /** Rows of a table, as text (SQLite values stringified; NULL stays null). */
  rows(table: string, columns: string[]): IterableIterator<Record<string, string | null>>;
  close(): void;
}

const require = createRequire(import.meta.url);

export async function openGeoPackage(path: string): Promise<GeoPackage> {
  const bytes = await readFile(path);
  if (bytes.subarray(0, 16).toString('latin1') !== 'SQLite format 3\u0000') throw new Error(`${path} is not a GeoPackage (not an SQLite file)`);
  const SQL = await initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
  const db: Database = new SQL.Database(bytes);
  const one = (sql: string, params: (string | number)[] = []) => {
    const st = db.prepare(sql);
    st.bind(params);
    const out: Record<string, unknown>[] = [];
    while (st.step()) out.push(st.getAsObject());
    st.free();
    return out;
  };
  const hasContents = one("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'gpkg_contents'").length > 0;
  if (!hasContents) { db.close(); throw new Error(`${path} is an SQLite file without gpkg_contents: not a GeoPackage`); }
  const quoteId = (s: string) => `"${s.replaceAll('"', '""')}"`;
  return {
    // A table listed in gpkg_contents but absent from the file is not there.
    tables: () => one("SELECT table_name FROM gpkg_contents WHERE table_name IN (SELECT name FROM sqlite_master WHERE type IN ('table', 'view')) ORDER BY table_name").map((r) => String(r.table_name)),
    columns: (table) => one(`PRAGMA table_info(${quoteId(table)})`).map((r) => String(r.name)),
    count: (table) => Number(one(`SELECT count(*) AS n FROM ${quoteId(table)}`)[0]!.n),
    *rows(table, columns) {
      const st = db.prepare(`SELECT ${columns.map(quoteId).join(', ')} FROM ${quoteId(table)}`);
      try {
        while (st.step()) {
          const values = st.get();
          yield Object.fromEntries(columns.map((c, i) => [c, values[i] === null || values[i] === undefined ? null : String(values[i])]));
        }
      } finally { st.free(); }
    },
    close: () => db.close(),
  };
}
