import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dvfFiles, dvfInputName, ingestDvf } from '../../../ingest/fr/dvf.ts';
import { dvfJob } from '../../../ingest/fr/dvf.job.ts';
import { readManifest } from '../../../ingest/core/manifest.ts';
import { DVF_GEO_HEADER, DVF_RAW_HEADER, DvfGeoLine, DvfRawLine } from '../../../ingest/fr/dvf-lines.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { Manifest } from '../../../schemas/tables/manifest.ts';
import { MarketIndicatorRow } from '../../../schemas/tables/market-indicators.ts';
import { SaleRow } from '../../../schemas/tables/sales.ts';
import { BORDER_LNG, buildFixtureData, silentContext } from '../../helpers/fixture-data.ts';

const SAMPLES = join(REPO_ROOT, 'datasets/fr/dvf');
const GEO_FILES = join(SAMPLES, 'csv/*/departements/*.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/dvf/full_2021_33001_abzac.csv');

async function analyst<T>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJS() as T[]; } finally { c.closeSync(); db.closeSync(); }
}
const num = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
const plain = <T extends Record<string, unknown>>(r: T) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, num(v)])) as T;

async function ingestSamples() {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dvf-')), 'data');
  const summary = await ingestDvf(silentContext(dataDir), dvfFiles(SAMPLES).map((path) => ({ path })));
  return { dataDir, summary };
}

describe('fr.dvf on the committed samples', () => {
  let dataDir: string;
  let summary: Awaited<ReturnType<typeof ingestDvf>>;
  beforeAll(async () => { ({ dataDir, summary } = await ingestSamples()); });

  it('writes one sales row per mutation, both readers into one table, and records every partition in the manifest', async () => {
    const sales = await analyst<Record<string, unknown>>(`SELECT * EXCLUDE (date), strftime(date, '%Y-%m-%d') AS date FROM '${dataDir}/tables/sales/country=fr/*.parquet'`);
    for (const s of sales) SaleRow.parse(s);
    const [geo] = await analyst<{ n: bigint }>(`SELECT count(DISTINCT id_mutation) AS n FROM read_csv('${GEO_FILES}', all_varchar = true)`);
    expect(sales.filter((s) => s.source === 'fr.dvf')).toHaveLength(Number(geo!.n));
    expect(sales.filter((s) => s.source === 'fr.dvf-dgfip').length).toBeGreaterThan(20);
    expect(new Set(sales.map((s) => s.id)).size).toBe(sales.length);
    const manifest = Manifest.parse(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')));
    expect(manifest.partitions.filter((p) => p.table === 'sales').map((p) => p.partition).sort()).toEqual([
      '2020-33', '2020-75', '2021-33', '2021-75', '2022-33', '2022-75', '2023-33', '2023-75', '2024-33', '2024-75', '2025-33', '2025-75',
    ]);
    const indicators = manifest.partitions.find((p) => p.table === 'market_indicators')!;
    expect(indicators.sources).toHaveLength(11);
    expect(summary.at(-1)!.table).toBe('market_indicators');
  });

  it('gives the same sales when the lines are aggregated in many small buckets of mutations (as a national file is)', async () => {
    const small = join(await mkdtemp(join(tmpdir(), 'lds-dvf-buckets-')), 'data');
    await ingestDvf(silentContext(small), dvfFiles(SAMPLES).map((path) => ({ path })), { linesPerBucket: 10 });
    const read = (dir: string) => analyst<Record<string, unknown>>(`SELECT * EXCLUDE (date), strftime(date, '%Y-%m-%d') AS date FROM '${dir}/tables/sales/country=fr/*.parquet' ORDER BY id`);
    const [one, many] = [await read(dataDir), await read(small)];
    expect(one.length).toBeGreaterThan(200);
    expect(many).toEqual(one);
    // And each file still sorted by cell.
    const [{ unsorted }] = await analyst<{ unsorted: bigint }>(`SELECT count(*) FILTER (WHERE down) AS unsorted FROM (SELECT cell < lag(cell) OVER (PARTITION BY filename ORDER BY file_row_number) AS down FROM read_parquet('${small}/tables/sales/country=fr/*.parquet', filename = true, file_row_number = true) WHERE cell IS NOT NULL)`);
    expect(unsorted).toBe(0n);
  });

  it('is sorted by cell, rows without position last', async () => {
    const rows = await analyst<{ cell: bigint | null }>(`SELECT cell FROM '${dataDir}/tables/sales/country=fr/2022-75.parquet'`);
    const cells = rows.map((r) => r.cell);
    const firstNull = cells.indexOf(null);
    const positioned = (firstNull < 0 ? cells : cells.slice(0, firstNull)) as bigint[];
    expect(positioned).toEqual([...positioned].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    if (firstNull >= 0) expect(cells.slice(firstNull).every((c) => c === null)).toBe(true);
  });

  it('counts a multi-line mutation once, keeps outbuildings out of the surface, and does not price a multi-dwelling deed per m2', async () => {
    const rows = await analyst<Record<string, unknown>>(`SELECT * FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE id IN ('2022-402072', '2023-403072', '2021-401017')`);
    const byId = new Map(rows.map((r) => [r.id as string, plain(r)]));
    // Three flats and a shop sold in one deed: 4 lines, one sale, no price per m².
    expect(byId.get('2022-402072')).toMatchObject({ dwellings: 3, property_type: 'other', surface: 180, price: 2_150_000, price_per_m2: null, lots: ['1', '3', '5', '7'] });
    // A parking space alone: a sale with no dwelling.
    expect(byId.get('2023-403072')).toMatchObject({ dwellings: 0, outbuildings: 1, property_type: 'other', surface: null, price_per_m2: null });
    // An exchange is not a market sale.
    expect(byId.get('2021-401017')).toMatchObject({ market_sale: false, price_per_m2: null });
    // Every house sold with an outbuilding and a garden: its lines are local x land, its surface the house's alone.
    const [check] = await analyst<{ bad: bigint; n: bigint }>(`
      WITH l AS (SELECT * FROM read_csv('${GEO_FILES}', all_varchar = true)),
      h AS (SELECT id_mutation, max(TRY_CAST(surface_reelle_bati AS DOUBLE)) FILTER (WHERE type_local = 'Maison') AS house, count(*) AS lines,
              bool_or(type_local = 'Dépendance') AS dep FROM l GROUP BY id_mutation HAVING count(DISTINCT id_parcelle) = 1)
      SELECT count(*) FILTER (WHERE s.surface <> h.house) AS bad, count(*) AS n FROM h JOIN '${dataDir}/tables/sales/country=fr/*.parquet' s ON s.id = h.id_mutation WHERE h.dep AND h.house IS NOT NULL AND h.lines > 2`);
    expect(Number(check!.n)).toBeGreaterThan(3);
    expect(Number(check!.bad)).toBe(0);
  });

  it('keeps the Carrez surface of the lots, and tells apart the dwellings of a deed by their own lots', async () => {
    const block = plain((await analyst<Record<string, unknown>>(`SELECT * FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE id = '2022-402072'`))[0]!);
    // Three flats (lots 3, 5, 7) and a shop (lot 1) on one parcel, each on its own line with its own lot: three dwellings told apart.
    expect(block.units).toEqual([
      { parcel: '75111000JM0180', lots: ['3'], kind: 'apartment', surface: 48, rooms: 2, carrez: 46.56 },
      { parcel: '75111000JM0180', lots: ['5'], kind: 'apartment', surface: 61, rooms: 3, carrez: 59.17 },
      { parcel: '75111000JM0180', lots: ['7'], kind: 'apartment', surface: 71, rooms: 3, carrez: 68.87 },
    ]);
    expect(block.carrez_area).toBeCloseTo(46.56 + 59.17 + 68.87, 6);
    // Every sale against DuckDB reading the published files: the Carrez surfaces of the dwellings' lots, each lot once.
    const expected = await analyst<{ id: string; carrez: number | null }>(`
      WITH l AS (SELECT * FROM read_csv('${GEO_FILES}', all_varchar = true)),
      lots AS (${[1, 2, 3, 4, 5].map((i) => `SELECT id_mutation, id_parcelle, lot${i}_numero AS lot, TRY_CAST(lot${i}_surface_carrez AS DOUBLE) AS carrez FROM l WHERE code_type_local IN ('1', '2')`).join(' UNION ALL ')})
      SELECT id_mutation AS id, sum(carrez) AS carrez FROM (SELECT DISTINCT * FROM lots WHERE lot IS NOT NULL AND carrez IS NOT NULL) GROUP BY id_mutation ORDER BY id`);
    const got = await analyst<{ id: string; carrez: number | null }>(`SELECT id, carrez_area AS carrez FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE source = 'fr.dvf' AND carrez_area IS NOT NULL ORDER BY id`);
    expect(expected.length).toBeGreaterThan(100);
    expect(got.map((r) => [r.id, Math.round(r.carrez! * 100)])).toEqual(expected.map((r) => [r.id, Math.round(r.carrez! * 100)]));
    // A flat sold alone is its own unit, with the Carrez surface of its lot.
    const one = await analyst<{ n: bigint }>(`SELECT count(*) AS n FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE dwellings = 1 AND property_type = 'apartment' AND (len(units) <> 1 OR units[1].carrez IS DISTINCT FROM carrez_area)`);
    expect(Number(one[0]!.n)).toBe(0);
    // The DGFiP layout writes the Carrez surface with a decimal comma.
    const raw = await analyst<{ lot: string; carrez: string; plan: string; section: string; commune: string }>(`SELECT "1er lot" AS lot, "Surface Carrez du 1er lot" AS carrez, "No plan" AS plan, "Section" AS section, "Code commune" AS commune
      FROM read_csv('${SAMPLES}/ValeursFoncieres-2025-S1.txt', delim = '|', all_varchar = true) WHERE "Surface Carrez du 1er lot" IS NOT NULL AND "Code type local" = '2' LIMIT 1`);
    expect(raw[0]!.carrez).toMatch(/,/);
    const parcel = `75${raw[0]!.commune.padStart(3, '0')}000${raw[0]!.section.padStart(2, '0')}${raw[0]!.plan.padStart(4, '0')}`;
    const dg = await analyst<{ carrez_area: number }>(`SELECT carrez_area FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE source = 'fr.dvf-dgfip' AND list_contains(parcels, '${parcel}') AND list_contains(lots, '${raw[0]!.lot}')`);
    expect(dg[0]!.carrez_area).toBe(Number(raw[0]!.carrez.replace(',', '.')));
  });

  it('reads the DGFiP text layout: French decimals, commune and parcel rebuilt from their parts, no position', async () => {
    const rows = await analyst<Record<string, unknown>>(`SELECT * FROM '${dataDir}/tables/sales/country=fr/*.parquet' WHERE source = 'fr.dvf-dgfip'`);
    expect(rows.every((r) => r.cell === null && r.iris_code === null)).toBe(true);
    const raw = await analyst<Record<string, string>>(`SELECT * FROM read_csv('${SAMPLES}/ValeursFoncieres-2025-S1.txt', delim = '|', all_varchar = true) WHERE "Code departement" = '75' LIMIT 1`);
    const line = raw[0]!;
    const parcel = `75${line['Code commune']!.padStart(3, '0')}000${line.Section!.padStart(2, '0')}${line['No plan']!.padStart(4, '0')}`;
    const sale = plain(rows.find((r) => (r.parcels as string[]).length === 1 && (r.parcels as string[])[0] === parcel)!);
    expect(sale).toMatchObject({ commune_code: '75056', arrondissement_code: `75${line['Code commune']!.padStart(3, '0')}`, department_code: '75', region_code: '11' });
    expect(sale.price).toBe(Number(line['Valeur fonciere']!.replace(',', '.')));
    expect(sale.id).toMatch(/^dgfip-2025-[0-9a-f]{16}$/);
  });

  it('computes medians, quartiles and counts that DuckDB finds independently from the published files', async () => {
    // Independent reading of the geolocated files: one price per mutation, its one dwelling's surface
    // (a local counted once whatever the land lines), market natures only.
    const expected = await analyst<{ code: string; type: string; year: bigint; n: bigint; median: number; q1: number; q3: number }>(`
      WITH l AS (SELECT * FROM read_csv('${GEO_FILES}', all_varchar = true)),
      locals AS (SELECT DISTINCT id_mutation, id_parcelle, lot1_numero, type_local, surface_reelle_bati FROM l WHERE type_local IS NOT NULL),
      m AS (SELECT id_mutation, any_value(date_mutation) AS d, any_value(nature_mutation) AS nature, any_value(CAST(valeur_fonciere AS DOUBLE)) AS price,
              any_value(code_commune) AS code FROM l GROUP BY id_mutation),
      dw AS (SELECT id_mutation, count(*) FILTER (WHERE type_local IN ('Maison', 'Appartement')) AS dwellings,
              count(*) FILTER (WHERE type_local LIKE 'Local%') AS shops, any_value(type_local) FILTER (WHERE type_local IN ('Maison', 'Appartement')) AS t,
              sum(CAST(surface_reelle_bati AS DOUBLE)) FILTER (WHERE type_local IN ('Maison', 'Appartement')) AS surface FROM locals GROUP BY id_mutation),
      p AS (SELECT m.code, CASE dw.t WHEN 'Maison' THEN 'house' ELSE 'apartment' END AS type, year(CAST(m.d AS DATE)) AS year, m.price / dw.surface AS ppm
              FROM m JOIN dw USING (id_mutation) WHERE dw.dwellings = 1 AND dw.shops = 0 AND m.nature IN ('Vente', 'Vente en l''état futur d''achèvement'))
      SELECT code, type, year, count(*) AS n, median(ppm) AS median, quantile_cont(ppm, 0.25) AS q1, quantile_cont(ppm, 0.75) AS q3
      FROM p WHERE code IN ('33001', '75103', '75111', '75113') GROUP BY ALL ORDER BY ALL`);
    expect(expected.length).toBeGreaterThan(12);
    const table = await analyst<Record<string, unknown>>(`SELECT * EXCLUDE (period_start, period_end), strftime(period_start, '%Y-%m-%d') AS period_start, strftime(period_end, '%Y-%m-%d') AS period_end FROM '${dataDir}/tables/market_indicators/country=fr/all.parquet'`);
    for (const r of table) MarketIndicatorRow.parse(r);
    for (const e of expected) {
      const level = e.code.startsWith('75') ? 'sublocality_level1' : 'locality';
      const row = table.find((r) => r.level === level && r.code === e.code && r.property_type === e.type && r.period === 'year' && r.period_start === `${e.year}-01-01`);
      expect(row, `${e.code} ${e.type} ${e.year}`).toBeDefined();
      expect(row!.sample_size).toBe(Number(e.n));
      expect(row!.median).toBeCloseTo(e.median, 6);
      expect(row!.q1).toBeCloseTo(e.q1, 6);
      expect(row!.q3).toBeCloseTo(e.q3, 6);
    }
    // Paris 3e's arrondissement also counts in Paris, in department 75 and in region 11.
    const paris = table.filter((r) => r.code === '75056' && r.period === 'year' && r.period_start === '2022-01-01' && r.property_type === 'apartment')[0]!;
    const arr = table.filter((r) => r.level === 'sublocality_level1' && r.period === 'year' && r.period_start === '2022-01-01' && r.property_type === 'apartment');
    expect(paris.sample_size).toBe(arr.reduce((n, r) => n + (r.sample_size as number), 0));
  });

  it('serves series with 1y, 5y and since_start changes, and a 24-month window ending with the latest sale', async () => {
    const rows = await analyst<Record<string, unknown>>(`SELECT period, strftime(period_start, '%Y-%m-%d') AS s, strftime(period_end, '%Y-%m-%d') AS e, median, change_1y, change_5y, change_since_start
      FROM '${dataDir}/tables/market_indicators/country=fr/all.parquet' WHERE level = 'locality' AND code = '33001' AND property_type = 'house' ORDER BY period, s`);
    const window = rows.find((r) => r.period === '24m')!;
    expect([window.s, window.e]).toEqual(['2023-07-01', '2025-06-30']);
    const years = rows.filter((r) => r.period === 'year');
    expect(years.map((r) => r.s)).toEqual(['2020-01-01', '2021-01-01', '2022-01-01', '2023-01-01', '2024-01-01', '2025-01-01']);
    expect(years.at(-1)!.e).toBe('2025-06-30');
    const [first, , , , prev, last] = years.map((r) => r.median as number);
    expect(years.at(-1)!.change_1y).toBeCloseTo(100 * (last! / prev! - 1), 9);
    expect(years.at(-1)!.change_5y).toBeCloseTo(100 * (last! / first! - 1), 9);
    expect(years.at(-1)!.change_since_start).toBeCloseTo(100 * (last! / first! - 1), 9);
    expect(years[0]!.change_1y).toBeNull();
    expect(years[0]!.change_since_start).toBeNull();
  });
});

describe('fr.dvf refused lines', () => {
  const header = DVF_GEO_HEADER.join(',');
  const good = (id: string, extra: Partial<Record<(typeof DVF_GEO_HEADER)[number], string>> = {}) => DVF_GEO_HEADER.map((c) => ({
    id_mutation: id, date_mutation: '2024-03-04', numero_disposition: '000001', nature_mutation: 'Vente', valeur_fonciere: '250000',
    code_commune: '33001', nom_commune: 'Abzac', code_departement: '33', id_parcelle: '33001000AB0107', code_type_local: '1', type_local: 'Maison',
    surface_reelle_bati: '100', nombre_pieces_principales: '4', longitude: '-0.13', latitude: '45.01', ...extra,
  } as Record<string, string>)[c] ?? '').join(',');

  it('gives each sale the IRIS of its position from the published cover, exactly on both sides of an IRIS border', async () => {
    const dataDir = await buildFixtureData(); // IRIS 751030101 west of BORDER_LNG, 751110201 east of it, none in Gironde
    const file = join(dataDir, '..', '75.csv');
    const at = (id: string, lng: number, lat: number) => good(id, { code_commune: '75103', nom_commune: 'Paris 3e Arrondissement', code_departement: '75', id_parcelle: '75103000AB0107', longitude: lng.toFixed(7), latitude: lat.toFixed(7) });
    await writeFile(file, `${[header,
      at('inside-3e', 2.3600, 48.8620), at('west-of-border', BORDER_LNG - 0.00002, 48.8600), at('east-of-border', BORDER_LNG + 0.00002, 48.8600),
      at('inside-11e', 2.3800, 48.8550), good('abzac'),
    ].join('\n')}\n`);
    await ingestDvf(silentContext(dataDir), [{ path: file }]);
    const rows = await analyst<{ id: string; iris_code: string | null }>(`SELECT id, iris_code FROM '${dataDir}/tables/sales/country=fr/*.parquet' ORDER BY id`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.iris_code]))).toEqual({
      'inside-3e': '751030101', 'west-of-border': '751030101', 'east-of-border': '751110201', 'inside-11e': '751110201', abzac: null,
    });
  });

  it('writes each refused line with its line number and reason, and leaves out its whole mutation', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-dvf-bad-'));
    const file = join(root, '33.csv');
    const lines = [header, ...Array.from({ length: 200 }, (_, i) => good(`2024-${i}`)), good('2024-7', { date_mutation: '2024-02-31' }), 'only,three,fields', good('2024-500', { latitude: '145.2' })];
    await writeFile(file, `${lines.join('\n')}\n`);
    const dataDir = join(root, 'data');
    const [sales] = await ingestDvf({ ...silentContext(dataDir), maxRejectShare: 0.05 }, [{ path: file }]);
    expect(sales!.rejects).toBe(3);
    const rejects = (await readFile(sales!.rejectsFile!, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';').slice(0, 2));
    expect(rejects).toEqual([
      ['202', 'date_mutation is not a YYYY-MM-DD date'],
      ['203', expect.stringMatching(/column/i)],
      ['204', 'latitude is not a latitude'],
    ]);
    // 2024-7 had a valid line too: the mutation is left out whole.
    expect(sales!.rows).toBe(199);
  });

  it('numbers lines right in a file large enough to be read on several threads', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-dvf-large-'));
    const file = join(root, '33.csv');
    // About 45 MB: DuckDB splits it between threads; refused lines sit early, in the middle and late.
    const bad = new Map([[1_000, 'abc'], [130_000, 'x1'], [259_000, '-5']]);
    const lines = Array.from({ length: 260_000 }, (_, i) => good(`2024-${i}`, { valeur_fonciere: bad.get(i + 2) ?? '250000', adresse_nom_voie: 'RUE DU GENERAL DE GAULLE PROLONGEE', nom_commune: 'Saint-Denis-de-Pile' }));
    await writeFile(file, `${[header, ...lines].join('\n')}\n`);
    const [sales] = await ingestDvf(silentContext(join(root, 'data')), [{ path: file }]);
    const rejects = (await readFile(sales!.rejectsFile!, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';'));
    expect(rejects.map(([line]) => Number(line))).toEqual([...bad.keys()]);
    // Each refused line's own fields come back with its number.
    for (const r of rejects) expect(r.join(';')).toContain(`2024-${Number(r[0]) - 2}`);
  });

  it('fails and publishes nothing past the allowed share of refused lines', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-dvf-fail-'));
    const file = join(root, '33.csv');
    await writeFile(file, `${[header, good('a'), good('b', { valeur_fonciere: 'abc' })].join('\n')}\n`);
    const dataDir = join(root, 'data');
    await expect(ingestDvf(silentContext(dataDir), [{ path: file }])).rejects.toThrow(/rejected/);
    expect(existsSync(join(dataDir, 'tables/sales/country=fr'))).toBe(false);
    expect(existsSync(join(dataDir, 'fr/manifest.json'))).toBe(false);
  });

  it('refuses a file that is neither layout, naming what is missing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-dvf-other-'));
    const file = join(root, 'x.csv');
    await writeFile(file, 'a,b\n1,2\n');
    await expect(ingestDvf(silentContext(join(root, 'data')), [{ path: file }])).rejects.toThrow(/not a DVF file: .*missing id_mutation/);
  });

  it('SQL and zod forms of both line schemas agree line by line', async () => {
    const geo: Record<string, string>[] = ([
      {}, { id_mutation: '' }, { date_mutation: '2024-13-01' }, { date_mutation: '04/03/2024' }, { valeur_fonciere: '' }, { valeur_fonciere: '12.5' },
      { valeur_fonciere: '-3' }, { valeur_fonciere: '1,5' }, { code_commune: '2A004' }, { code_commune: '3301' }, { code_departement: '976' },
      { id_parcelle: '330010000B2328' }, { id_parcelle: '33001000B2328' }, { code_type_local: '5' }, { surface_reelle_bati: 'x' }, { nombre_pieces_principales: '' },
      { longitude: '', latitude: '' }, { longitude: '181' }, { latitude: 'abc' }, { numero_disposition: '' }, { surface_terrain: '1e3' },
    ] as Record<string, string>[]).map((o) => Object.fromEntries(DVF_GEO_HEADER.map((c, i) => [c, o[c] ?? good('x').split(',')[i]!])));
    const raw: Record<string, string>[] = ([
      {}, { 'Date mutation': '31/02/2024' }, { 'Date mutation': '2024-01-02' }, { 'Valeur fonciere': '1234,56' }, { 'Valeur fonciere': '1 234,56' },
      { 'Code commune': '1234' }, { Section: '' }, { 'No plan': '12345' }, { 'Prefixe de section': '' }, { 'Surface terrain': '12,5' }, { 'Code departement': '2B' },
    ] as Record<string, string>[]).map((o) => Object.fromEntries(DVF_RAW_HEADER.map((c) => [c, o[c] ?? ({ 'No disposition': '000001', 'Date mutation': '04/03/2024', 'Nature mutation': 'Vente', 'Valeur fonciere': '250000,00', 'Code departement': '33', 'Code commune': '1', Section: 'AB', 'No plan': '107' } as Record<string, string>)[c] ?? ''])));
    for (const [schema, records] of [[DvfGeoLine, geo], [DvfRawLine, raw]] as const) {
      const cols = Object.keys(records[0]!);
      const values = records.map((r) => `(${cols.map((c) => (r[c] === '' ? 'NULL' : `'${r[c]!.replaceAll("'", "''")}'`)).join(', ')})`).join(', ');
      const sql = await analyst<{ ok: boolean }>(`SELECT (${schema.sql}) AS ok FROM (VALUES ${values}) AS t(${cols.map((c) => `"${c}"`).join(', ')})`);
      const zod = records.map((r) => schema.zod.safeParse(r).success);
      expect(sql.map((r) => r.ok)).toEqual(zod);
      expect(zod.filter((z) => !z).length).toBeGreaterThan(3);
    }
  });

  it('names inputs (in their rejects files) after the published file layout', () => {
    expect(dvfInputName('/d/csv/2024/departements/2A.csv.gz')).toBe('2024-2A');
    expect(dvfInputName('/d/ValeursFoncieres-2023.txt')).toBe('valeursfoncieres-2023');
  });
});

describe.skipIf(!existsSync(REAL))('fr.dvf on the real Abzac extract', () => {
  it('ingests its 50 mutations: the exchange is not a market sale, lines without coordinates keep their sale', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-dvf-real-'));
    const dataDir = join(root, 'data');
    const [sales, indicators] = await ingestDvf(silentContext(dataDir), [{ path: REAL }]);
    expect(sales).toMatchObject({ rows: 50, rejects: 0 });
    expect(indicators!.rows).toBeGreaterThan(0);
    const rows = (await analyst<Record<string, unknown>>(`SELECT * FROM '${dataDir}/tables/sales/country=fr/*.parquet'`)).map(plain);
    expect(rows.find((r) => r.id === '2021-532643')).toMatchObject({ nature: 'Echange', market_sale: false });
    // Two apartments of 35 and 56 m² in one deed, on a parcel without coordinates: kept, not priced per m².
    expect(rows.find((r) => r.id === '2021-527270')).toMatchObject({ dwellings: 2, price_per_m2: null, parcels: ['33001000ZM0047', '33001000ZM0048'] });
    expect(rows.find((r) => r.id === '2021-527270')!.cell).not.toBeNull();
    // A flat with outbuildings on two parcels: 100 m², not 100 + outbuildings.
    expect(rows.find((r) => r.id === '2021-530714')).toMatchObject({ dwellings: 1, property_type: 'apartment', surface: 100, price_per_m2: 1530, outbuildings: 2 });
    // No lot in the extract: no Carrez surface; the two flats of 2021-527270 share their parcel and have no lots: not told apart.
    expect(rows.every((r) => r.carrez_area === null)).toBe(true);
    expect(rows.find((r) => r.id === '2021-527270')!.units).toBeNull();
    // Units against DuckDB reading the file: per deed, the parcels holding exactly one dwelling (the extract has no lots).
    const expected = await analyst<{ id: string; n: bigint }>(`SELECT id_mutation AS id, count(*) FILTER (WHERE k = 1) AS n FROM (
        SELECT id_mutation, id_parcelle, count(DISTINCT (code_type_local, surface_reelle_bati, nombre_pieces_principales)) AS k
        FROM read_csv('${REAL}', all_varchar = true) WHERE code_type_local IN ('1', '2') GROUP BY ALL) GROUP BY id ORDER BY id`);
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.map((e) => [e.id, Number(e.n)])).toEqual(expected.map((e) => [e.id, (rows.find((r) => r.id === e.id)!.units as unknown[] | null)?.length ?? 0]));
  });
});

describe('fr.dvf publication date (the market indicators\' updated_on)', () => {
  const sample = join(SAMPLES, 'csv/2024/departements/33.csv');
  /** A mirror answering the department file gzipped, with the Last-Modified given (or none). */
  const mirror = (lastModified: string | null) => vi.fn(async () => new Response(gzipSync(readFileSync(sample)), { status: 200, headers: lastModified ? { 'last-modified': lastModified } : {} }));
  afterEach(() => { vi.unstubAllGlobals(); });

  it("records the download's Last-Modified as the files' publication date, unless --published-on is given", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dvf-lm-')), 'data');
    vi.stubGlobal('fetch', mirror('Tue, 08 Apr 2025 14:02:11 GMT'));
    await dvfJob.run(silentContext(dataDir), ['--download', '--part', '2024/33', '--url', 'http://mirror.test/csv']);
    const published = (m: Manifest, table: string) => m.partitions.filter((p) => p.table === table).flatMap((p) => p.sources.map((s) => s.published_at));
    expect(published(await readManifest(dataDir, 'fr'), 'market_indicators')).toEqual(['2025-04-08']);
    await dvfJob.run(silentContext(dataDir), ['--download', '--part', '2024/33', '--url', 'http://mirror.test/csv', '--published-on', '2025-04-01']);
    expect(published(await readManifest(dataDir, 'fr'), 'sales')).toEqual(['2025-04-01']);
  });

  it('fails after a download without Last-Modified, before ingesting, telling the operator to give --published-on', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dvf-nolm-')), 'data');
    vi.stubGlobal('fetch', mirror(null));
    await expect(dvfJob.run(silentContext(dataDir), ['--download', '--part', '2024/33', '--url', 'http://mirror.test/csv']))
      .rejects.toThrow(/fr\.dvf \(the server sent no Last-Modified\): the producer's publication date of 33\.csv\.gz is not known; give --published-on YYYY-MM-DD/);
    expect(existsSync(join(dataDir, 'tables'))).toBe(false);
    expect(existsSync(join(dataDir, 'downloads', 'fr', 'dvf', '2024', 'departements', '33.csv.gz'))).toBe(true);
  });
});
