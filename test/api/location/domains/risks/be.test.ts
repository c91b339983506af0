import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { JOBS, runSamples } from '../../../../../ingest/jobs.ts';
import { BeRisks } from '../../../../../schemas/risks.ts';
import { buildTestApp, getOk, type TestApp } from '../../../../helpers/app.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { tableGlob } from '../../../../../schemas/tables/layout.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// Belgium's risks on the committed samples (Brussels-Capital Region), checked against brute force
// on the stored zones, parcels and parcel centres.
let t: TestApp;
let dataDir: string;
const RANK = ['very_low', 'low', 'moderate', 'present', 'high', 'very_high'];
type Area = { layer: string; attributes: Record<string, string>; geometry: Polygon | MultiPolygon };
let areas: Area[];

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-be-risks-'));
  t = await buildTestApp(dataDir);
  areas = (await duckRows<{ layer: string; attributes: string; geometry: string }>(`SELECT layer, attributes, geometry FROM '${tableGlob(dataDir, 'be', 'hazard_areas')}'`))
    .map((a) => ({ layer: a.layer, attributes: JSON.parse(a.attributes), geometry: JSON.parse(a.geometry) }));
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = getOk;
const risksAt = async (lat: number, lng: number, extra = '') => BeRisks.parse((await get(t, `/api/v1/be/risks?lat=${lat}&lng=${lng}&locale=en${extra}`)).data.risks);

describe('risks in Brussels on the samples', () => {
  it('serves on both sides of every edge of every flood zone and parcel: the flood level of the zone containing the point, the parcels containing it', async () => {
    let floodIn = 0, parcelIn = 0, out = 0;
    for (const a of areas) {
      const ring = (a.geometry.type === 'Polygon' ? a.geometry.coordinates[0] : a.geometry.coordinates[0]![0])!;
      for (let i = 0; i + 1 < ring.length; i++) {
        const [[x1, y1], [x2, y2]] = [ring[i]!, ring[i + 1]!] as [number, number][];
        const len = Math.hypot(x2 - x1, y2 - y1);
        const [nx, ny] = [-(y2 - y1) / len * 0.000015, (x2 - x1) / len * 0.000015];
        for (const [lng, lat] of [[(x1 + x2) / 2 + nx, (y1 + y2) / 2 + ny], [(x1 + x2) / 2 - nx, (y1 + y2) / 2 - ny]] as [number, number][]) {
          const containing = areas.filter((z) => booleanPointInPolygon([lng, lat], z.geometry));
          const floods = containing.filter((z) => z.layer === 'flood').map((z) => z.attributes.level!).sort((p, q) => RANK.indexOf(q) - RANK.indexOf(p));
          const parcels = containing.filter((z) => z.layer === 'soil_status').map((z) => ({ type: z.attributes.type, status: z.attributes.status }));
          const risks = await risksAt(lat, lng);
          if (floods.length > 0) {
            floodIn++;
            expect(risks.hazards, `${lat},${lng}`).toEqual([expect.objectContaining({ type: 'flood', level: floods[0], scope: 'point' })]);
          } else {
            out++;
            expect(risks.hazards, `${lat},${lng}`).toEqual([]);
            expect(risks.not_assessed).toEqual(['flood']);
            expect(risks.missing['hazards.flood']).toBe('not_assessed');
          }
          if (parcels.length > 0) parcelIn++;
          expect(risks.polluted_sites!.inside, `${lat},${lng}`).toEqual(parcels);
        }
      }
    }
    expect(floodIn).toBeGreaterThan(8);
    expect(parcelIn).toBeGreaterThan(8);
    expect(out).toBeGreaterThan(8);
  });

  it('never serves a parcel recognised as unpolluted, inside or around', async () => {
    // 21004A0124/00C000 (category 1) shares its west edge with 21004A0123/00B000 (category 4).
    expect((await risksAt(50.8463, 4.3555)).polluted_sites!.inside).toEqual([]);
    expect((await risksAt(50.8463, 4.3545)).polluted_sites!.inside).toEqual([{ type: 'contaminated_land', status: 'under_treatment' }]);
    const [n] = await duckRows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM '${tableGlob(dataDir, 'be', 'polluted_sites')}' WHERE id LIKE '%0124/00C000'`);
    expect(n!.n).toBe(0);
  });

  it('counts the parcels per type within the radius and lists the nearest, as brute force on the parcel centres', async () => {
    const centres = await duckRows<{ lat: number; lng: number; attributes: string }>(`SELECT latitude AS lat, longitude AS lng, attributes FROM '${tableGlob(dataDir, 'be', 'polluted_sites')}'`);
    const r = (d: number) => d * Math.PI / 180;
    const haversine = (a: number, b: number, c: number, d: number) => 2 * 6371008.8 * Math.asin(Math.sqrt(Math.sin(r(c - a) / 2) ** 2 + Math.cos(r(a)) * Math.cos(r(c)) * Math.sin(r(d - b) / 2) ** 2));
    for (const [lat, lng, radius] of [[50.8466, 4.3524, 500], [50.8466, 4.3524, 100], [50.8466, 4.3524, 2000], [50.8465, 4.346, 500]] as const) {
      const near = centres.map((c) => ({ ...JSON.parse(c.attributes), d: haversine(lat, lng, c.lat, c.lng) })).filter((c) => c.d <= radius).sort((a, b) => a.d - b.d);
      const sites = (await risksAt(lat, lng, `&radius=${radius}`)).polluted_sites!;
      expect(sites.counts, `${lat},${lng} r=${radius}`).toEqual({ contaminated_land: near.filter((c) => c.type === 'contaminated_land').length, suspected_land: near.filter((c) => c.type === 'suspected_land').length });
      expect(sites.items).toEqual(near.slice(0, 10).map((c) => ({ type: c.type, status: c.status, distance_m: Math.round(c.d) })));
    }
  });

  it('answers not_covered outside the Brussels-Capital Region, in the report and on /risks', async () => {
    for (const [lat, lng] of [[50.7015, 4.23], [50.6985, 4.23]]) {
      const body = await get(t, `/api/v1/be/risks?lat=${lat}&lng=${lng}`);
      expect(body.data.risks).toEqual({ status: 'not_covered', missing: {} });
      expect(body.meta.warnings.some((w: { domain: string; code: string }) => w.domain === 'risks' && w.code === 'not_covered')).toBe(true);
      const report = ReportResponse.parse(await get(t, `/api/v1/be/report?lat=${lat}&lng=${lng}&include=risks`));
      expect(report.data.risks).toEqual({ status: 'not_covered', missing: {} });
    }
  });

  it('serves the same risks in the report as on /risks', async () => {
    const body = ReportResponse.parse(await get(t, '/api/v1/be/report?lat=50.8465&lng=4.346&include=risks&locale=en'));
    expect(BeRisks.parse(body.data.risks)).toEqual(await risksAt(50.8465, 4.346));
    expect(BeRisks.parse(body.data.risks).summary).toEqual({ highest_level: 'high', notable: ['flood'], assessed: ['flood'], not_assessed: [] });
  });

  it('answers unavailable in Brussels where neither source is ingested, naming them', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lds-be-risks-none-')), 'data');
    await runSamples(silentContext(dir), JOBS.filter((j) => j.id === 'be.zones'));
    const bare = await buildTestApp(dir, { sql: t.sql });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/api/v1/be/risks?lat=50.8466&lng=4.3524', headers: { authorization: `Bearer ${bare.key}` } });
      const body = res.json();
      const risks = BeRisks.parse(body.data.risks);
      expect(risks.status).toBe('unavailable');
      expect(risks.polluted_sites).toBeNull();
      expect(risks.missing).toEqual({ 'hazards.flood': 'unavailable', polluted_sites: 'unavailable' });
      expect(body.meta.warnings.filter((w: { domain: string }) => w.domain === 'risks').map((w: { message: string }) => w.message)).toEqual([
        'hazards.flood: its source (be.brussels-flood) is not ingested on this service', 'polluted_sites: its source (be.brussels-soil) is not ingested on this service',
      ]);
    } finally { await bare.close(); }
  });
});
