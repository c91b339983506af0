import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobById } from '../../../ingest/jobs.ts';
import { BAN_HEADER, banLine, silentContext } from '../../helpers/fixture-data.ts';
import { duckRows } from '../../helpers/duckdb.ts';

interface Row { id: string; number: number; rep: string | null; street: string; postcode: string | null; locality_code: string; position_kind: string | null; source: string }
const rows = (dataDir: string) => duckRows<Row>(`SELECT id, number, rep, street, postcode, locality_code, position_kind, source FROM read_parquet('${join(dataDir, 'tables/addresses/country=fr/*.parquet')}') ORDER BY id, source`);
const fresh = async () => join(await mkdtemp(join(tmpdir(), 'lds-bal-')), 'data');
const BAL_14 = 'id_ban_commune;id_ban_toponyme;id_ban_adresse;cle_interop;commune_insee;commune_nom;commune_deleguee_insee;commune_deleguee_nom;voie_nom;lieudit_complement_nom;numero;suffixe;position;x;y;long;lat;cad_parcelles;source;date_der_maj;certification_commune';
const balLine = (cle: string, voie: string, numero: number, suffixe = '') =>
  `;;;${cle};54999;Exemple-sur-Orne;;;${voie};;${numero};${suffixe};entrée;;;5.9001;49.2001;;commune;2026-03-02;1`;

describe('fr.bal: Base Adresse Locale of a commune', () => {
  it('reads the BAL 1.3 and 1.4 samples into the department\'s partition; the later file replaces the commune', async () => {
    const dataDir = await fresh();
    const job = jobById('fr.bal')!;
    const out = await job.run(silentContext(dataDir), job.samples[0]!);
    expect(out.map((p) => [p.partition, p.rows, p.rejects])).toEqual([['adresses-54', 4, 0], ['adresses-54', 3, 0]]);
    // The 1.4 file holds commune 54999 too: its three addresses replace the 1.3 file's four
    // (2 Impasse du 8 Mai 1945, in both, is served once); the toponym numbered 99999 is skipped.
    expect(await rows(dataDir)).toEqual([
      { id: '54999_0210_00002', number: 2, rep: null, street: 'Impasse du 8 Mai 1945', postcode: null, locality_code: '54999', position_kind: 'entrée', source: 'fr.bal' },
      { id: '54999_0220_00004_a', number: 4, rep: 'a', street: 'Place du 19 Mars 1962', postcode: null, locality_code: '54999', position_kind: 'entrée', source: 'fr.bal' },
      { id: '54999_0230_00012', number: 12, rep: null, street: 'Route de Briey', postcode: null, locality_code: '54999', position_kind: 'entrée', source: 'fr.bal' },
    ]);
    const manifest = JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')) as { partitions: { partition: string; job: string; sources: { id: string; input: string }[] }[] };
    expect(manifest.partitions.find((p) => p.partition === 'adresses-54')).toMatchObject({ job: 'fr.bal', sources: [{ id: 'fr.bal', input: 'bal-1.4-54999.csv' }] });
  });

  it('replaces the BAN\'s addresses of its commune and leaves the department\'s other communes: one address, one row', async () => {
    const dataDir = await fresh();
    const ctx = silentContext(dataDir);
    const ban = join(dataDir, '..', 'adresses-54.csv');
    await writeFile(ban, [BAN_HEADER,
      banLine({ insee: '54999', fantoir: '0200', numero: 1, voie: 'Rue Joffre', cp: '54620', commune: 'Exemple-sur-Orne', lon: 5.9001, lat: 49.2001 }),
      banLine({ insee: '54999', fantoir: '0200', numero: 5, voie: 'Rue Joffre', cp: '54621', commune: 'Exemple-sur-Orne', lon: 5.9005, lat: 49.2003 }),
      banLine({ insee: '54998', fantoir: '0100', numero: 2, voie: 'Rue Haute', cp: '54620', commune: 'Voisin', lon: 5.95, lat: 49.21 }),
    ].join('\n') + '\n');
    const bal = join(dataDir, '..', 'bal-54999.csv');
    // Same address as the BAN's first row (same cle_interop / id), and a new one; the BAN's 5 is gone from the commune's BAL.
    await writeFile(bal, [BAL_14, balLine('54999_0200_00001', 'Rue Joffre', 1), balLine('54999_0200_00003', 'Rue Joffre', 3, 'bis')].join('\r\n') + '\r\n');
    await jobById('fr.ban')!.run(ctx, ['--input', ban]);
    await jobById('fr.bal')!.run(ctx, ['--input', bal]);
    // BAL has no postcode: each address takes the one the BAN gave its id, else the commune's only one
    // (here the commune has two, 54620 and 54621: the new 3 bis has none).
    expect((await rows(dataDir)).map((r) => [r.id, r.source, r.rep, r.postcode])).toEqual([
      ['54998_0100_00002', 'fr.ban', null, '54620'], ['54999_0200_00001', 'fr.bal', null, '54620'], ['54999_0200_00003', 'fr.bal', 'bis', null],
    ]);
    // Commune 54998 has one postcode in the BAN: a new address of its BAL takes it.
    const voisin = join(dataDir, '..', 'bal-54998.csv');
    await writeFile(voisin, [BAL_14, balLine('54998_0100_00004', 'Rue Haute', 4).replace(';54999;Exemple-sur-Orne;', ';54998;Voisin;')].join('\r\n') + '\r\n');
    await jobById('fr.bal')!.run(ctx, ['--input', voisin]);
    expect((await rows(dataDir)).filter((r) => r.locality_code === '54998').map((r) => [r.id, r.source, r.postcode])).toEqual([['54998_0100_00004', 'fr.bal', '54620']]);
    // A later BAN of the department takes the commune back: the latest ingest of a commune serves it.
    await jobById('fr.ban')!.run(ctx, ['--input', ban]);
    expect((await rows(dataDir)).map((r) => [r.id, r.source])).toEqual([
      ['54998_0100_00002', 'fr.ban'], ['54999_0200_00001', 'fr.ban'], ['54999_0200_00005', 'fr.ban'],
    ]);
  });

  it('refuses a file that is not a BAL, naming the missing columns; refuses bad rows with their line', async () => {
    const dataDir = await fresh();
    const notBal = join(dataDir, '..', 'x.csv');
    await writeFile(notBal, 'cle_interop;numero\n54999_0200_00001;1\n');
    await expect(jobById('fr.bal')!.run(silentContext(dataDir), ['--input', notBal])).rejects.toThrow(/not a Base Adresse Locale .*missing columns commune_insee, commune_nom, voie_nom/);
    const bad = join(dataDir, '..', 'bad.csv');
    await writeFile(bad, [BAL_14, balLine('54999_0200_00001', 'Rue Joffre', 1), balLine('54999_0200_0000x', 'Rue Joffre', 'x' as unknown as number)].join('\n') + '\n');
    await expect(jobById('fr.bal')!.run(silentContext(dataDir), ['--input', bad])).rejects.toThrow(/reject/i);
    const [p] = await jobById('fr.bal')!.run({ ...silentContext(dataDir), maxRejectShare: 1 }, ['--input', bad]);
    expect(p).toMatchObject({ rows: 1, rejects: 1 });
    expect(await readFile(p!.rejectsFile!, 'utf8')).toMatch(/3.*numero is not a number/);
  });
});
