import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appliedMigrations,
  migrate,
  migrations,
  validateMigrations,
  type Migration,
} from '../../../../api/core/state/migrations.ts';
import { backends, type Isolated } from './backends.ts';

const migrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../api/core/state/migrations',
);

describe('migration set', () => {
  it('registers every NNN_*.ts file of the folder, in order, with matching ids', () => {
    const files = readdirSync(migrationsDir)
      .filter((f) => /^\d{3}_.*\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(migrations.map((m) => m.id)).toEqual(files);
    expect(() => validateMigrations(migrations)).not.toThrow();
  });

  it('rejects malformed, duplicated or unordered ids', () => {
    const m = (id: string): Migration => ({ id, statements: ['SELECT 1'] });
    expect(() => validateMigrations([m('1_x')])).toThrow(/must look like/);
    expect(() => validateMigrations([m('002_b'), m('001_a')])).toThrow(/out of order/);
    expect(() => validateMigrations([m('001_a'), m('001_a')])).toThrow(/duplicated/);
    expect(() => validateMigrations([{ id: '001_a', statements: [] }])).toThrow(/no statements/);
  });
});

describe.each(backends)('migrations on $name', (backend) => {
  let db: Isolated | undefined;
  afterEach(async () => {
    await db?.cleanup();
    db = undefined;
  });

  const tableExists = async (name: string) =>
    (await db!.sql.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [name]))[0].t !== null;

  it('applies 001 on a fresh database, then is a no-op', async () => {
    db = await backend.open();
    expect(await appliedMigrations(db.sql)).toEqual([]);
    const first = await migrate(db.sql);
    expect(first.applied).toEqual(migrations.map((m) => m.id));
    expect(first.applied[0]).toBe('001_keys');
    for (const t of ['api_keys', 'quota_usage', 'resolved_addresses', 'schema_migrations']) {
      expect(await tableExists(t)).toBe(true);
    }
    const second = await migrate(db.sql);
    expect(second).toEqual({ applied: [], unknown: [] });
    const recorded = await appliedMigrations(db.sql);
    expect(recorded.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    expect(recorded[0].appliedAt).toBeInstanceOf(Date);
  });

  it('creates the expected columns', async () => {
    db = await backend.open();
    await migrate(db.sql);
    const cols = await db.sql.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable
         FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ANY($1)
        ORDER BY table_name, ordinal_position`,
      [['api_keys', 'quota_usage', 'resolved_addresses']],
    );
    const shape = (t: string) => cols.filter((c) => c.table_name === t).map((c) => `${c.column_name}:${c.data_type}:${c.is_nullable}`);
    expect(shape('api_keys')).toEqual([
      'fingerprint:text:NO',
      'prefix_hint:text:NO',
      'label:text:YES',
      'sandbox:boolean:NO',
      'countries:ARRAY:NO',
      'domains:ARRAY:YES',
      'created_at:timestamp with time zone:NO',
      'revoked_at:timestamp with time zone:YES',
      'agency_id:bigint:YES', // 006_space: the agency managing the key in the client space
    ]);
    expect(shape('quota_usage')).toEqual(['fingerprint:text:NO', 'period_start:date:NO', 'units:bigint:NO']);
    expect(shape('resolved_addresses').map((s) => s.split(':').slice(0, 2).join(':'))).toEqual([
      'normalized_query:text',
      'country:text',
      'label:text',
      'latitude:double precision',
      'longitude:double precision',
      'precision:text',
      'source:text',
      'raw:jsonb',
      'resolved_at:timestamp with time zone',
      'hits:integer',
    ]);
  });

  it('applies later migrations incrementally and reports unknown recorded ids', async () => {
    db = await backend.open();
    await migrate(db.sql);
    const extra: Migration = { id: '900_extra', statements: ['CREATE TABLE extra (id int)', 'INSERT INTO extra VALUES (1)'] };
    expect((await migrate(db.sql, [...migrations, extra])).applied).toEqual(['900_extra']);
    expect(await db.sql.query(`SELECT id FROM extra`)).toEqual([{ id: 1 }]);
    // Older code (without 900) sees it as unknown but does not fail.
    expect(await migrate(db.sql)).toEqual({ applied: [], unknown: ['900_extra'] });
  });

  it('rolls a failing batch back entirely', async () => {
    db = await backend.open();
    const broken: Migration = { id: '901_broken', statements: ['CREATE TABLE half (id int)', 'SELECT * FROM nope'] };
    await expect(migrate(db.sql, [...migrations, broken])).rejects.toThrow(/migration 901_broken failed/);
    expect(await tableExists('half')).toBe(false);
    expect(await tableExists('api_keys')).toBe(false);
    expect(await appliedMigrations(db.sql)).toEqual([]);
    expect((await migrate(db.sql)).applied).toEqual(migrations.map((m) => m.id));
  });

  it.runIf(backend.name === 'postgres')('serialises concurrent migrators (advisory lock)', async () => {
    db = await backend.open();
    const pools = await Promise.all(Array.from({ length: 4 }, () => db!.openAnother!()));
    const results = await Promise.all(pools.map((p) => migrate(p)));
    const applied = results.flatMap((r) => r.applied);
    expect(applied.sort()).toEqual(migrations.map((m) => m.id).sort());
    expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
    const rows = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM schema_migrations`);
    expect(rows[0].n).toBe(migrations.length);
  });
});
