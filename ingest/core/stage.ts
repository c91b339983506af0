import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { fileSha256, partitionPath, quoteIdent, type PreparedTable, type WrittenTable } from './table-writer.ts';
import { rename } from 'node:fs/promises';

/**
 * A disk-backed DuckDB database for one job run: DuckDB reads the source and writes the
 * Parquet file itself while TypeScript functions registered on the connection compute per
 * vector (H3 cells, keys). Memory stays bounded (spilling to the work folder); the folder is
 * removed by `close`, and a killed run's folder by the next run (cleanStaleTemporaries).
 */
export class Stage {
  private constructor(readonly connection: DuckDBConnection, private readonly instance: DuckDBInstance, private readonly workDir: string) {}

  static async open(dataDir: string, name: string): Promise<Stage> {
    const workDir = join(dataDir, '.tmp', `${name}-${process.pid}`);
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    const instance = await DuckDBInstance.create(join(workDir, 'stage.duckdb'), {
      temp_directory: join(workDir, 'spill'),
      memory_limit: '1GB',
    });
    return new Stage(await instance.connect(), instance, workDir);
  }

  /** Writes the rows of `select` sorted by `orderBy` beside the published partition, without replacing it yet. */
  async prepareParquet(select: string, target: { dataDir: string; country: string; table: string; partition: string; orderBy: string }): Promise<PreparedTable> {
    const finalPath = partitionPath(target.dataDir, target.country, target.table, target.partition);
    const tmpPath = `${finalPath}.tmp-${process.pid}`;
    await mkdir(join(target.dataDir, target.country, target.table), { recursive: true });
    await this.connection.run(
      `COPY (${select} ORDER BY ${quoteIdent(target.orderBy)}) TO '${tmpPath.replaceAll("'", "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 8192)`,
    );
    const count = await this.connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${tmpPath.replaceAll("'", "''")}')`);
    const written: WrittenTable = {
      path: finalPath,
      relativePath: join(target.table, `${target.partition}.parquet`),
      rows: count.getRowObjectsJS()[0]!.n as number,
      sha256: await fileSha256(tmpPath),
    };
    return {
      written,
      commit: async () => { await rename(tmpPath, finalPath); return written; },
      discard: async () => { await rm(tmpPath, { force: true }); },
    };
  }

  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.workDir, { recursive: true, force: true });
  }
}
