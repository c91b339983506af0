/**
 * Test backends for the state store: PGlite in memory always, and the
 * PostgreSQL server named by env DATABASE_URL when set. Each `open()` gives
 * an isolated database: a fresh in-memory PGlite, or a fresh schema on the
 * server (search_path set on every pooled connection), dropped on cleanup.
 */
import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Sql, type SqlKind } from '../../../../api/core/state/sql.ts';

export interface Isolated {
  sql: Sql;
  /** PostgreSQL only: the schema and a URL selecting it (for child processes). */
  schema?: string;
  url?: string;
  /** Another pool on the same schema (PostgreSQL only). */
  openAnother?: () => Promise<Sql>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: SqlKind;
  open(): Promise<Isolated>;
}

export const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;

/** Adds `options=-c search_path=<schema>` to a postgres:// URL. */
export function urlWithSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

const pglite: Backend = {
  name: 'pglite',
  async open() {
    const sql = await openPglite('memory');
    return { sql, cleanup: () => sql.close() };
  },
};

function postgres(url: string): Backend {
  return {
    name: 'postgres',
    async open() {
      const schema = `test_state_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = await openPostgres(url, { max: 1 });
      await admin.query(`CREATE SCHEMA ${schema}`);
      const opened: Sql[] = [];
      const openAnother = async () => {
        const s = await openPostgres(url, { searchPath: schema });
        opened.push(s);
        return s;
      };
      const sql = await openAnother();
      return {
        sql,
        schema,
        url: urlWithSearchPath(url, schema),
        openAnother,
        async cleanup() {
          for (const s of opened) await s.close();
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await admin.close();
        },
      };
    },
  };
}

export const backends: Backend[] = DATABASE_URL ? [pglite, postgres(DATABASE_URL)] : [pglite];
