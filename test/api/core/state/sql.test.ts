import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lockFileFor, openPglite, openState, statePath } from '../../../../api/core/state/sql.ts';
import { backends, DATABASE_URL, type Isolated } from './backends.ts';

describe.each(backends)('Sql on $name', (backend) => {
  let db: Isolated;
  beforeAll(async () => {
    db = await backend.open();
    await db.sql.query(`CREATE TABLE t (id serial PRIMARY KEY, v text NOT NULL, tags text[], doc jsonb)`);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('reports its kind', () => {
    expect(db.sql.kind).toBe(backend.name);
  });

  it('binds parameters instead of concatenating them', async () => {
    const evil = `x'); DROP TABLE t; --`;
    const rows = await db.sql.query<{ v: string; tags: string[]; doc: { a: number } }>(
      `INSERT INTO t (v, tags, doc) VALUES ($1, $2, $3) RETURNING v, tags, doc`,
      [evil, ['fr', 'ca'], { a: 1 }],
    );
    expect(rows).toEqual([{ v: evil, tags: ['fr', 'ca'], doc: { a: 1 } }]);
    const count = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM t WHERE v = $1`, [evil]);
    expect(count[0].n).toBe(1);
  });

  it('commits a transaction and returns its value', async () => {
    const id = await db.sql.transaction(async (tx) => {
      const r = await tx.query<{ id: number }>(`INSERT INTO t (v) VALUES ($1) RETURNING id`, ['committed']);
      return r[0].id;
    });
    const rows = await db.sql.query<{ v: string }>(`SELECT v FROM t WHERE id = $1`, [id]);
    expect(rows).toEqual([{ v: 'committed' }]);
  });

  it('rolls back when the function throws, and rethrows', async () => {
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (v) VALUES ($1)`, ['rolled-back']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await db.sql.query(`SELECT 1 FROM t WHERE v = $1`, ['rolled-back']);
    expect(rows).toEqual([]);
  });

  it('rolls back on an SQL error and stays usable', async () => {
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO t (v) VALUES ($1)`, ['before-error']);
        await tx.query(`INSERT INTO t (v) VALUES (NULL)`);
      }),
    ).rejects.toThrow();
    expect(await db.sql.query(`SELECT 1 FROM t WHERE v = $1`, ['before-error'])).toEqual([]);
    expect(await db.sql.query<{ one: number }>(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it('nests transactions as savepoints', async () => {
    await db.sql.transaction(async (tx) => {
      await tx.query(`INSERT INTO t (v) VALUES ($1)`, ['outer']);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO t (v) VALUES ($1)`, ['inner']);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await tx.transaction((inner) => inner.query(`INSERT INTO t (v) VALUES ($1)`, ['inner-ok']));
    });
    const rows = await db.sql.query<{ v: string }>(
      `SELECT v FROM t WHERE v IN ('outer', 'inner', 'inner-ok') ORDER BY id`,
    );
    expect(rows.map((r) => r.v)).toEqual(['outer', 'inner-ok']);
  });

  it('refuses close() on a transaction handle', async () => {
    await expect(db.sql.transaction((tx) => tx.close())).rejects.toThrow(/transaction handle/);
  });
});

describe('openState', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('uses PGlite at <dataDir>/state without DATABASE_URL, locked while open', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'state-'));
    dirs.push(dataDir);
    const sql = await openState({ dataDir, databaseUrl: '' });
    expect(sql.kind).toBe('pglite');
    await sql.query(`CREATE TABLE persisted (v text)`);
    await sql.query(`INSERT INTO persisted VALUES ($1)`, ['kept']);
    expect(existsSync(statePath(dataDir))).toBe(true);
    expect(existsSync(lockFileFor(statePath(dataDir)))).toBe(true);
    await sql.close();
    expect(existsSync(lockFileFor(statePath(dataDir)))).toBe(false);

    const again = await openState({ dataDir });
    expect(await again.query(`SELECT v FROM persisted`)).toEqual([{ v: 'kept' }]);
    await again.close();
  });

  it('starts every new embedded database empty, in memory or in a folder, each keeping its own data', async () => {
    // After the first, a new database is a copy of an empty cluster (faster than initdb): it must
    // hold nothing of the databases opened before it, and persist as one made by initdb.
    const first = await openPglite('memory');
    await first.query(`CREATE TABLE written_first (v text)`);
    await first.query(`INSERT INTO written_first VALUES ('a')`);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'state-'));
    dirs.push(dataDir);
    for (const sql of [await openPglite('memory'), await openState({ dataDir, databaseUrl: '' })]) {
      expect(await sql.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)).toEqual([{ n: 0 }]);
      await sql.query(`CREATE TABLE own (v text)`);
      await sql.query(`INSERT INTO own VALUES ($1)`, ['b']);
      await sql.close();
    }
    const reopened = await openState({ dataDir });
    expect(await reopened.query(`SELECT v FROM own`)).toEqual([{ v: 'b' }]);
    await reopened.close();
    expect(await first.query(`SELECT v FROM written_first`)).toEqual([{ v: 'a' }]);
    await first.close();
  });

  it.runIf(DATABASE_URL)('uses PostgreSQL when databaseUrl is set', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'state-'));
    dirs.push(dataDir);
    const sql = await openState({ dataDir, databaseUrl: DATABASE_URL });
    expect(sql.kind).toBe('postgres');
    expect(await sql.query<{ one: number }>(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    await sql.close();
    expect(existsSync(statePath(dataDir))).toBe(false);
  });
});
