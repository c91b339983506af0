import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { StageDatabase, TableWriter, pendingPath, pendingWriter, writeSortedParquet } from '../../../ingest/core/table-writer.ts';
import { duckRows } from '../../helpers/duckdb.ts';

describe('pending files', () => {
  it('are named with a leading dot, so that readers of a table folder (pandas, pyarrow) skip them', () => {
    const p = pendingPath('/data/fr/sales/2021-33.parquet');
    expect(p).toBe(`/data/fr/sales/.2021-33.parquet.tmp-${process.pid}`);
    expect(pendingWriter('.2021-33.parquet.tmp-42')).toBe(42);
    expect(pendingWriter('.manifest.json.tmp-7')).toBe(7);
    expect(pendingWriter('2021-33.parquet.tmp-9')).toBe(9); // the earlier layout, still cleaned
    expect(pendingWriter('2021-33.parquet')).toBeNull();
  });

  it('wait beside the published file until commit', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-pending-'));
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const prepared = await writeSortedParquet(c, 'SELECT 1::BIGINT AS cell', { dataDir, country: 'fr', table: 't', partition: 'p', orderBy: 'cell' });
      expect(await readdir(join(dataDir, 'tables/t/country=fr'))).toEqual([`.p.parquet.tmp-${process.pid}`]);
      await prepared.commit();
      expect(await readdir(join(dataDir, 'tables/t/country=fr'))).toEqual(['p.parquet']);
    } finally { c.closeSync(); db.closeSync(); }
  });
});

describe('a staging database shared by the writers of a run', () => {
  const columns = { cell: 'BIGINT', id: 'VARCHAR', commune: 'VARCHAR' };
  const rows = (p: number) => Array.from({ length: 3000 }, (_, i) => [BigInt((i * 7919 + p) % 3000), `${p}-${i}`, `c${p}`]);

  it('writes the same files as a database per writer, drops each writer\'s table once written or aborted, and keeps uncovered rows', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-stage-'));
    const sha = async (table: string, shared?: StageDatabase) => {
      const out: string[] = [];
      for (const p of [1, 2, 3]) {
        const w = await TableWriter.open({ dataDir, country: 'fr', table, partition: `p${p}`, columns, orderBy: 'cell' }, shared);
        for (const r of rows(p)) w.append(r);
        if (p === 2) { await w.abort(); continue; }
        out.push((await w.finish()).sha256);
      }
      return out;
    };
    const own = await sha('own');
    const stage = await StageDatabase.open(dataDir, 'fr', 'test');
    try {
      expect(await sha('shared', stage)).toEqual(own);
      expect((await stage.connection.runAndReadAll('SELECT table_name FROM information_schema.tables')).getRows()).toEqual([]);
      // keepUncovered reads the published partition into the writer's own table.
      const w = await TableWriter.open({ dataDir, country: 'fr', table: 'shared', partition: 'p1', columns, orderBy: 'cell' }, stage);
      w.append([5n, 'new', 'c9']);
      expect(await w.keepUncovered('commune')).toBe(3000);
      await w.finish();
    } finally { await stage.close(); }
    expect(await duckRows(`SELECT count(*)::INTEGER AS n FROM '${join(dataDir, 'tables/shared/country=fr/p1.parquet')}'`)).toEqual([{ n: 3001 }]);
    expect(await readdir(join(dataDir, '.tmp'))).toEqual([]);
  });
});
