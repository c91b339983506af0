import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { ingestBestFile } from '../../../ingest/be/best.ts';
import { ingestAdressesQuebec } from '../../../ingest/ca/adresses-quebec.ts';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { dvfFiles, ingestDvf } from '../../../ingest/fr/dvf.ts';
import { DVF_GEO_HEADER } from '../../../ingest/fr/dvf-lines.ts';
import { ingestGenericAddresses } from '../../../ingest/generic/addresses.ts';
import { Manifest } from '../../../schemas/tables/manifest.ts';
import { BAN_HEADER, BAN_ROWS, banLine, silentContext } from '../../helpers/fixture-data.ts';

// Partitions keyed by content, never by file name (docs/architecture.md, "Partitions and identity").

const REAL_DVF = '/work/shared/realdata/fr/dvf/full_2021_33001_abzac.csv';
const REAL_BAN = '/work/shared/realdata/fr/ban/adresses-75_extract_butte_aux_cailles.csv';

async function analyst<T>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJS() as T[]; } finally { c.closeSync(); db.closeSync(); }
}
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const manifest = async (dataDir: string) => Manifest.parse(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')));
async function root(prefix: string) {
  const r = await mkdtemp(join(tmpdir(), prefix));
  return { root: r, dataDir: join(r, 'data') };
}
async function put(path: string, text: string) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

describe('fr.ban partitions by department, from the rows', () => {
  const csv = `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`;

  it('puts a file of two departments in two partitions, and the same content under another name replaces them', async () => {
    const { root: r, dataDir } = await root('lds-part-ban-');
    await put(join(r, 'export.csv'), csv);
    const first = await ingestBanFile(silentContext(dataDir), { path: join(r, 'export.csv') });
    expect(first.map((s) => [s.partition, s.rows])).toEqual([['adresses-33', 3], ['adresses-75', 6]]);
    await put(join(r, 'adresses-75.csv'), csv);
    await ingestBanFile(silentContext(dataDir), { path: join(r, 'adresses-75.csv') });
    expect(files(join(dataDir, 'tables/addresses/country=fr'))).toEqual(['adresses-33.parquet', 'adresses-75.parquet']);
    const [{ n, ids }] = await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/addresses/country=fr/*.parquet'`);
    expect([n, ids]).toEqual([BigInt(BAN_ROWS.length), BigInt(BAN_ROWS.length)]);
    const entries = (await manifest(dataDir)).partitions.filter((p) => p.table === 'addresses');
    expect(entries.map((e) => [e.partition, e.rows, e.sources.map((s) => s.input)])).toEqual([
      ['adresses-33', 3, ['adresses-75.csv']], ['adresses-75', 6, ['adresses-75.csv']],
    ]);
  });

  it('replaces the addresses of the communes an input holds, and leaves the other communes of the department', async () => {
    const { root: r, dataDir } = await root('lds-part-ban-communes-');
    await put(join(r, 'adresses-75.csv'), csv);
    await ingestBanFile(silentContext(dataDir), { path: join(r, 'adresses-75.csv') });
    // A later file of Paris 3e alone, where 14 rue de Bretagne is no longer published.
    const third = BAN_ROWS.filter((a) => a.insee === '75103' && a.numero !== 14);
    await put(join(r, 'paris-3e.csv'), `${BAN_HEADER}\n${third.map(banLine).join('\n')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: join(r, 'paris-3e.csv') });
    const rows = await analyst<{ locality_code: string; n: bigint }>(`SELECT locality_code, count(*) AS n FROM '${dataDir}/tables/addresses/country=fr/adresses-75.parquet' GROUP BY ALL ORDER BY ALL`);
    expect(rows.map((x) => [x.locality_code, Number(x.n)])).toEqual([['75103', third.length], ['75111', 2]]);
    const entry = (await manifest(dataDir)).partitions.find((p) => p.partition === 'adresses-75')!;
    expect(entry.sources.map((s) => s.input)).toEqual(['adresses-75.csv', 'paris-3e.csv']);
  });

  it('takes an address id from any other partition its producer served it from (one key, one partition)', async () => {
    const { root: r, dataDir } = await root('lds-part-ban-key-');
    await put(join(r, 'adresses-75.csv'), csv);
    await ingestBanFile(silentContext(dataDir), { path: join(r, 'adresses-75.csv') });
    // As the earlier code left it: Paris under a partition named after another input file.
    await rename(join(dataDir, 'tables/addresses/country=fr/adresses-75.parquet'), join(dataDir, 'tables/addresses/country=fr/adresses-75_extract.parquet'));
    const m = await manifest(dataDir);
    for (const e of m.partitions) if (e.partition === 'adresses-75') Object.assign(e, { partition: 'adresses-75_extract', file: 'tables/addresses/country=fr/adresses-75_extract.parquet' });
    await writeFile(join(dataDir, 'fr/manifest.json'), JSON.stringify(m));
    // Another producer's file publishing one of the BAN ids: a different key, left alone.
    const other = join(r, 'commune.csv');
    const [first] = BAN_ROWS;
    await put(other, `id;num;voie;commune;lon;lat\n${banLine(first!).split(';')[0]};${first!.numero};${first!.voie};${first!.commune};${first!.lon};${first!.lat}\n`);
    await ingestGenericAddresses(silentContext(dataDir), {
      country: 'fr', input: other, separator: ';', columns: { id: 'id', number: 'num', street: 'voie', locality: 'commune', lng: 'lon', lat: 'lat' },
    });
    // Paris 3e again: its ids leave the old partition, Paris 11e stays there.
    const third = BAN_ROWS.filter((a) => a.insee === '75103');
    await put(join(r, 'paris-3e.csv'), `${BAN_HEADER}\n${third.map(banLine).join('\n')}\n`);
    await ingestBanFile(silentContext(dataDir), { path: join(r, 'paris-3e.csv') });
    const rows = await analyst<{ f: string; source: string; n: bigint }>(`SELECT regexp_extract(filename, '[^/]+$') AS f, source, count(*) AS n FROM read_parquet('${dataDir}/tables/addresses/country=fr/*.parquet', filename = true) GROUP BY ALL ORDER BY ALL`);
    expect(rows.map((x) => [x.f, x.source, Number(x.n)])).toEqual([
      ['addresses.commune.parquet', 'fr.addresses.commune', 1], ['adresses-33.parquet', 'fr.ban', 3],
      ['adresses-75.parquet', 'fr.ban', third.length], ['adresses-75_extract.parquet', 'fr.ban', 2],
    ]);
    const [{ n, ids }] = await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/addresses/country=fr/*.parquet' WHERE source = 'fr.ban'`);
    expect([n, ids]).toEqual([BigInt(BAN_ROWS.length), BigInt(BAN_ROWS.length)]);
    expect((await manifest(dataDir)).partitions.find((p) => p.partition === 'adresses-75_extract')!.rows).toBe(2);
  });

  describe.skipIf(!existsSync(REAL_BAN))('on the real Butte-aux-Cailles extract', () => {
    it('ingested under two file names, serves each BAN id once, from one partition', async () => {
      const { root: r, dataDir } = await root('lds-part-ban-real-');
      await copyFile(REAL_BAN, join(r, 'adresses-75.csv'));
      await copyFile(REAL_BAN, join(r, 'ban_adresses.csv'));
      await ingestBanFile(silentContext(dataDir), { path: join(r, 'adresses-75.csv') });
      await ingestBanFile(silentContext(dataDir), { path: join(r, 'ban_adresses.csv') });
      expect(files(join(dataDir, 'tables/addresses/country=fr'))).toEqual(['adresses-75.parquet']);
      const [{ n, ids }] = await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/addresses/country=fr/*.parquet'`);
      expect([n, ids]).toEqual([55n, 55n]);
    });

    it('keeps the Faubourg Saint-Antoine extract (other arrondissements) beside it', async () => {
      const { root: r, dataDir } = await root('lds-part-ban-real2-');
      await ingestBanFile(silentContext(dataDir), { path: REAL_BAN });
      await ingestBanFile(silentContext(dataDir), { path: REAL_BAN.replace('butte_aux_cailles', 'fbg_saint_antoine_MODIFIED') });
      await copyFile(REAL_BAN, join(r, 'again.csv'));
      await ingestBanFile(silentContext(dataDir), { path: join(r, 'again.csv') });
      const [{ n, ids }] = await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/addresses/country=fr/*.parquet'`);
      expect([n, ids]).toEqual([5395n, 5395n]);
    });
  });
});

describe('be.best partitions by region, from the rows', () => {
  it('puts a regional file under any name in the partition of its region', async () => {
    const { root: r, dataDir } = await root('lds-part-best-');
    const sample = join(REPO_ROOT, 'datasets/be/best/openaddress-bevlg.csv');
    await copyFile(sample, join(r, 'export.csv'));
    const [first] = await ingestBestFile(silentContext(dataDir), { path: join(r, 'export.csv') });
    expect(first!.partition).toBe('best.bevlg');
    await ingestBestFile(silentContext(dataDir), { path: sample });
    expect(files(join(dataDir, 'tables/addresses/country=be'))).toEqual(['best.bevlg.parquet']);
  });

  it('replaces the municipalities a file holds and leaves the region\'s others', async () => {
    const { root: r, dataDir } = await root('lds-part-best-mun-');
    const sample = join(REPO_ROOT, 'datasets/be/best/openaddress-bewal.csv');
    await ingestBestFile(silentContext(dataDir), { path: sample }); // Tubize (25105)
    const [header, first] = (await readFile(sample, 'utf8')).split('\n');
    // A file of another Walloon municipality, then one of a single Tubize address.
    await put(join(r, 'eupen.csv'), `${header}\n${first!.replace(',1201533,', ',8888888,').replace(',25105,', ',63023,').replaceAll('Tubize', 'Eupen')}\n`);
    await ingestBestFile(silentContext(dataDir), { path: join(r, 'eupen.csv') });
    await put(join(r, 'tubize.csv'), `${header}\n${first!.replace(',1201533,', ',9999999,')}\n`);
    await ingestBestFile(silentContext(dataDir), { path: join(r, 'tubize.csv') });
    const rows = await analyst<{ id: string; locality_code: string }>(`SELECT id, locality_code FROM '${dataDir}/tables/addresses/country=be/*.parquet' ORDER BY id`);
    expect(rows).toEqual([{ id: '8888888', locality_code: '63023' }, { id: '9999999', locality_code: '25105' }]);
    const entry = JSON.parse(await readFile(join(dataDir, 'be/manifest.json'), 'utf8')).partitions[0];
    // Sources are kept per version of the partition, not per row: the inputs it still holds rows of are listed.
    expect(entry.sources.map((x: { input: string }) => x.input)).toEqual(expect.arrayContaining(['eupen.csv', 'tubize.csv']));
  });
});

describe('ca.adresses-quebec under another file name', () => {
  it('serves each IdAdr once: the new partition takes them, the emptied one is removed', async () => {
    const { root: r, dataDir } = await root('lds-part-aq-');
    const sample = join(REPO_ROOT, 'datasets/ca/adresses-quebec/AQ_adresses.csv');
    await ingestAdressesQuebec(silentContext(dataDir), { path: sample });
    await copyFile(sample, join(r, 'export-2026.csv'));
    await ingestAdressesQuebec(silentContext(dataDir), { path: join(r, 'export-2026.csv') });
    expect(files(join(dataDir, 'tables/addresses/country=ca'))).toEqual(['adresses-quebec.export-2026.parquet']);
    const entries = JSON.parse(await readFile(join(dataDir, 'ca/manifest.json'), 'utf8')).partitions.map((p: { partition: string }) => p.partition);
    expect(entries).toEqual(['adresses-quebec.export-2026']);
  });
});

describe('fr.dvf partitions by year and department, from the rows', () => {
  type Line = Partial<Record<(typeof DVF_GEO_HEADER)[number], string>>;
  const line = (o: Line) => DVF_GEO_HEADER.map((c) => ({
    numero_disposition: '000001', nature_mutation: 'Vente', valeur_fonciere: '200000', id_parcelle: `${o.code_commune}000AB0107`,
    code_type_local: '1', type_local: 'Maison', surface_reelle_bati: '100', nombre_pieces_principales: '4', longitude: '-0.13', latitude: '45.01', ...o,
  } as Record<string, string>)[c] ?? '').join(',');
  const gironde = (year: number, n: number) => Array.from({ length: n }, (_, i) => line({
    id_mutation: `${year}-33-${i}`, date_mutation: `${year}-0${1 + (i % 9)}-1${i % 10}`, code_commune: '33001', nom_commune: 'Abzac', code_departement: '33',
    valeur_fonciere: String(150000 + 1000 * i),
  }));
  const paris = (year: number, n: number) => Array.from({ length: n }, (_, i) => line({
    id_mutation: `${year}-75-${i}`, date_mutation: `${year}-05-2${i % 10}`, code_commune: '75103', nom_commune: 'Paris 3e Arrondissement', code_departement: '75',
    code_type_local: '2', type_local: 'Appartement', surface_reelle_bati: '50', longitude: '2.36', latitude: '48.86',
  }));
  const file = (lines: string[]) => `${DVF_GEO_HEADER.join(',')}\n${lines.join('\n')}\n`;
  const indicators = (dataDir: string) => analyst<Record<string, unknown>>(`SELECT level, code, property_type, period, period_start::VARCHAR AS s, sample_size, median, reliability FROM '${dataDir}/tables/market_indicators/country=fr/all.parquet' ORDER BY ALL`);

  it('counts a sale once when the departmental file and the national file of a year are both ingested, and a later year leaves it', async () => {
    const { root: r, dataDir } = await root('lds-part-dvf-');
    const tree = join(r, 'csv');
    await put(join(tree, '2021/departements/33.csv'), file(gironde(2021, 12)));
    await put(join(tree, '2021/full.csv'), file([...gironde(2021, 12), ...paris(2021, 5)]));
    // Alone, the departmental file: the reference.
    const { dataDir: alone } = await root('lds-part-dvf-ref-');
    await ingestDvf(silentContext(alone), [{ path: join(tree, '2021/departements/33.csv') }]);
    const reference = (await indicators(alone)).filter((i) => i.code === '33001');

    await ingestDvf(silentContext(dataDir), dvfFiles(tree).map((path) => ({ path })));
    expect(files(join(dataDir, 'tables/sales/country=fr'))).toEqual(['2021-33.parquet', '2021-75.parquet']);
    const count = async () => (await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/sales/country=fr/*.parquet'`))[0]!;
    expect(await count()).toEqual({ n: 17n, ids: 17n });
    expect((await indicators(dataDir)).filter((i) => i.code === '33001')).toEqual(reference);

    // Again, the national file alone under another name: the same partitions, replaced.
    await copyFile(join(tree, '2021/full.csv'), join(r, 'dvf-2021-copy.csv'));
    await ingestDvf(silentContext(dataDir), [{ path: join(r, 'dvf-2021-copy.csv') }]);
    expect(await count()).toEqual({ n: 17n, ids: 17n });
    expect((await manifest(dataDir)).partitions.find((p) => p.partition === '2021-33')!.sources.map((s) => s.input)).toEqual(['dvf-2021-copy.csv']);

    // The national file of 2022 adds its partitions; 2021's stay.
    await put(join(tree, '2022/full.csv'), file([...gironde(2022, 4), ...paris(2022, 3)]));
    await ingestDvf(silentContext(dataDir), [{ path: join(tree, '2022/full.csv') }]);
    expect(files(join(dataDir, 'tables/sales/country=fr'))).toEqual(['2021-33.parquet', '2021-75.parquet', '2022-33.parquet', '2022-75.parquet']);
    expect(await count()).toEqual({ n: 24n, ids: 24n });
    const years = (await indicators(dataDir)).filter((i) => i.code === '33001' && i.period === 'year').map((i) => [i.s, i.sample_size]);
    expect(years).toEqual([['2021-01-01', 12], ['2022-01-01', 4]]);
  });

  it('moves the sales of a partition of the earlier file-named layout to their year and department', async () => {
    const { root: r, dataDir } = await root('lds-part-dvf-old-');
    await put(join(r, 'full.csv'), file([...gironde(2021, 3), ...paris(2021, 2)]));
    await ingestDvf(silentContext(dataDir), [{ path: join(r, 'full.csv') }]);
    // As the earlier code left it: one partition named after the file.
    await rename(join(dataDir, 'tables/sales/country=fr/2021-33.parquet'), join(dataDir, 'tables/sales/country=fr/full.parquet'));
    await put(join(r, 'other.csv'), file(paris(2023, 1)));
    await ingestDvf(silentContext(dataDir), [{ path: join(r, 'other.csv') }]);
    expect(files(join(dataDir, 'tables/sales/country=fr'))).toEqual(['2021-33.parquet', '2021-75.parquet', '2023-75.parquet']);
  });

  describe.skipIf(!existsSync(REAL_DVF))('on the real Abzac extract', () => {
    it('published as 2021/departements/33.csv and 2021/full.csv, counts its 50 sales once and keeps the indicators of one file', async () => {
      const { root: r, dataDir } = await root('lds-part-dvf-real-');
      const tree = join(r, 'csv');
      await mkdir(join(tree, '2021/departements'), { recursive: true });
      await copyFile(REAL_DVF, join(tree, '2021/departements/33.csv'));
      await copyFile(REAL_DVF, join(tree, '2021/full.csv'));
      const { dataDir: alone } = await root('lds-part-dvf-real-ref-');
      await ingestDvf(silentContext(alone), [{ path: join(tree, '2021/full.csv') }]);
      await ingestDvf(silentContext(dataDir), dvfFiles(tree).map((path) => ({ path })));
      const [{ n, ids }] = await analyst<{ n: bigint; ids: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${dataDir}/tables/sales/country=fr/*.parquet'`);
      expect([n, ids]).toEqual([50n, 50n]);
      expect(await indicators(dataDir)).toEqual(await indicators(alone));
      const house = (await indicators(dataDir)).find((i) => i.code === '33001' && i.property_type === 'house' && i.period === 'year')!;
      expect(house).toMatchObject({ sample_size: 27, reliability: 'medium' });
    });
  });
});
