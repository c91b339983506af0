/**
 * Transactional state store: one tiny SQL interface over two backends.
 *
 * - PGlite (embedded PostgreSQL compiled to WASM) in a data directory, the
 *   default, so a fresh clone runs without any server;
 * - a PostgreSQL server (pg Pool) when DATABASE_URL is set.
 *
 * Both speak the same SQL dialect (PostgreSQL), run the same migrations and
 * are covered by the same test suite. Parameters are always bound ($1, $2…),
 * never concatenated into the text.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireDirLock, type DirLock } from './lock.ts';

export { StateLockedError, lockFileFor } from './lock.ts';

export type SqlKind = 'pglite' | 'postgres';

export interface Sql {
  /** Runs one statement with bound parameters ($1…) and returns its rows. */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `fn` in a transaction: COMMIT when it resolves, ROLLBACK when it
   * throws (the error is rethrown). Calling `transaction` on the `tx` handle
   * opens a nested SAVEPOINT.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Releases the connection(s) and, for PGlite, the data directory lock. */
  close(): Promise<void>;
  readonly kind: SqlKind;
}

/* ------------------------------------------------------------------ */
/* Shared: savepoints for nested transactions on a transaction handle */
/* ------------------------------------------------------------------ */

type RawQuery = (text: string, params?: unknown[]) => Promise<unknown[]>;

function txHandle(kind: SqlKind, raw: RawQuery): Sql {
  let savepoints = 0;
  const handle: Sql = {
    kind,
    query: <T>(text: string, params?: unknown[]) => raw(text, params) as Promise<T[]>,
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const name = `sp_${++savepoints}`;
      await raw(`SAVEPOINT ${name}`);
      try {
        const result = await fn(handle);
        await raw(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (err) {
        await raw(`ROLLBACK TO SAVEPOINT ${name}`);
        await raw(`RELEASE SAVEPOINT ${name}`);
        throw err;
      }
    },
    close: () => Promise.reject(new Error('close() cannot be called on a transaction handle')),
  };
  return handle;
}

/* ------------------------------------------------------------------ */
/* PGlite                                                              */
/* ------------------------------------------------------------------ */

/**
 * Opens an embedded PGlite database. `dir` is a data directory (created if
 * missing) or 'memory' for a throwaway in-memory database.
 *
 * PGlite admits a single process per data directory: a lock file `<dir>.lock`
 * (created with O_EXCL, holding the owner's pid) guards it. Opening a
 * directory held by a live process throws {@link StateLockedError} without
 * touching the data; a lock left behind by a dead process is taken over.
 */
export async function openPglite(dir: string | 'memory'): Promise<Sql> {
  if (dir === 'memory') return wrapPglite(await createCluster(), null);

  const abs = path.resolve(dir);
  mkdirSync(path.dirname(abs), { recursive: true });
  const lock = acquireDirLock(abs);
  try {
    mkdirSync(abs, { recursive: true });
    const db = existsSync(path.join(abs, 'PG_VERSION')) ? await PGlite.create(abs) : await createCluster(abs);
    return wrapPglite(db, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/**
 * The first new database of a process keeps a copy of its empty cluster, and the next new ones
 * (in memory or in an empty directory) start from it: PGlite's initdb, in WASM, costs 1.6 s in
 * memory and 3.5 s in a directory here, loading the copy 0.3 to 0.8 s. The tests open hundreds.
 */
let emptyCluster: Promise<File | Blob> | null = null;

async function createCluster(dir?: string): Promise<PGlite> {
  const template = emptyCluster && (await emptyCluster.catch(() => null));
  if (template) return dir ? PGlite.create(dir, { loadDataDir: template }) : PGlite.create({ loadDataDir: template });
  const db = dir ? await PGlite.create(dir) : await PGlite.create();
  // Taken before any statement runs: an empty cluster, as initdb leaves it.
  emptyCluster ??= db.dumpDataDir('none');
  await emptyCluster.catch(() => { emptyCluster = null; });
  return db;
}

function wrapPglite(db: PGlite, lock: DirLock | null): Sql {
  let closed = false;
  const sql: Sql = {
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const res = await db.query<T>(text, params as unknown[] | undefined);
      return res.rows;
    },
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      // PGlite serialises work internally: other queries wait until the
      // transaction ends. It issues BEGIN/COMMIT/ROLLBACK itself.
      return db.transaction(async (tx: PgliteTransaction) => {
        const raw: RawQuery = async (text, params) =>
          (await tx.query(text, params as unknown[] | undefined)).rows;
        return fn(txHandle('pglite', raw));
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
  return sql;
}

/* ------------------------------------------------------------------ */
/* PostgreSQL server                                                   */
/* ------------------------------------------------------------------ */

export interface PostgresOptions {
  /**
   * Sets `search_path` on every pooled connection (startup option), e.g. to
   * isolate tests in their own schema. Must be a plain identifier.
   */
  searchPath?: string;
  /** Pool size (default 10). */
  max?: number;
}

/** Opens a pg Pool on `url` (a postgres:// connection string). */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Sql> {
  const config: pg.PoolConfig = { connectionString: url, max: options.max ?? 10 };
  if (options.searchPath !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.searchPath)) {
      throw new Error(`invalid searchPath ${JSON.stringify(options.searchPath)}: expected a plain identifier`);
    }
    config.options = `-c search_path=${options.searchPath}`;
  }
  const pool = new pg.Pool(config);
  // An idle client losing its connection must not crash the process; the
  // pool discards it and the next query opens a fresh one.
  pool.on('error', () => {});
  // Fail fast on a bad URL / unreachable server.
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }

  let closed = false;
  return {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const res = await pool.query(text, params);
      return res.rows as T[];
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        try {
          const raw: RawQuery = async (text, params) => (await client.query(text, params)).rows;
          const result = await fn(txHandle('postgres', raw));
          await client.query('COMMIT');
          return result;
        } catch (err) {
          try {
            await client.query('ROLLBACK');
          } catch (rollbackErr) {
            // The connection is unusable: destroy it instead of pooling it.
            broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
          }
          throw err;
        }
      } finally {
        client.release(broken);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/* ------------------------------------------------------------------ */
/* Choice                                                              */
/* ------------------------------------------------------------------ */

export interface StateOptions {
  /** When set (non-empty), use this PostgreSQL server. */
  databaseUrl?: string;
  /** Data directory; the embedded store lives at `<dataDir>/state`. */
  dataDir: string;
}

/** PostgreSQL when `databaseUrl` is set, else PGlite at `<dataDir>/state`. */
export function openState(options: StateOptions): Promise<Sql> {
  if (options.databaseUrl && options.databaseUrl.trim() !== '') {
    return openPostgres(options.databaseUrl.trim());
  }
  return openPglite(statePath(options.dataDir));
}

/** Where the embedded store of a data directory lives. */
export function statePath(dataDir: string): string {
  return path.join(dataDir, 'state');
}
