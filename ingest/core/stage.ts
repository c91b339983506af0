import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { writeSortedParquet, type PreparedTable, type SortedTarget } from './table-writer.ts';
import { registerIngestFunctions } from './vector-functions.ts';

/**
 * A disk-backed DuckDB database for one job run: DuckDB reads the source and writes the
 * Parquet file itself while TypeScript functions registered on the connection compute per
 * vector (H3 cells, keys, reprojection: see vector-functions.ts). Memory stays bounded (spilling to the work folder); the folder is
 * removed by `close`, and a killed run's folder by the next run (cleanStaleTemporaries).
 */
let opened = 0;

export class Stage {
  private constructor(readonly connection: DuckDBConnection, private readonly instance: DuckDBInstance, private readonly workDir: string) {}

  static async open(dataDir: string, name: string): Promise<Stage> {
    // Its own folder even beside another stage of the same name in this process (the pid last:
    // cleanStaleTemporaries reads it there).
    const workDir = join(dataDir, '.tmp', `${name}-${++opened}-${process.pid}`);
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    const instance = await DuckDBInstance.create(join(workDir, 'stage.duckdb'), {
      temp_directory: join(workDir, 'spill'),
      memory_limit: '1GB',
    });
    const connection = await instance.connect();
    registerIngestFunctions(connection);
    return new Stage(connection, instance, workDir);
  }

  /** Writes the rows of `select` sorted by `orderBy` beside the published partition, without replacing it yet. */
  prepareParquet(select: string, target: SortedTarget): Promise<PreparedTable> {
    return writeSortedParquet(this.connection, select, target);
  }

  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.workDir, { recursive: true, force: true });
  }
}
