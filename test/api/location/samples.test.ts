import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSamples } from '../../../ingest/jobs.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

// The committed samples, ingested by `npm run ingest -- samples` as `npm start` does, then served.
let t: TestApp;
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
  expect(res.statusCode, res.body).toBe(200);
  return LocationResponse.parse(res.json()).data.location;
};

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-samples-')), 'data');
  const parts = await runSamples(silentContext(dataDir));
  expect(parts.every((p) => p.rejects === 0)).toBe(true);
  t = await buildTestApp(dataDir);
}, 300_000); // every sample job runs first: minutes on a loaded machine
afterAll(async () => { await t.close(); });

function sampleRows(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(import.meta.dirname, '../../../datasets/fr/ban', file), 'utf8').trim().split('\n');
  const cols = header!.split(';');
  return lines.map((l) => Object.fromEntries(l.split(';').map((v, i) => [cols[i]!, v])));
}

describe('the samples served end to end', () => {
  it('finds sample addresses at the number, in their own arrondissement or commune', async () => {
    const rows = [...sampleRows('adresses-75.csv'), ...sampleRows('adresses-33.csv')];
    // Every 9th row: a spread over streets, suffixes and communes.
    for (const r of rows.filter((_, i) => i % 9 === 0)) {
      const q = `${r.numero}${r.rep ? ` ${r.rep}` : ''} ${r.nom_voie} ${r.code_postal} ${r.nom_commune.replace(/ \d+e(r)? Arrondissement$/, '')}`;
      const loc = await get(`/api/v1/fr/location?address=${encodeURIComponent(q)}`);
      expect(loc.precision, q).toBe('address');
      expect(loc.latitude).toBeCloseTo(Number(r.lat), 6);
      expect(loc.longitude).toBeCloseTo(Number(r.lon), 6);
      const code = r.code_insee.startsWith('751') ? loc.zones.sublocality_level1?.code : loc.zones.locality?.code;
      expect(code, q).toBe(r.code_insee);
    }
  });

  it.each([
    [2.36745, 48.8597, '75103'], [2.36795, 48.8597, '75111'],
    [2.3815, 48.85065, '75111'], [2.3815, 48.85035, '75112'],
    [2.3615, 48.8577, '75103'], [2.3615, 48.8567, '75104'],
  ])('places [%f, %f] in arrondissement %s', async (lng, lat, code) => {
    const loc = await get(`/api/v1/fr/location?lat=${lat}&lng=${lng}`);
    expect(loc.zones.sublocality_level1?.code).toBe(code);
    expect(loc.zones.sublocality_level2?.code.slice(0, 5)).toBe(code);
    expect(loc.zones.locality?.code).toBe('75056');
    expect(loc.zones.administrative_area_level1?.name).toBe('Île-de-France');
  });

  it.each([
    [-0.1255, 45.0262, '33001'], [-0.1255, 45.0276, '33138'],
    [-0.151, 45.002, '33001'], [-0.153, 45.0005, '33393'],
  ])('places [%f, %f] in commune %s', async (lng, lat, code) => {
    const loc = await get(`/api/v1/fr/location?lat=${lat}&lng=${lng}`);
    expect(loc.zones.locality?.code).toBe(code);
    expect(loc.zones.administrative_area_level2?.code).toBe('33');
    expect(loc.zones.sublocality_level1).toBeNull();
  });

  it('serves La Réunion, whose sources are in RGR92 / UTM 40S', async () => {
    const loc = await get('/api/v1/fr/location?lat=-20.8823&lng=55.4504');
    expect(loc.zones.locality?.code).toBe('97411');
    expect(loc.zones.administrative_area_level2?.code).toBe('974');
    const row = sampleRows('adresses-974.csv')[0]!;
    const byAddress = await get(`/api/v1/fr/location?address=${encodeURIComponent(`${row.numero} ${row.nom_voie} ${row.code_postal} ${row.nom_commune}`)}`);
    expect(byAddress.precision).toBe('address');
    expect(byAddress.zones.locality?.code).toBe('97411');
  });

  it('matches suffixes written b and t in BAN when asked as bis and ter', async () => {
    const bis = await get(`/api/v1/fr/location?address=${encodeURIComponent('39 bis rue de Bretagne 75003 Paris')}`);
    expect(bis.precision).toBe('address');
    expect(bis.address?.street_number).toBe('39 b');
    const ter = await get(`/api/v1/fr/location?address=${encodeURIComponent('31 ter bd Beaumarchais 75003 Paris')}`);
    expect(ter.address?.street_number).toBe('31 t');
  });
});
