import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobById } from '../../../ingest/jobs.ts';
import { splitCivic } from '../../../ingest/generic/addresses.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { duckRows } from '../../helpers/duckdb.ts';

describe('splitCivic: the number, its suffix and the street of one civic address', () => {
  it('never takes a street type for a suffix', () => {
    // The real BAL of 54084 writes "1 Rue Joffre": number 1, street "Rue Joffre".
    expect(splitCivic('1 Rue Joffre')).toEqual({ number: 1, rep: null, street: 'Rue Joffre' });
    expect(splitCivic('12 av. du Parc')).toEqual({ number: 12, rep: null, street: 'av. du Parc' });
    expect(splitCivic('12 r. du Parc')).toEqual({ number: 12, rep: null, street: 'r. du Parc' });
    expect(splitCivic('12 r du Parc')).toEqual({ number: 12, rep: null, street: 'r du Parc' });
    expect(splitCivic('12 Terrasse des Lilas')).toEqual({ number: 12, rep: null, street: 'Terrasse des Lilas' });
    expect(splitCivic('7 Bd Voltaire')).toEqual({ number: 7, rep: null, street: 'Bd Voltaire' });
  });

  it('reads bis, ter, quater and a lone letter as the suffix, attached or not', () => {
    expect(splitCivic('12 bis rue de Bretagne')).toEqual({ number: 12, rep: 'bis', street: 'rue de Bretagne' });
    expect(splitCivic('12ter, rue de Bretagne')).toEqual({ number: 12, rep: 'ter', street: 'rue de Bretagne' });
    expect(splitCivic('12 quater rue de Bretagne')).toEqual({ number: 12, rep: 'quater', street: 'rue de Bretagne' });
    expect(splitCivic('12B rue de Bretagne')).toEqual({ number: 12, rep: 'b', street: 'rue de Bretagne' });
    expect(splitCivic('12 A, rue de Bretagne')).toEqual({ number: 12, rep: 'a', street: 'rue de Bretagne' });
  });

  it('keeps the first number of a range, CITQ\'s "N-M, street", out of the street', () => {
    expect(splitCivic('290-292, ch. du Lac-Duhamel')).toEqual({ number: 290, rep: null, street: 'ch. du Lac-Duhamel' });
    expect(splitCivic('290 - 292 ch. du Lac-Duhamel')).toEqual({ number: 290, rep: null, street: 'ch. du Lac-Duhamel' });
    expect(splitCivic('3101, boul. Édouard-Montpetit')).toEqual({ number: 3101, rep: null, street: 'boul. Édouard-Montpetit' });
  });

  it('keeps a text without a leading number as the street', () => {
    expect(splitCivic('C.P. 38-1584, route 167 Nord')).toEqual({ number: null, rep: null, street: 'C.P. 38-1584, route 167 Nord' });
    expect(splitCivic('Rue 132')).toEqual({ number: null, rep: null, street: 'Rue 132' });
  });
});

describe('the generic addresses job', () => {
  const run = async (csv: string, argv: string[]) => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-generic-')), 'data');
    const input = join(dataDir, '..', 'communal.csv');
    await writeFile(input, csv);
    const [p] = await jobById('addresses')!.run(silentContext(dataDir), ['--country', 'fr', '--input', input, '--partition', 'addresses.communal', ...argv]);
    return { p: p!, rows: await duckRows<{ number: number | null; rep: string | null; street: string; street_key: string; label: string }>(
      `SELECT number, rep, street, street_key, label FROM read_parquet('${p!.file}') ORDER BY id`) };
  };

  it('writes number, suffix and street of one civic column as the rules above say', async () => {
    const { rows } = await run('id;adresse;commune;lon;lat\n1;1 Rue Joffre;Mont-Bonvillers;5.833622;49.322203\n2;12 av. du Parc;Mont-Bonvillers;5.8341;49.3224\n3;4 bis Rue Joffre;Mont-Bonvillers;5.8337;49.3222\n',
      ['--separator', ';', '--id-column', 'id', '--address-column', 'adresse', '--locality-column', 'commune', '--lng-column', 'lon', '--lat-column', 'lat']);
    expect(rows).toEqual([
      { number: 1, rep: null, street: 'Rue Joffre', street_key: 'rue joffre', label: '1 Rue Joffre Mont-Bonvillers' },
      { number: 12, rep: null, street: 'av. du Parc', street_key: 'avenue parc', label: '12 av. du Parc Mont-Bonvillers' },
      { number: 4, rep: 'bis', street: 'Rue Joffre', street_key: 'rue joffre', label: '4 bis Rue Joffre Mont-Bonvillers' },
    ]);
  });

  it('takes the suffix from --suffix-column when the producer publishes one', async () => {
    const { rows } = await run('id;numero;suffixe;voie;commune;lon;lat\n1;3;B;Rue Joffre;Mont-Bonvillers;5.8336;49.3222\n2;5;;A Street;Mont-Bonvillers;5.8338;49.3223\n',
      ['--separator', ';', '--id-column', 'id', '--number-column', 'numero', '--suffix-column', 'suffixe', '--street-column', 'voie', '--locality-column', 'commune', '--lng-column', 'lon', '--lat-column', 'lat']);
    expect(rows.map((r) => [r.number, r.rep, r.street])).toEqual([[3, 'b', 'Rue Joffre'], [5, null, 'A Street']]);
  });

  it('refuses a suffix column absent from the file, naming the columns it has', async () => {
    await expect(run('id;numero;voie;commune;lon;lat\n1;3;Rue Joffre;X;5.8;49.3\n',
      ['--separator', ';', '--number-column', 'numero', '--suffix-column', 'suffixe', '--street-column', 'voie', '--locality-column', 'commune', '--lng-column', 'lon', '--lat-column', 'lat']))
      .rejects.toThrow(/suffixe not in the file/);
  });
});
