import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { communeCode, levelOfCommuneCode } from '../../../ingest/fr/commune-classes.ts';
import { ingestRadon, RADON_INDICATOR } from '../../../ingest/fr/radon.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/radon/radon.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/georisques/radon_potentiel_communes_irsn.csv');
const HEADER = 'nom_comm;nom_dept;insee_com;classe_potentiel;reg';

type Written = { level: string; code: string; value: number; unit: string; period_start: string | null };
const written = (dataDir: string) => duckRows<Written>(
  `SELECT level, code, value, unit, period_start FROM '${dataDir}/tables/zone_values/country=fr/fr.radon.parquet' WHERE indicator = '${RADON_INDICATOR}' ORDER BY code`);

/** The published file read directly by DuckDB, every cell as text: the reference each served category must match. */
const direct = (file: string) => duckRows<{ code: string; cls: string }>(
  `SELECT insee_com AS code, classe_potentiel AS cls FROM read_csv('${file}', delim = ';', header = true, all_varchar = true, quote = '')`);

async function ingest(file: string, maxRejectShare = 0.01) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-radon-')), 'data');
  const [summary] = await ingestRadon({ ...silentContext(dataDir), maxRejectShare }, { publishedAt: PUBLISHED, path: file });
  return { dataDir, summary: summary!, out: await written(dataDir) };
}

/** Every written category equals the file's category on the row of the same commune (leading zero restored). */
async function expectSameAsSource(file: string, out: Written[]) {
  const source = new Map((await direct(file)).map((s) => [s.code, s]));
  for (const w of out) {
    const raw = w.code.startsWith('0') ? [w.code, w.code.slice(1)] : [w.code];
    const row = raw.map((c) => source.get(c)).find(Boolean);
    expect(row, w.code).toBeDefined();
    expect(w.value).toBe(Number(row!.cls));
  }
}

describe('fr.radon', () => {
  it('writes every commune of the sample as DuckDB reads the file: leading zero restored, arrondissements at sublocality_level1', async () => {
    const { summary, out, dataDir } = await ingest(SAMPLE);
    expect(summary).toMatchObject({ table: 'zone_values', partition: 'fr.radon', rejects: 0 });
    expect(out).toHaveLength((await direct(SAMPLE)).length);
    await expectSameAsSource(SAMPLE, out);
    expect(out.find((r) => r.code === '01053')).toMatchObject({ level: 'locality', value: 2, unit: 'category', period_start: null });
    expect(out.find((r) => r.code === '02628')).toMatchObject({ level: 'locality', value: 1 });
    expect(out.find((r) => r.code === '75103')).toMatchObject({ level: 'sublocality_level1', value: 1 });
    expect(out.find((r) => r.code === '69381')).toMatchObject({ level: 'sublocality_level1' });
    expect(out.find((r) => r.code === '2A004')).toMatchObject({ level: 'locality', value: 3 });
    expect(out.find((r) => r.code === '33001')).toMatchObject({ level: 'locality', value: 1 });
    expect(existsSync(join(dataDir, 'fr', 'rejects', 'zone_values.fr.radon.csv'))).toBe(false);
  });

  it('refuses the broken rows to the rejects file with their line and reason, and keeps the others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-radon-broken-'));
    const file = join(dir, 'radon.csv');
    await writeFile(file, [HEADER, 'ABZAC;GIRONDE;33001;1;FR', '2;-21.8417433899725;166.103654486107;#VALEUR!;', 'papara;Tahiti;;1;PF',
      'ROMANS;AIN;1328;4;FR', 'chiconi;Mayotte;97605;3;MAY', 'sada;Mayotte;97605;3;MAY', ''].join('\r\n'));
    const { summary, out, dataDir } = await ingest(file, 1);
    expect(summary.rejects).toBe(4);
    expect(out.map((r) => r.code)).toEqual(['33001', '97605']);
    const rejects = await readFile(join(dataDir, 'fr', 'rejects', 'zone_values.fr.radon.csv'), 'utf8');
    expect(rejects).toMatch(/^3;"insee_com: commune code ""166\.103654486107"" is not a commune code.*classe_potentiel ""#VALEUR!"" is not one of 1, 2, 3"/m);
    expect(rejects).toMatch(/^4;insee_com: no commune code;/m);
    expect(rejects).toMatch(/^5;"classe_potentiel ""4"" is not one of 1, 2, 3"/m);
    expect(rejects).toMatch(/^7;insee_com 97605 already given at line 6 \(the first row keeps it\);/m);
  });

  it('refuses a file of another layout, naming the missing columns, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-radon-bad-'));
    const file = join(dir, 'radon.csv');
    await writeFile(file, 'nom_comm;code_commune;potentiel\r\nABZAC;33001;1\r\n');
    await expect(ingestRadon(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/missing columns insee_com, classe_potentiel; found nom_comm, code_commune, potentiel/);
    expect(existsSync(join(dir, 'data', 'tables', 'zone_values', 'country=fr'))).toBe(false);
  });

  it('reads commune codes as the producer writes them', () => {
    expect(communeCode('2628', true)).toEqual({ code: '02628' });
    expect(communeCode('2628', false)).toMatchObject({ error: expect.stringContaining('"2628"') });
    expect(communeCode('2B217', true)).toEqual({ code: '2B217' });
    expect(communeCode('97411', true)).toEqual({ code: '97411' });
    expect(levelOfCommuneCode('75120')).toBe('sublocality_level1');
    expect(levelOfCommuneCode('75056')).toBe('locality');
    expect(levelOfCommuneCode('13216')).toBe('sublocality_level1');
    expect(levelOfCommuneCode('13217')).toBe('locality');
  });

  it('fails without publishing when the refused rows pass the reject limit, and leaves the published partition as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-radon-share-'));
    const dataDir = join(dir, 'data');
    await ingestRadon(silentContext(dataDir), { publishedAt: PUBLISHED, path: SAMPLE });
    const before = await written(dataDir);
    const file = join(dir, 'radon.csv');
    await writeFile(file, [HEADER, 'ABZAC;GIRONDE;33001;3;FR', 'COUTRAS;GIRONDE;33138;#VALEUR!;FR', ''].join('\r\n'));
    await expect(ingestRadon(silentContext(dataDir), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/1 of 2 rows rejected/);
    expect(await written(dataDir)).toEqual(before);
  });

  it.skipIf(!existsSync(REAL))('reads the real extract: a commune of department 02, a Paris arrondissement, the #VALEUR! rows refused', async () => {
    const { summary, out, dataDir } = await ingest(REAL);
    const source = await direct(REAL);
    expect(summary.rows + summary.rejects).toBe(source.length);
    await expectSameAsSource(REAL, out);
    // Puiseux-en-Retz is published as 2628 (department 02 without its leading zero).
    expect(source.find((s) => s.code === '2628')).toBeDefined();
    expect(out.find((r) => r.code === '02628')).toMatchObject({ level: 'locality', value: Number(source.find((s) => s.code === '2628')!.cls) });
    expect(out.find((r) => r.code === '75113')).toMatchObject({ level: 'sublocality_level1', value: Number(source.find((s) => s.code === '75113')!.cls) });
    expect(out.some((r) => r.code === '75056')).toBe(false);
    const rejects = await readFile(join(dataDir, 'fr', 'rejects', 'zone_values.fr.radon.csv'), 'utf8');
    const valeur = source.filter((s) => s.cls === '#VALEUR!').length;
    expect(valeur).toBeGreaterThan(0);
    expect(rejects.match(/#VALEUR!"" is not one of/g)).toHaveLength(valeur);
  });
});
