import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestSeismic, SEISMIC_INDICATOR } from '../../../ingest/fr/seismic.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/seismic/zonage_sismique_communes.csv');

const written = (dataDir: string) => duckRows<{ level: string; code: string; value: number; unit: string }>(
  `SELECT level, code, value, unit FROM '${dataDir}/tables/zone_values/country=fr/fr.seismic.parquet' WHERE indicator = '${SEISMIC_INDICATOR}' ORDER BY code`);

describe('fr.seismic', () => {
  it('writes the zone of every commune of the sample as DuckDB reads the file', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-seismic-')), 'data');
    const [summary] = await ingestSeismic(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE });
    expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.seismic', rejects: 0 });
    const out = await written(dataDir);
    const source = await duckRows<{ code: string; zone: string }>(
      `SELECT code_insee AS code, zone_sismicite AS zone FROM read_csv('${SAMPLE}', delim = ';', header = true, all_varchar = true) ORDER BY code`);
    expect(out.map((r) => [r.code, r.value])).toEqual(source.map((s) => [s.code, Number(s.zone)]));
    // The decree zones Paris as one commune: a locality, never arrondissements.
    expect(out.find((r) => r.code === '75056')).toMatchObject({ level: 'locality', unit: 'zone' });
  });

  it('refuses a zone outside 1-5 with its line, and a file of another layout naming the missing columns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-seismic-bad-'));
    const file = join(dir, 'zonage.csv');
    await writeFile(file, 'code_insee;nom_commune;zone_sismicite\r\n33001;Abzac;1\r\n33138;Coutras;6\r\n');
    const [summary] = await ingestSeismic({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: file });
    expect(summary).toMatchObject({ rows: 1, rejects: 1 });
    expect(await readFile(join(dir, 'data', 'fr', 'rejects', 'zone_values.fr.seismic.csv'), 'utf8')).toMatch(/^3;"zone_sismicite ""6"" is not one of 1, 2, 3, 4, 5"/m);

    const other = join(dir, 'other.csv');
    await writeFile(other, 'INSEE_COM;ZONE\r\n33001;1\r\n');
    await expect(ingestSeismic(silentContext(join(dir, 'data2')), { publishedAt: PUBLISHED, path: other })).rejects.toThrow(/missing columns code_insee, zone_sismicite; found INSEE_COM, ZONE/);
    expect(existsSync(join(dir, 'data2', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });
});
