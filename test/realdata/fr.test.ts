import { existsSync, readFileSync } from 'node:fs';
import { booleanPointInPolygon, centroid } from '@turf/turf';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBanFile } from '../../ingest/fr/ban.ts';
import { ingestGenericZones } from '../../ingest/generic/zones.ts';
import { LocationResponse } from '../../api/location/domains/location/routes.ts';
import { silentContext } from '../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

// Real extracts of producers' files (../shared/realdata, not in the repository): they run when present.
const REAL = join(import.meta.dirname, '../../../shared/realdata/fr');
const present = existsSync(REAL);

describe.skipIf(!present)('real French extracts', () => {
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'lds-real-')), 'data');
    const ctx = silentContext(dataDir);
    // The City of Paris's own arrondissement file, through the generic zones job.
    await ingestGenericZones(ctx, {
      country: 'fr', level: 'sublocality_level1', input: join(REAL, 'boundaries/paris_arrondissements_opendataparis.geojson'),
      codeProperty: 'c_arinsee', nameProperty: 'l_aroff',
    });
    await ingestGenericZones(ctx, {
      country: 'fr', level: 'locality', input: join(REAL, 'boundaries/communes-92-hauts-de-seine_france-geojson.geojson'),
      codeProperty: 'code', nameProperty: 'nom',
    });
    t = await buildTestApp(dataDir);
  });
  afterAll(async () => { await t?.close(); });

  it('ingests the real BAN extracts of Paris 13e and of the Faubourg Saint-Antoine', async () => {
    const ctx = silentContext(dataDir);
    const [cailles] = await ingestBanFile(ctx, { path: join(REAL, 'ban/adresses-75_extract_butte_aux_cailles.csv') });
    expect(cailles).toMatchObject({ rows: 55, rejects: 0 });
    const [antoine] = await ingestBanFile(ctx, { path: join(REAL, 'ban/adresses-75_extract_fbg_saint_antoine_MODIFIED.csv') });
    // Both extracts are of department 75, of different arrondissements: the partition keeps the first's 55.
    expect(antoine).toMatchObject({ partition: 'adresses-75', rows: 5340 + 55, rejects: 0 });
    await t.warehouse.refresh();
  });

  it('answers a real address at the number, in the arrondissement of the real outline', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/location?address=${encodeURIComponent('32 rue Gérard 75013 Paris')}`, headers: { authorization: `Bearer ${t.key}` } });
    const loc = LocationResponse.parse(res.json()).data.location;
    expect(loc.precision).toBe('address');
    expect(loc.latitude).toBeCloseTo(48.829819, 6);
    expect(loc.longitude).toBeCloseTo(2.352659, 6);
    expect(loc.zones.sublocality_level1).toEqual({ level: 'sublocality_level1', code: '75113', name: 'Gobelins' });
  });

  it('places every real BAN point of the Faubourg Saint-Antoine extract in its own arrondissement', async () => {
    const rows = await t.warehouse.query<{ locality_code: string; latitude: number; longitude: number }>(
      `SELECT locality_code, latitude, longitude FROM fr_addresses WHERE source = 'fr.ban' USING SAMPLE 150 ROWS`,
    );
    let agree = 0;
    for (const r of rows) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/location?lat=${r.latitude}&lng=${r.longitude}`, headers: { authorization: `Bearer ${t.key}` } });
      if (LocationResponse.parse(res.json()).data.location.zones.sublocality_level1?.code === r.locality_code) agree++;
    }
    // BAN and the City's outlines are independent sources; a point on a border street may differ.
    expect(agree / rows.length).toBeGreaterThan(0.97);
  });

  it('places the centre of each Hauts-de-Seine commune in that commune, as an exact test on the real (simplified) outlines does', async () => {
    const fc = JSON.parse(readFileSync(join(REAL, 'boundaries/communes-92-hauts-de-seine_france-geojson.geojson'), 'utf8'));
    expect(fc.features).toHaveLength(36);
    let checked = 0;
    for (const f of fc.features) {
      const [lng, lat] = centroid(f).geometry.coordinates;
      // The exact answer, by brute force over every polygon of the file.
      const exact = fc.features.filter((g: typeof f) => booleanPointInPolygon([lng, lat], g)).map((g: typeof f) => g.properties.code);
      if (exact.length !== 1) continue;
      checked++;
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/location?lat=${lat}&lng=${lng}`, headers: { authorization: `Bearer ${t.key}` } });
      expect(LocationResponse.parse(res.json()).data.location.zones.locality?.code, f.properties.nom).toBe(exact[0]);
    }
    expect(checked).toBeGreaterThan(30);
  });
});
