import { existsSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, quotedIdentifier, quotedString } from '@duckdb/node-api';
import type { Country } from '../../schemas/common.ts';
import { TABLE_COLUMNS } from '../../schemas/tables/columns.ts';
import type { TableName } from '../../schemas/tables/index.ts';
import { legacyTableDir } from '../../schemas/tables/layout.ts';
import { TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import { partitionEntry, recordPartition } from './manifest.ts';
import { writeSortedParquet } from './table-writer.ts';

/** Folders of data/<cc>/ that are not tables of the earlier layout. */
const NOT_TABLES = new Set(['rejects']);

/** The select converting the columns of a file of the earlier layout to the table's types today. */
export function upgradeSelect(file: string, columns: { name: string; type: string }[], target: Readonly<Record<string, string>> | undefined): string {
  const parts = columns.map(({ name, type }) => {
    const c = quotedIdentifier(name);
    const want = target?.[name] ?? ({ UBIGINT: 'BIGINT', UTINYINT: 'TINYINT' } as Record<string, string>)[type] ?? type;
    if (want === type) return c;
    // `|`-joined text of the earlier files (parcels, lots) -> a list; '' was the empty list.
    if (want.endsWith('[]') && type === 'VARCHAR') return `CASE WHEN ${c} IS NULL THEN NULL WHEN ${c} = '' THEN []::${want} ELSE string_split(${c}, '|') END AS ${c}`;
    return `CAST(${c} AS ${want}) AS ${c}`;
  });
  return `SELECT ${parts.join(', ')} FROM read_parquet(${quotedString(file)}, hive_partitioning = false)`;
}

/**
 * Moves the tables of the earlier layout (data/<cc>/<table>/<partition>.parquet) to today's
 * (schemas/tables/layout.ts), each file rewritten with today's column types (BIGINT cells, lists)
 * and GeoParquet columns, its manifest entry following (file, checksum). Run by the ingest CLI
 * before any command, so `npm start` and every job find one layout; a no-op once done. Returns
 * the partitions moved, as `<cc>/<table>/<partition>`.
 */
export async function migrateLegacyLayout(dataDir: string, countries: readonly Country[], log: (line: string) => void = () => {}): Promise<string[]> {
  const moved: string[] = [];
  for (const country of countries) {
    const root = join(dataDir, country);
    if (!existsSync(root)) continue;
    for (const entry of await readdir(root, { withFileTypes: true })) {
      if (!entry.isDirectory() || NOT_TABLES.has(entry.name) || entry.name.startsWith('.')) continue;
      const table = entry.name;
      const dir = legacyTableDir(dataDir, country, table);
      const files = (await readdir(dir)).filter((f) => f.endsWith('.parquet') && !f.startsWith('.'));
      if (files.length === 0) continue;
      const db = await DuckDBInstance.create(':memory:', { memory_limit: '1GB', temp_directory: join(dataDir, '.tmp', `migrate-${process.pid}`) });
      const c = await db.connect();
      try {
        for (const f of files.sort()) {
          const file = join(dir, f);
          const partition = f.slice(0, -'.parquet'.length);
          const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quotedString(file)}, hive_partitioning = false)`)).getRowObjectsJS()
            .map((r) => ({ name: r.column_name as string, type: r.column_type as string }));
          const names = columns.map((x) => x.name);
          // The order the writers use: cell for what is looked up by position, else the code or id.
          const orderBy = ['cell', 'code', 'id'].find((n) => names.includes(n)) ?? names[0]!;
          const prepared = await writeSortedParquet(c, upgradeSelect(file, columns, TABLE_COLUMNS[table as TableName]), { dataDir, country, table, partition, orderBy });
          const written = await prepared.commit();
          const recorded = await partitionEntry(dataDir, country, table, partition);
          if (recorded) await recordPartition(dataDir, country, { ...recorded, file: written.relativePath, sha256: written.sha256, schema_version: TABLE_SCHEMA_VERSION });
          await rm(file, { force: true });
          moved.push(`${country}/${table}/${partition}`);
          log(`moved ${country}/${table}/${f} to ${written.relativePath}`);
        }
      } finally {
        c.closeSync();
        db.closeSync();
      }
      // The folder goes once empty (a pending file of a live writer keeps it).
      await rmdir(dir).catch(() => {});
    }
  }
  return moved;
}
