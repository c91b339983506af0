/**
 * Schema migrations, shared by both backends (PGlite and PostgreSQL).
 *
 * Migrations are plain SQL statements in TS modules under ./migrations/,
 * listed in order in ./migrations/index.ts. Pending ones are applied in a
 * single transaction and recorded in `schema_migrations`; running again is a
 * no-op. On PostgreSQL a transaction-scoped advisory lock (keyed on the
 * current schema) serialises concurrent migrators: the second one waits,
 * then sees everything applied.
 */
import type { Sql } from './sql.ts';
import { migrations as registered } from './migrations/index.ts';

export interface Migration {
  /** `NNN_name`, also the module's file name; ordering is by this id. */
  readonly id: string;
  /**
   * Statements run in order, one at a time (PGlite's extended protocol
   * does not accept several commands in one query).
   */
  readonly statements: readonly string[];
}

export interface MigrateResult {
  /** Ids applied by this call, in order. */
  applied: string[];
  /** Ids recorded in the database but unknown to this code (newer code ran?). */
  unknown: string[];
}

/** The project's migrations, in order. */
export const migrations: readonly Migration[] = registered;

const ID_PATTERN = /^\d{3}_[a-z0-9_]+$/;
/** First key of the two-int advisory lock: arbitrary, constant. */
const LOCK_CLASS = 7_310_001;

/** Throws when ids are malformed, duplicated or out of order. */
export function validateMigrations(list: readonly Migration[]): void {
  let previous = '';
  for (const m of list) {
    if (!ID_PATTERN.test(m.id)) throw new Error(`migration id ${JSON.stringify(m.id)} must look like 001_name`);
    if (m.id <= previous) throw new Error(`migration ${m.id} is duplicated or out of order (after ${previous})`);
    if (m.statements.length === 0) throw new Error(`migration ${m.id} has no statements`);
    previous = m.id;
  }
}

/** Applies pending migrations (default: the project's set). Idempotent. */
export async function migrate(sql: Sql, list: readonly Migration[] = migrations): Promise<MigrateResult> {
  validateMigrations(list);
  return sql.transaction(async (tx) => {
    if (tx.kind === 'postgres') {
      await tx.query(`SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, [LOCK_CLASS]);
    }
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         id         text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const rows = await tx.query<{ id: string }>(`SELECT id FROM schema_migrations ORDER BY id`);
    const done = new Set(rows.map((r) => r.id));
    const known = new Set(list.map((m) => m.id));
    const applied: string[] = [];
    for (const m of list) {
      if (done.has(m.id)) continue;
      for (const statement of m.statements) {
        try {
          await tx.query(statement);
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          throw new Error(`migration ${m.id} failed: ${msg}`, { cause: err });
        }
      }
      await tx.query(`INSERT INTO schema_migrations (id) VALUES ($1)`, [m.id]);
      applied.push(m.id);
    }
    return { applied, unknown: [...done].filter((id) => !known.has(id)) };
  });
}

/** The migrations recorded in the database (empty before the first run). */
export async function appliedMigrations(sql: Sql): Promise<{ id: string; appliedAt: Date }[]> {
  const exists = await sql.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!exists[0]?.t) return [];
  const rows = await sql.query<{ id: string; applied_at: Date }>(
    `SELECT id, applied_at FROM schema_migrations ORDER BY id`,
  );
  return rows.map((r) => ({ id: r.id, appliedAt: r.applied_at }));
}
