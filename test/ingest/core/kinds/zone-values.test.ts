import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statbelIncomeSource } from '../../../../datasets/be/statbel-income/source.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../../../../ingest/core/kinds/zone-values.ts';
import { readManifest } from '../../../../ingest/core/manifest.ts';
import { tableDir } from '../../../../schemas/tables/layout.ts';
import { duckRows } from '../../../helpers/duckdb.ts';
import { silentContext } from '../../../helpers/fixture-data.ts';

const value = (code: string, year: number): ZoneValueInput => ({
  level: 'locality', code, indicator: 'test.value', breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
  value: 1, unit: 'count',
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'lds-zv-job-'));
  const input = join(dir, 'input.txt');
  await writeFile(input, 'any content\n');
  return { dataDir: join(dir, 'data'), input };
}

describe('runZoneValuesJob', () => {
  it('publishes every partition the rows opened, in the order of their names, with the rejects counted', async () => {
    const { dataDir, input } = await setup();
    const spec = { country: 'be' as const, job: 'be.test', source: statbelIncomeSource, input: { path: input, publishedAt: '2026-02-03' }, rejectsPartition: 'test' };
    const parts = await runZoneValuesJob(silentContext(dataDir), spec, async ({ writer, rejects }) => {
      expect((await writer('t.2021')).add(value('21004', 2021))).toBeNull();
      expect((await writer('t.2019')).add(value('21004', 2019))).toBeNull();
      rejects.add(3, 'a reason', { a: 1 });
      return 200;
    });
    expect(parts.map((p) => [p.partition, p.rows, p.rejects])).toEqual([['t.2019', 1, 1], ['t.2021', 1, 1]]);
    expect((await readdir(tableDir(dataDir, 'be', 'zone_values'))).sort()).toEqual(['t.2019.parquet', 't.2021.parquet']);
    // The producer's publication date in every row and in the manifest's source entry of each partition.
    const dates = await duckRows<{ d: string }>(`SELECT DISTINCT strftime(published_on, '%Y-%m-%d') AS d FROM '${tableDir(dataDir, 'be', 'zone_values')}/*.parquet'`);
    expect(dates).toEqual([{ d: '2026-02-03' }]);
    const entries = (await readManifest(dataDir, 'be')).partitions.map((p) => p.sources.map((x) => x.published_at));
    expect(entries).toEqual([['2026-02-03'], ['2026-02-03']]);
  });

  it('fails before opening anything without the producer\'s publication date, telling the operator to give --published-on', async () => {
    const { dataDir, input } = await setup();
    let read = false;
    for (const publishedAt of [undefined, null, '2026-13-45', '03/02/2026']) {
      const spec = { country: 'be' as const, job: 'be.test', source: statbelIncomeSource, input: { path: input, publishedAt }, rejectsPartition: 'test' };
      await expect(runZoneValuesJob(silentContext(dataDir), spec, async () => { read = true; return 0; }))
        .rejects.toThrow(publishedAt ? /be\.test: the publication date of input\.txt \(.*\) is not a date YYYY-MM-DD\. Nothing was written/ : /be\.test: the producer's publication date of input\.txt is not known; give --published-on YYYY-MM-DD, the date the producer's page gives for this edition/);
    }
    expect(read).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('publishes nothing when the reading fails or too many rows are refused', async () => {
    const { dataDir, input } = await setup();
    const spec = { country: 'be' as const, job: 'be.test', source: statbelIncomeSource, input: { path: input, publishedAt: '2026-02-03' }, rejectsPartition: 'test' };
    await expect(runZoneValuesJob(silentContext(dataDir), spec, async ({ writer }) => {
      (await writer('t.2021')).add(value('21004', 2021));
      throw new Error('layout changed halfway');
    })).rejects.toThrow(/layout changed halfway/);
    await expect(runZoneValuesJob(silentContext(dataDir), spec, async ({ writer, rejects }) => {
      (await writer('t.2021')).add(value('21004', 2021));
      rejects.add(2, 'bad', {});
      return 2;
    })).rejects.toThrow(/1 of 2 rows rejected/);
    const dir = tableDir(dataDir, 'be', 'zone_values');
    expect(existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith('.parquet')) : []).toEqual([]);
  });
});
