import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { pendingPath, pendingWriter, writeSortedParquet } from '../../../ingest/core/table-writer.ts';

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
