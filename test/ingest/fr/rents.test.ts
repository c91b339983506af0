import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRents, rentReliability, rentTypeOfName } from '../../../ingest/fr/rents.ts';
import { rentsJob } from '../../../ingest/fr/rents.job.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/rents/pred-app-mef-dhup.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/carte_loyers/pred-mai-mef-dhup_HEAD27_transcribed.csv');

/** The published file read by DuckDB directly (decimal comma, quoted codes). */
const reference = (file: string) => duckRows<{ code: string; rent: number; low: number; high: number; typpred: string; com: number; mail: number; r2: number }>(
  `SELECT INSEE_C AS code, loypredm2 AS rent, "lwr.IPm2" AS low, "upr.IPm2" AS high, TYPPRED AS typpred, nbobs_com AS com, nbobs_mail AS mail, R2_adj AS r2
   FROM read_csv('${file}', delim = ';', quote = '"', header = true, decimal_separator = ',',
     types = {'INSEE_C': 'VARCHAR', 'loypredm2': 'DOUBLE', 'lwr.IPm2': 'DOUBLE', 'upr.IPm2': 'DOUBLE', 'nbobs_com': 'INTEGER', 'nbobs_mail': 'INTEGER', 'R2_adj': 'DOUBLE'}) ORDER BY code`);

async function check(file: string, type: 'apartment' | 'house') {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-rents-')), 'data');
  const [part] = await ingestRents(silentContext(dataDir), { publishedAt: PUBLISHED, path: file, type, year: 2023 });
  expect(part).toMatchObject({ partition: `fr.rents.${type}.2023`, rejects: 0 });
  const out = await duckRows<{ code: string; level: string; value: number; range_low: number; range_high: number; sample_size: number; reliability: string; breakdown: string }>(
    `SELECT code, level, value, range_low, range_high, sample_size, reliability, breakdown FROM '${dataDir}/tables/zone_values/country=fr/*.parquet' ORDER BY code`);
  const ref = await reference(file);
  expect(out.length).toBe(ref.length);
  for (const [i, r] of ref.entries()) {
    expect(out[i]).toMatchObject({
      code: r.code, value: r.rent, range_low: r.low, range_high: r.high, breakdown: type,
      sample_size: r.typpred === 'commune' ? r.com : r.mail, reliability: rentReliability(r.typpred, r.r2),
      level: /^751/.test(r.code) ? 'sublocality_level1' : 'locality',
    });
  }
  return dataDir;
}

describe('fr.rents', () => {
  it('writes the apartments sample as DuckDB reads the published file (decimal comma, quoted codes, arrondissements of Paris)', async () => {
    await check(SAMPLE, 'apartment');
  });

  it.skipIf(!existsSync(REAL))('reads the real houses file as DuckDB does', async () => {
    await check(REAL, 'house');
  });

  it('takes the type from the producer\'s file name or --type, and the same content under another name replaces it', async () => {
    expect(rentTypeOfName('pred-app12-mef-dhup.csv')).toBe('apartment_1_2_rooms');
    expect(rentTypeOfName('/x/pred-mai-mef-dhup.csv')).toBe('house');
    expect(rentTypeOfName('loyers.csv')).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), 'lds-rents-renamed-'));
    const dataDir = join(dir, 'data');
    const renamed = join(dir, 'loyers-appartements.csv');
    await copyFile(SAMPLE, renamed);
    await rentsJob.run(silentContext(dataDir), ['--input', SAMPLE, '--year', '2023', '--published-on', PUBLISHED]);
    await expect(async () => rentsJob.run(silentContext(dataDir), ['--input', renamed, '--year', '2023', '--published-on', PUBLISHED])).rejects.toThrow(/give --type/);
    await rentsJob.run(silentContext(dataDir), ['--input', renamed, '--year', '2023', '--type', 'apartment', '--published-on', PUBLISHED]);
    expect(await readdir(join(dataDir, 'tables', 'zone_values', 'country=fr'))).toEqual(['fr.rents.apartment.2023.parquet']);
  });

  it('refuses a file of another layout, naming the missing columns, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-rents-bad-'));
    const file = join(dir, 'pred-app-mef-dhup.csv');
    await writeFile(file, '"INSEE_C";"loypredm2"\r\n"75103";32,4\r\n');
    await expect(ingestRents(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file, type: 'apartment', year: 2023 })).rejects.toThrow(/missing columns lwr.IPm2, upr.IPm2, TYPPRED, nbobs_com, nbobs_mail, R2_adj/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});
