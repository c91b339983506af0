import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { stationsJob } from '../../../ingest/fr/stations.job.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/stations/gares-de-voyageurs.csv');

describe('fr.stations', () => {
  it('writes every station of the file as a train station at its published position', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-stations-')), 'data');
    const [summary] = await stationsJob.run(silentContext(dataDir), ['--input', SAMPLE]);
    const source = readFileSync(SAMPLE, 'utf8').trim().split('\n').slice(1).map((l) => l.split(';'));
    expect(summary).toMatchObject({ table: 'places', partition: 'fr.stations', rows: source.length, rejects: 0 });
    const rows = await duckRows<{ id: string; name: string; latitude: number; longitude: number; category: string; attributes: string }>(`SELECT * FROM '${dataDir}/tables/places/country=fr/*.parquet' ORDER BY id`);
    for (const [name, code, , position, commune, uic] of source) {
      const r = rows.find((x) => x.id === `fr.stations.${code}`)!;
      const [lat, lng] = position!.split(',').map(Number);
      expect(r).toMatchObject({ name, latitude: lat, longitude: lng, category: 'transport.train_station' });
      expect(JSON.parse(r.attributes)).toEqual({ lines: [], lines_published: false, uic: [uic], commune_code: commune });
    }
  });

  it('names the columns it misses in a file of another layout', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-stations-')), 'data');
    const bad = join(dataDir, '..', 'gares.csv');
    writeFileSync(bad, 'libelle;lat;lon\nParis;48.8;2.3\n');
    await expect(stationsJob.run(silentContext(dataDir), ['--input', bad])).rejects.toThrow(/missing columns Nom, Trigramme, Position géographique/);
  });
});
