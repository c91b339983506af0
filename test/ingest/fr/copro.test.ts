import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { ingestBuildings } from '../../../ingest/fr/buildings.ts';
import { ingestCopro, parcelId, readRnicRecord, splitStreet } from '../../../ingest/fr/copro.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { CoproRow } from '../../../schemas/tables/copro.ts';
import { partitionPath } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/copro/rnic-copro-sample.csv');
let dataDir: string;
const buildingOf = async (rnb: string) => (await duckRows<{ id: string }>(`SELECT id FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-75')}' WHERE json_extract_string(attributes, '$.rnb_id') = '${rnb}'`))[0]!.id;

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-copro-')), 'data');
  const ctx = silentContext(dataDir);
  await ingestBanFile(ctx, { path: join(REPO_ROOT, 'datasets/fr/ban/adresses-75.csv') });
  await ingestBuildings(ctx, { rnb: { path: join(REPO_ROOT, 'datasets/fr/buildings/RNB_75.csv') }, bdnb: { path: join(REPO_ROOT, 'datasets/fr/buildings/bdnb_batiment_groupe_compile_75.csv') } });
}, 120_000);

describe('fr.copro: reading the registry as published', () => {
  it('brings Paris, Lyon and Marseille parcels from the city code and arrondissement prefix to the cadastre id', () => {
    expect(parcelId('75056115DH0016')).toBe('75115000DH0016');
    expect(parcelId('69123383AB0012')).toBe('69383000AB0012');
    expect(parcelId('13055201A 0012')).toBeUndefined();
    expect(parcelId('13055201AB0012')).toBe('13201000AB0012');
    expect(parcelId('33001000ZM0048')).toBe('33001000ZM0048');
    expect(parcelId('', { insee: '33001', prefix: '', section: 'zm', number: '48' })).toBe('33001000ZM0048');
    expect(parcelId('non connu')).toBeNull();
    expect(parcelId('75103VS35')).toBeUndefined();
  });

  it('splits the number, suffix and street of the reference address', () => {
    expect(splitStreet('31 bis boulevard Beaumarchais')).toEqual({ number: 31, rep: 'b', street: 'boulevard Beaumarchais' });
    expect(splitStreet('2 passage des Arbalétriers')).toEqual({ number: 2, rep: '', street: 'passage des Arbalétriers' });
    expect(splitStreet('non connu')).toEqual({ number: null, rep: '', street: null });
  });

  it('reads every line of the sample as DuckDB reads the file: numbers, dates, lots, manager, position; "non connu" as null', async () => {
    const published = await duckRows<Record<string, string | null>>(`SELECT * FROM read_csv('${SAMPLE}', all_varchar = true, header = true, delim = ',', quote = '"')`);
    expect(published).toHaveLength(5);
    const out = await ingestCopro(silentContext(dataDir), { path: SAMPLE });
    expect(out.map((s) => [s.table, s.partition, s.rows, s.rejects])).toEqual([['copro', 'rnic-75', 5, 0]]);
    const rows = (await duckRows<Record<string, unknown>>(`SELECT * EXCLUDE (registered_on, regulation_on, mandate_ends_on, updated_on),
      strftime(registered_on, '%Y-%m-%d') AS registered_on, strftime(regulation_on, '%Y-%m-%d') AS regulation_on,
      strftime(mandate_ends_on, '%Y-%m-%d') AS mandate_ends_on, strftime(updated_on, '%Y-%m-%d') AS updated_on
      FROM '${partitionPath(dataDir, 'fr', 'copro', 'rnic-75')}' ORDER BY registration_number`)).map((r) => CoproRow.parse(r));
    const unknown = (v: string | null) => (v === null || v === 'non connu' || v === 'NON_CONNUE' ? null : v);
    for (const p of published) {
      const r = rows.find((x) => x.registration_number === p.numero_immatriculation)!;
      expect(r.name).toBe(p.nom_usage_copropriete);
      expect(r.registered_on).toBe(p.date_immatriculation);
      expect(r.regulation_on).toBe(unknown(p.date_reglement_copropriete));
      expect(r.lots_total).toBe(Number(p.nombre_total_lots));
      expect(r.lots_dwellings).toBe(Number(p.nombre_lots_habitation));
      expect(r.lots_parking).toBe(unknown(p.nombre_lots_stationnement) === null ? null : Number(p.nombre_lots_stationnement));
      expect(r.manager_name).toBe(p.raison_sociale_representant_legal);
      expect(r.manager_siret).toBe(p.siret_representant_legal);
      expect(r.mandate_ends_on).toBe(p.date_fin_dernier_mandat);
      expect([r.longitude, r.latitude]).toEqual([Number(p.longitude), Number(p.latitude)]);
      expect(r.address).toBe(p.adresse_reference);
    }
    expect(rows.map((r) => [r.registration_number, r.manager_type, r.mandate_active, r.construction_period])).toEqual([
      ['AA1234567', 'professional', true, 'before_1949'], ['AB2345678', 'volunteer', true, 'before_1949'], ['AC3456789', 'professional', false, 'before_1949'],
      ['AD4567890', null, null, null], ['AE5678901', 'professional', true, '1975_1993'],
    ]);
    expect(rows.find((r) => r.registration_number === 'AA1234567')!.parcels).toEqual(['75103000VS0035']);
  });

  it('attaches each co-ownership by parcel (sure), else address, else position (probable), else to none', async () => {
    const rows = await duckRows<{ registration_number: string; building_id: string | null; attachment: string | null; attachment_reason: string | null }>(
      `SELECT registration_number, building_id, attachment, attachment_reason FROM '${partitionPath(dataDir, 'fr', 'copro', 'rnic-75')}' ORDER BY registration_number`);
    expect(rows).toEqual([
      { registration_number: 'AA1234567', building_id: await buildingOf('SPMNGNB5EPNS'), attachment: 'sure', attachment_reason: 'parcel_in_registry' },
      { registration_number: 'AB2345678', building_id: await buildingOf('A48CNHDP6EET'), attachment: 'probable', attachment_reason: 'address_matches' },
      { registration_number: 'AC3456789', building_id: await buildingOf('BKS66M4KJX8C'), attachment: 'probable', attachment_reason: 'position_in_footprint' },
      { registration_number: 'AD4567890', building_id: await buildingOf('142R8P75FF87'), attachment: 'sure', attachment_reason: 'parcel_in_registry' },
      { registration_number: 'AE5678901', building_id: null, attachment: null, attachment_reason: null },
    ]);
  });

  it('refuses bad lines with their line and reason, and a file lacking a column naming it', async () => {
    const lines = (await readFile(SAMPLE, 'utf8')).trim().split('\n');
    const dir = await mkdtemp(join(tmpdir(), 'lds-copro-bad-'));
    const bad = [...lines];
    bad[2] = bad[2]!.replace('2018-11-05', '05/11/2018');
    bad[3] = bad[3]!.replace('Pas de mandat en cours', 'Peut-être');
    bad.push(lines[1]!);
    await writeFile(join(dir, 'rnic.csv'), `${bad.join('\n')}\n`);
    const [s] = await ingestCopro({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: join(dir, 'rnic.csv') });
    expect([s!.rows, s!.rejects]).toEqual([3, 3]);
    const rejects = await readFile(join(dir, 'data/fr/rejects/copro.rnic-75.csv'), 'utf8');
    expect(rejects).toMatch(/^3;"date_immatriculation ""05\/11\/2018"" is not a YYYY-MM-DD date"/m);
    expect(rejects).toMatch(/^4;"mandat_en_cours ""Peut-être"" is not a mandate state/m);
    expect(rejects).toMatch(/^7;registration number AA1234567 already read at line 2/m);
    expect(readRnicRecord({ ...Object.fromEntries(lines[0]!.split(',').map((h) => [h, ''])), numero_immatriculation: 'A123' })).toEqual({ why: expect.stringMatching(/not a registration number/) });
    await writeFile(join(dir, 'other.csv'), 'numero_immatriculation,nom_usage_copropriete\nAA1234567,X\n');
    await expect(ingestCopro(silentContext(join(dir, 'data2')), { path: join(dir, 'other.csv') })).rejects.toThrow(/not the RNIC export: missing column\(s\) date_immatriculation/);
  });
});
