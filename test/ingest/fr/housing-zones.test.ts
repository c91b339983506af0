import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abcRank, ingestAbcZoning, ingestRentControl, ingestTlvZoning } from '../../../ingest/fr/housing-zones.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/housing-zones');
const ABC = join(SAMPLE, 'liste-ensemble-des-communes-zonage-abc.csv');
const TLV = join(SAMPLE, 'zonage-tlv.csv');
const RENT = join(SAMPLE, 'encadrement-des-loyers.csv');

type Written = { level: string; code: string; indicator: string; value: number; period_start: string | null; period_end: string | null };
const written = (dataDir: string, indicator: string) => duckRows<Written>(
  `SELECT level, code, indicator, value, strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end
   FROM '${tableGlob(dataDir, 'fr', 'zone_values')}' WHERE indicator = '${indicator}' ORDER BY code`);
const direct = <T>(file: string, select: string) => duckRows<T>(`SELECT ${select} FROM read_csv('${file}', delim = ';', header = true, all_varchar = true) ORDER BY 1`);
const dir = () => mkdtemp(join(tmpdir(), 'lds-housing-zones-'));

describe('fr.housing-zones', () => {
  it('writes every commune of the ABC list with its class, as DuckDB reads the file (BOM, the zoning column by its title)', async () => {
    const dataDir = join(await dir(), 'data');
    const [summary] = await ingestAbcZoning(silentContext(dataDir), { publishedAt: PUBLISHED, path: ABC });
    expect(summary).toMatchObject({ partition: 'fr.abc-zoning', rejects: 0 });
    const source = await direct<{ code: string; zone: string }>(ABC, 'CODGEO AS code, "Zonage ABC en vigueur" AS zone');
    const out = await written(dataDir, 'regulation.abc_zone');
    expect(out.map((r) => [r.code, r.value])).toEqual(source.map((s) => [s.code, abcRank(s.zone)]));
    expect(out.find((r) => r.code === '75056')).toMatchObject({ level: 'locality', value: 1, period_start: null });
  });

  it('reads the last TLV column (the zoning in force), or the one named', async () => {
    const dataDir = join(await dir(), 'data');
    await ingestTlvZoning(silentContext(dataDir), { publishedAt: PUBLISHED, path: TLV });
    const source = await direct<{ code: string; cls: string }>(TLV, `CODGEO25 AS code, left("Zonage TLV post décret 22/12/2025", 1) AS cls`);
    const out = await written(dataDir, 'regulation.tense_zone');
    expect(out.map((r) => [r.code, r.value])).toEqual(source.map((s) => [s.code, Number(s.cls)]));
    // Libourne became tense and touristic with the 2025 decree: the 2023 column says otherwise.
    expect(out.find((r) => r.code === '33243')!.value).toBe(2);
    const older = join(await dir(), 'data');
    await ingestTlvZoning(silentContext(older), { publishedAt: PUBLISHED, path: TLV, column: 'Zonage TLV 2023' });
    expect((await written(older, 'regulation.tense_zone')).find((r) => r.code === '33243')!.value).toBe(3);
  });

  it('writes the rent-control communes with their dates as the period', async () => {
    const dataDir = join(await dir(), 'data');
    await ingestRentControl(silentContext(dataDir), { publishedAt: PUBLISHED, path: RENT });
    const source = await direct<{ code: string; since: string; until: string }>(RENT, 'code_insee AS code, debut AS since, fin AS until');
    const out = await written(dataDir, 'regulation.rent_control');
    expect(out.map((r) => [r.code, r.value, r.period_start, r.period_end])).toEqual(source.map((s) => [s.code, 1, s.since, s.until]));
  });

  it('refuses bad rows with their reason and a file of another layout naming the missing columns, publishing nothing', async () => {
    const d = await dir();
    const abc = join(d, 'abc.csv');
    await writeFile(abc, '\uFEFFCODGEO;LIBGEO;Zonage ABC 2024\r\n75056;Paris;Abis\r\n3300;Abzac;C\r\n33063;Bordeaux;B3\r\n');
    const [summary] = await ingestAbcZoning({ ...silentContext(join(d, 'data')), maxRejectShare: 1 }, { publishedAt: PUBLISHED, path: abc });
    expect(summary!.rejects).toBe(2);
    const bad = join(d, 'bad.csv');
    await writeFile(bad, 'CODGEO;LIBGEO;zone\r\n75056;Paris;A\r\n');
    const fresh = join(d, 'fresh');
    await expect(ingestAbcZoning(silentContext(fresh), { publishedAt: PUBLISHED, path: bad })).rejects.toThrow(/missing columns Zonage ABC/);
    await expect(ingestTlvZoning(silentContext(fresh), { publishedAt: PUBLISHED, path: bad })).rejects.toThrow(/missing columns Zonage TLV/);
    await writeFile(bad, 'code_insee;nom_commune\r\n75056;Paris\r\n');
    await expect(ingestRentControl(silentContext(fresh), { publishedAt: PUBLISHED, path: bad })).rejects.toThrow(/missing columns perimetre, debut, fin/);
    expect(existsSync(tableDir(fresh, 'fr', 'zone_values'))).toBe(false);
  });
});
