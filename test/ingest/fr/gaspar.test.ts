import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GASPAR_INDICATOR, ingestGaspar } from '../../../ingest/fr/gaspar.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { GASPAR_RISKS } from '../../../datasets/fr/gaspar/nomenclature.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-25';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/gaspar/risq_gaspar.csv');

const written = (dataDir: string) => duckRows<{ level: string; code: string; breakdown: string; value: number; unit: string }>(
  `SELECT level, code, breakdown, value, unit FROM '${dataDir}/tables/zone_values/country=fr/fr.gaspar.parquet' WHERE indicator = '${GASPAR_INDICATOR}' ORDER BY code, breakdown`);

async function ingest(file: string, maxRejectShare = 0.01) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-gaspar-')), 'data');
  const [summary] = await ingestGaspar({ ...silentContext(dataDir), maxRejectShare }, { publishedAt: PUBLISHED, path: file });
  return { dataDir, summary: summary!, out: await written(dataDir) };
}

async function fixture(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'lds-gaspar-in-')), 'risq_gaspar.csv');
  await writeFile(file, text);
  return file;
}

describe('fr.risk-communes --gaspar (GASPAR risks per commune)', () => {
  it('writes one value per commune and risk of the sample, as DuckDB reads the file', async () => {
    const { summary, out } = await ingest(SAMPLE);
    expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.gaspar', rejects: 0 });
    const direct = await duckRows<{ code: string; risk: string }>(
      `SELECT lpad(cod_commune, 5, '0') AS code, num_risque AS risk FROM read_csv('${SAMPLE}', delim = ';', header = true, all_varchar = true) ORDER BY code, risk`);
    expect(out.map((r) => [r.code, r.breakdown])).toEqual(direct.map((r) => [r.code, r.risk]));
    expect(out.every((r) => r.level === 'locality' && r.value === 1 && r.unit === 'flag')).toBe(true);
    // Every code of the sample is in the nomenclature, and 127 is GASPAR's clay shrink-swell.
    expect(out.filter((r) => r.code === '33001').map((r) => r.breakdown)).toContain('127');
    // Written 1053 and 6088 in the file, as the producer drops the leading zero.
    expect(out.filter((r) => r.code === '01053' || r.code === '06088').length).toBeGreaterThan(3);
    expect(GASPAR_RISKS['127']!.type).toBe('clay_shrink_swell');
  });

  it('finds the columns by name, whatever their order; keeps a five-character code and Corsica\'s as they are', async () => {
    const file = await fixture('num_risque;lib_risque;cod_commune;lib_commune\r\n11;Inondation;01053;Bourg-en-Bresse\r\n13;Séisme;2A004;Ajaccio\r\n');
    const { out } = await ingest(file);
    expect(out.map((r) => [r.code, r.breakdown])).toEqual([['01053', '11'], ['2A004', '13']]);
  });

  it('refuses, with line and reason, a risk outside the nomenclature, a commune code that is not one and the same risk twice', async () => {
    const file = await fixture([
      'cod_commune;lib_commune;lib_risque;num_risque',
      '33001;Abzac;Inondation;11', '33001;Abzac;Risque inventé;999', '330;Abzac;Inondation;11', '33001;Abzac;Inondation;11', '33138;Coutras;Séisme;13', '',
    ].join('\r\n'));
    const { summary, out, dataDir } = await ingest(file, 1);
    expect(out.map((r) => [r.code, r.breakdown])).toEqual([['33001', '11'], ['33138', '13']]);
    expect(summary.rejects).toBe(3);
    const rejects = await readFile(join(dataDir, 'fr', 'rejects', 'zone_values.fr.gaspar.csv'), 'utf8');
    expect(rejects).toMatch(/^3;"num_risque ""999"" is not a code of GASPAR's nomenclature";/m);
    expect(rejects).toMatch(/^4;"cod_commune: commune code ""330"" is not a commune code/m);
    expect(rejects).toMatch(/^5;risk 11 of commune 33001 already given at line 2 \(the first row keeps it\);/m);
  });

  it('fails on a file that is not GASPAR\'s, naming the missing columns, and publishes nothing', async () => {
    const file = await fixture('code_insee;nom_commune;zone_sismicite\r\n33001;Abzac;1\r\n');
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-gaspar-')), 'data');
    await expect(ingestGaspar(silentContext(dataDir), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing the columns cod_commune, num_risque/);
    await expect(readFile(join(dataDir, 'fr', 'manifest.json'), 'utf8')).rejects.toThrow();
  });
});
