import { join } from 'node:path';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import type { Country } from '../../schemas/common.ts';
import { TABLE_COLUMNS } from '../../schemas/tables/columns.ts';
import type { TableName } from '../../schemas/tables/index.ts';
import { publishedPartitions } from '../../schemas/tables/layout.ts';
import { TABLE_SCHEMA_VERSION } from '../../schemas/tables/manifest.ts';
import { partitionEntry, recordPartition } from './manifest.ts';
import { upgradeSelect } from './migrate-layout.ts';
import { writeSortedParquet } from './table-writer.ts';

/** The column each table's writer sorts its files by (the rewrite keeps it); others: cell, code or id, as the layout migration. */
const ORDER_BY: Partial<Record<TableName, string>> = { addresses: 'cell', sales: 'cell', copro: 'building_id' };

/** The list columns of a table (VARCHAR[] in schemas/tables/columns.ts). */
function listColumns(table: TableName): string[] {
  return Object.entries(TABLE_COLUMNS[table]).filter(([, type]) => type.endsWith('[]')).map(([name]) => name);
}

/**
 * Rewrites in place the partitions of today's layout (data/tables/) written before a column
 * became a Parquet list: `addresses.parcels` (schema version 3) and `sales.parcels`,
 * `sales.lots` (version 2) were `|`-joined text. Such a file is read with its column types, the
 * text split into a list ('' the empty list, null stays null: upgradeSelect), every other column
 * kept, written sorted beside it and renamed over it (readers see the old file or the new one,
 * never a part); its manifest entry follows (checksum, schema version). Run by the ingest CLI
 * before any command after the layout migration; a no-op once done (the check reads only the
 * files' footers). Returns the partitions rewritten, as `<cc>/<table>/<partition>`.
 */
export async function migrateListColumns(dataDir: string, countries: readonly Country[], log: (line: string) => void = () => {}): Promise<string[]> {
  const rewritten: string[] = [];
  let db: DuckDBInstance | null = null;
  try {
    for (const table of Object.keys(TABLE_COLUMNS) as TableName[]) {
      const lists = listColumns(table);
      if (lists.length === 0) continue;
      for (const country of countries) {
        const files = [...publishedPartitions(dataDir, country, table)];
        if (files.length === 0) continue;
        db ??= await DuckDBInstance.create(':memory:', { memory_limit: '1GB', temp_directory: join(dataDir, '.tmp', `migrate-columns-${process.pid}`) });
        const c = await db.connect();
        try {
          // The files whose list column is a plain text column (BYTE_ARRAY leaf) instead of a LIST group.
          const stale = new Set((await c.runAndReadAll(
            `SELECT DISTINCT file_name FROM parquet_schema([${files.map(([, f]) => quotedString(f)).join(', ')}])
             WHERE name IN (${lists.map(quotedString).join(', ')}) AND type = 'BYTE_ARRAY'`)).getRowObjectsJS().map((r) => r.file_name as string));
          for (const [partition, file] of files) {
            if (!stale.has(file)) continue;
            const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quotedString(file)}, hive_partitioning = false)`)).getRowObjectsJS()
              .map((r) => ({ name: r.column_name as string, type: r.column_type as string }));
            const names = columns.map((x) => x.name);
            const orderBy = ORDER_BY[table] && names.includes(ORDER_BY[table]) ? ORDER_BY[table] : ['cell', 'code', 'id'].find((n) => names.includes(n)) ?? names[0]!;
            const prepared = await writeSortedParquet(c, upgradeSelect(file, columns, TABLE_COLUMNS[table]), { dataDir, country, table, partition, orderBy });
            const written = await prepared.commit();
            const recorded = await partitionEntry(dataDir, country, table, partition);
            if (recorded) await recordPartition(dataDir, country, { ...recorded, sha256: written.sha256, schema_version: TABLE_SCHEMA_VERSION });
            rewritten.push(`${country}/${table}/${partition}`);
            log(`rewrote ${written.relativePath}: ${lists.join(', ')} as Parquet lists`);
          }
        } finally {
          c.closeSync();
        }
      }
    }
  } finally {
    db?.closeSync();
  }
  return rewritten;
}
