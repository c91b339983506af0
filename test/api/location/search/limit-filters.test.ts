import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobById } from '../../../../ingest/jobs.ts';
import { LocationResponse } from '../../../../api/location/domains/location/routes.ts';
import { ErrorBody } from '../../../../schemas/error.ts';
import { silentContext } from '../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../helpers/app.ts';

// One street name in two communes of different postcodes (API Adresse's limit, postcode and citycode).
const ROWS = [
  ['a1', '1', 'Rue de la Gare', '54620', '54084', 'Mont-Bonvillers', '49.3220', '5.8330'],
  ['a2', '2', 'Rue de la Gare', '54620', '54084', 'Mont-Bonvillers', '49.3221', '5.8332'],
  ['a3', '3', 'Rue de la Gare', '54620', '54084', 'Mont-Bonvillers', '49.3222', '5.8334'],
  ['a5', '5', 'Rue de la Gare', '54620', '54084', 'Mont-Bonvillers', '49.3223', '5.8336'],
  ['b1', '1', 'Rue de la Gare', '54150', '54099', 'Briey', '49.2490', '5.9390'],
  ['b2', '2', 'Rue de la Gare', '54150', '54099', 'Briey', '49.2491', '5.9392'],
];

let t: TestApp;
const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/fr/location?${query}`, headers: { authorization: `Bearer ${t.key}` } });
const locate = async (query: string) => {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(200);
  return LocationResponse.parse(res.json()).data.location;
};
const q = (address: string, rest = '') => `address=${encodeURIComponent(address)}${rest}`;

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-limit-')), 'data');
  const input = join(dataDir, '..', 'communes.csv');
  await writeFile(input, ['id;numero;voie;cp;insee;commune;lat;lon', ...ROWS.map((r) => r.join(';'))].join('\n') + '\n');
  await jobById('addresses')!.run(silentContext(dataDir), ['--country', 'fr', '--input', input, '--separator', ';', '--id-column', 'id', '--number-column', 'numero',
    '--street-column', 'voie', '--postcode-column', 'cp', '--locality-code-column', 'insee', '--locality-column', 'commune', '--lat-column', 'lat', '--lng-column', 'lon']);
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t?.close(); });

describe('limit: ranked alternatives', () => {
  it('gives the best answer and limit - 1 alternatives, best first, each with its score', async () => {
    const loc = await locate(q('1 rue de la Gare Mont-Bonvillers', '&limit=4'));
    expect(loc.address).toMatchObject({ street_number: '1', locality: 'Mont-Bonvillers' });
    const alts = loc.geocoding!.alternatives;
    expect(alts).toHaveLength(3);
    const scores = alts.map((a) => a.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Math.max(...scores)).toBeLessThanOrEqual(loc.geocoding!.score);
    // The commune asked ranks before the other one; the nearest numbers before the far ones.
    expect(alts[0]!.label).toMatch(/Mont-Bonvillers$/);
    expect(alts.every((a) => a.precision === 'address')).toBe(true);
  });

  it('limit=1 is the answer alone; without limit the answer is as before', async () => {
    expect((await locate(q('1 rue de la Gare Mont-Bonvillers', '&limit=1'))).geocoding!.alternatives).toEqual([]);
    // Without limit: the same number in other localities, as the route always answered.
    const plain = await locate(q('1 rue de la Gare'));
    expect(plain.geocoding!.alternatives.map((a) => a.label)).toHaveLength(1);
  });

  it('refuses a limit outside 1-20, and search options with a position', async () => {
    for (const bad of ['0', '21', '2.5', '-1', 'x']) {
      const res = await get(q('1 rue de la Gare', `&limit=${bad}`));
      expect(res.statusCode, bad).toBe(400);
      expect(ErrorBody.parse(res.json()).error.code).toBe('invalid_parameter');
    }
    const res = await get('lat=49.3220&lng=5.8330&citycode=54084');
    expect(res.statusCode).toBe(400);
    expect(ErrorBody.parse(res.json()).error.message).toMatch(/citycode applies to an address search/);
  });
});

describe('postcode and citycode filters', () => {
  it('keeps only the commune or postcode asked', async () => {
    expect((await locate(q('2 rue de la Gare', '&citycode=54099'))).address?.locality).toBe('Briey');
    expect((await locate(q('2 rue de la Gare', '&citycode=54084'))).address?.locality).toBe('Mont-Bonvillers');
    expect((await locate(q('2 rue de la Gare', '&postcode=54150'))).address).toMatchObject({ locality: 'Briey', zipcode: '54150' });
    const alts = (await locate(q('1 rue de la Gare', '&citycode=54084&limit=20'))).geocoding!.alternatives;
    expect(alts.map((a) => a.label).every((l) => l.endsWith('Mont-Bonvillers'))).toBe(true);
    expect(alts).toHaveLength(3);
  });

  it('answers at the precision that matched in the commune asked, else not found', async () => {
    // Briey's Rue de la Gare has no 5: its street, never Mont-Bonvillers's 5.
    expect(await locate(q('5 rue de la Gare', '&citycode=54099'))).toMatchObject({ precision: 'street', address: { locality: 'Briey' } });
    const none = await get(q('1 rue de la Gare', '&citycode=75056'));
    expect(none.statusCode).toBe(404);
    expect(ErrorBody.parse(none.json()).error.code).toBe('address_not_found');
  });
});
