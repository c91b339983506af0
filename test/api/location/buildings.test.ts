import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { ingestBuildings } from '../../../ingest/fr/buildings.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import type { Geocoder } from '../../../api/location/geocoder/index.ts';
import { buildTestApp, getOk, type TestApp } from '../../helpers/app.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

// Three addresses of the BAN sample, boulevard Beaumarchais (Paris 3e): their ids and points.
const N41 = { id: '75103_0783_00041', lng: 2.368148, lat: 48.856269 };
const N51 = { id: '75103_0783_00051', lng: 2.368015, lat: 48.856845 };
const N61 = { id: '75103_0783_00061' };
const square = (lng: number, lat: number, h = 0.0001) =>
  `POLYGON ((${lng - h} ${lat - h}, ${lng + h} ${lat - h}, ${lng + h} ${lat + h}, ${lng - h} ${lat + h}, ${lng - h} ${lat - h}))`;
const rnbLine = (id: string, lng: number, lat: number, addresses: string[]) =>
  `${id};POINT (${lng} ${lat});${square(lng, lat)};constructed;"[]";"[${addresses.map((a) => `{""id"":""${a}"",""source"":""ban""}`).join(',')}]"`;

let t: TestApp;
let idOf: (rnb: string) => string;

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'lds-building-of-address-'));
  const dataDir = join(root, 'data');
  await ingestBanFile(silentContext(dataDir), { path: join(REPO_ROOT, 'datasets/fr/ban/adresses-75.csv') });
  const rnb = join(root, 'RNB_75.csv');
  await writeFile(rnb, ['rnb_id;point;shape;status;ext_ids;addresses',
    // A's footprint holds the point of no 41, but the RNB links no 41 to B, 50 m east.
    rnbLine('AAAAAAAAAAA1', N41.lng, N41.lat, [N61.id]),
    rnbLine('BBBBBBBBBBB2', N41.lng + 0.0007, N41.lat, [N41.id]),
    // No 51 linked to two buildings (C holds its point): the link names neither.
    rnbLine('CCCCCCCCCCC3', N51.lng, N51.lat, [N51.id]),
    rnbLine('DDDDDDDDDDD4', N51.lng + 0.002, N51.lat, [N51.id]),
  ].join('\n') + '\n');
  await ingestBuildings(silentContext(dataDir), { rnb: { path: rnb } });
  const links = await duckRows<{ building_id: string; key: string }>(`SELECT building_id, key FROM read_parquet('${tableGlob(dataDir, 'fr', 'building_links')}') WHERE kind = 'rnb'`);
  idOf = (r) => links.find((l) => l.key === r)!.building_id;
  // A geocoder answering, for a street the BAN sample lacks, an address carrying no 41's BAN id at no 41's point (in A's footprint).
  const geocoder: Geocoder = {
    search: async (q) => (/imaginaire/i.test(q) ? [{
      label: '41 Rue Imaginaire 75003 Paris', score: 0.95, precision: 'address', type: 'housenumber', latitude: N41.lat, longitude: N41.lng, housenumber: '41',
      street: 'Rue Imaginaire', name: '41 Rue Imaginaire', postcode: '75003', city: 'Paris', citycode: '75103', context: null, id: N41.id, x: null, y: null,
    }] : []),
  };
  t = await buildTestApp(dataDir, { geocoder });
}, 120_000);
afterAll(async () => { await t?.close(); });

describe('the building of a place', () => {
  it("is the building the RNB links to an official address found at its number, wherever the address point lies", async () => {
    const body = await getOk(t, `/api/v1/fr/location?address=${encodeURIComponent('41 boulevard Beaumarchais 75003 Paris')}`);
    expect(body.data.location.precision).toBe('address');
    expect(body.data.location.building_id).toBe(idOf('BBBBBBBBBBB2'));
  });

  it("is the building the RNB links to the BAN id the external geocoder gives an address", async () => {
    const body = await getOk(t, `/api/v1/fr/location?address=${encodeURIComponent('41 rue Imaginaire 75003 Paris')}`);
    expect(body.data.location.geocoding.method).toBe('geocoder');
    expect(body.data.location.building_id).toBe(idOf('BBBBBBBBBBB2'));
  });

  it('is the footprint containing the point for a position, even at an address point', async () => {
    const body = await getOk(t, `/api/v1/fr/location?lat=${N41.lat}&lng=${N41.lng}`);
    expect(body.data.location.building_id).toBe(idOf('AAAAAAAAAAA1'));
  });

  it('is the footprint containing the point when the RNB links the address to several buildings', async () => {
    const body = await getOk(t, `/api/v1/fr/location?address=${encodeURIComponent('51 boulevard Beaumarchais 75003 Paris')}`);
    expect(body.data.location.precision).toBe('address');
    expect(body.data.location.building_id).toBe(idOf('CCCCCCCCCCC3'));
  });
});
