import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobById } from '../../../../ingest/jobs.ts';
import { LocationResponse } from '../../../../api/location/domains/location/routes.ts';
import { ErrorBody } from '../../../../schemas/error.ts';
import { parseAddressQuery } from '../../../../api/location/address/index.ts';
import { streetKey } from '../../../../schemas/tables/address-key.ts';
import { silentContext } from '../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../helpers/app.ts';

// Quebec's ordinal and numbered streets in several municipalities (CITQ's layout: "number, street" in one column).
const ROWS = [
  ['1', "909, 3e Avenue", "Val-d'Or", 'J9P1T2', '48.103605', '-77.789211'],
  ['2', "915, 3e Avenue", "Val-d'Or", 'J9P1T2', '48.103900', '-77.789500'],
  ['3', "10, 1re Avenue", "Val-d'Or", 'J9P1S1', '48.099000', '-77.785000'],
  ['4', "100, 3e Avenue", 'Roxton Pond', 'J0E1Z0', '45.478000', '-72.660000'],
  ['5', "102, 3e Avenue", 'Roxton Pond', 'J0E1Z0', '45.478200', '-72.660200'],
  ['6', "12, rue des Érables", 'Roxton Pond', 'J0E1Z0', '45.479000', '-72.661000'],
  ['7', "45, rue 132", 'Sainte-Flavie', 'G0J2L0', '48.610000', '-68.220000'],
];

let t: TestApp;
const get = (address: string) => t.app.inject({ method: 'GET', url: `/api/v1/ca/location?address=${encodeURIComponent(address)}`, headers: { authorization: `Bearer ${t.key}` } });
const locate = async (address: string) => {
  const res = await get(address);
  expect(res.statusCode, res.body).toBe(200);
  return LocationResponse.parse(res.json()).data.location;
};

beforeAll(async () => {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-localities-')), 'data');
  const input = join(dataDir, '..', 'citq.csv');
  await writeFile(input, ['id;civique;municipalite;cp;lat;lng', ...ROWS.map((r) => r.join(';'))].join('\n') + '\n');
  await jobById('addresses')!.run(silentContext(dataDir), ['--country', 'ca', '--input', input, '--separator', ';', '--id-column', 'id', '--address-column', 'civique',
    '--locality-column', 'municipalite', '--postcode-column', 'cp', '--lat-column', 'lat', '--lng-column', 'lng']);
  t = await buildTestApp(dataDir);
});
afterAll(async () => { await t?.close(); });

describe('ordinal and numbered street names', () => {
  it('reads "909 3e Avenue" as 909 on 3e Avenue, never as a range 909-3', () => {
    expect(parseAddressQuery("909 3e Avenue Val-d'Or", { country: 'ca' })).toMatchObject({ number: 909, rep: null, street: '3e avenue val d or' });
    expect(parseAddressQuery('12-14 rue de la Paix', { country: 'fr' })).toMatchObject({ number: 12, street: 'rue de la paix' });
    expect(parseAddressQuery('12 14e Rue', { country: 'ca' })).toMatchObject({ number: 12, street: '14e rue' });
  });

  it('gives every spelling of an ordinal one key', () => {
    for (const s of ['1re Avenue', '1ère Avenue', '1ere avenue', '1er Avenue', '1st Avenue', '1e Avenue']) expect(streetKey(s), s).toBe('1e avenue');
    expect(streetKey('Rue 132')).toBe('rue 132');
    expect(streetKey('2de Straat')).toBe(streetKey('2e Straat'));
  });

  it('finds 909 3e Avenue in Val-d\'Or at the number, not a 3e Avenue of another municipality', async () => {
    const loc = await locate("909 3e Avenue Val-d'Or");
    expect(loc.precision).toBe('address');
    expect(loc.address).toMatchObject({ street_number: '909', street_name: '3e Avenue', locality: "Val-d'Or" });
    expect(loc.latitude).toBeCloseTo(48.103605, 6);
  });

  it('finds an ordinal in another spelling, and a numbered street', async () => {
    expect((await locate("10 1ère Avenue Val-d'Or")).address).toMatchObject({ street_number: '10', locality: "Val-d'Or" });
    const route = await locate('45 rue 132 Sainte-Flavie');
    expect(route.precision).toBe('address');
    expect(route.address).toMatchObject({ street_number: '45', street_name: 'rue 132' });
  });
});

describe('a locality named in the query', () => {
  it('keeps the answer in that locality, at the precision that matched', async () => {
    // Roxton Pond has a 3e Avenue but no 909: its street, said to be the street.
    const rox = await locate('909 3e Avenue Roxton Pond');
    expect(rox.precision).toBe('street');
    expect(rox.address?.locality).toBe('Roxton Pond');
    // Val-d'Or has no 500: its own 3e Avenue, never Roxton Pond's.
    const vdo = await locate("500 3e Avenue Val-d'Or");
    expect(vdo.precision).toBe('street');
    expect(vdo.address?.locality).toBe("Val-d'Or");
    expect(vdo.latitude).toBeGreaterThan(48);
  });

  it('answers "not found" rather than a street of another locality', async () => {
    const res = await get("12 rue des Érables Val-d'Or");
    expect(res.statusCode, res.body).toBe(404);
    expect(ErrorBody.parse(res.json()).error.code).toBe('address_not_found');
    // Without the locality, Roxton Pond's street is the answer.
    expect((await locate('12 rue des Érables')).address?.locality).toBe('Roxton Pond');
  });
});
