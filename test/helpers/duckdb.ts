import { DuckDBInstance } from '@duckdb/node-api';

/** Runs one query on a fresh in-memory DuckDB, as an analyst reading the files (or a producer's file) directly would. */
export async function duckRows<T>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJS() as T[]; } finally { c.closeSync(); db.closeSync(); }
}
