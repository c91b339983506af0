import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { fileStatus, siteStatus } from '../../../../../ingest/ca/contaminated-land.ts';
import { JOBS, REPO_ROOT, runSamples } from '../../../../../ingest/jobs.ts';
import { CaRisks } from '../../../../../schemas/risks.ts';
import { buildTestApp, getOk, type TestApp } from '../../../../helpers/app.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { tableGlob } from '../../../../../schemas/tables/layout.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// Quebec's risks on the committed samples: hazards checked against a brute-force point-in-polygon
// test on every stored sector, sites against the GeoPackage read by SQLite.
let t: TestApp;
let dataDir: string;
const RANK = ['very_low', 'low', 'moderate', 'present', 'high', 'very_high'];
const TYPE_OF: Record<string, string> = { flood: 'flood', landslide: 'landslide', coastal_erosion: 'coastal_erosion' };

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-ca-risks-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = getOk;
const risksAt = async (app: TestApp, lat: number, lng: number, extra = '') => CaRisks.parse((await get(app, `/api/v1/ca/risks?lat=${lat}&lng=${lng}&locale=en${extra}`)).data.risks);

describe('risks in Quebec on the samples', () => {
  it('serves, on both sides of every edge of every mapped sector, the highest level of the sectors containing the point, and not_assessed outside', async () => {
    const areas = (await duckRows<{ layer: string; attributes: string; geometry: string }>(`SELECT layer, attributes, geometry FROM '${tableGlob(dataDir, 'ca', 'hazard_areas')}'`))
      .map((a) => ({ layer: a.layer, level: JSON.parse(a.attributes).level as string, geometry: JSON.parse(a.geometry) as Polygon | MultiPolygon }));
    expect(new Set(areas.map((a) => a.layer))).toEqual(new Set(['flood', 'landslide', 'coastal_erosion']));
    const expectedAt = (lng: number, lat: number) => Object.fromEntries(Object.keys(TYPE_OF).map((layer) => {
      const levels = areas.filter((a) => a.layer === layer && booleanPointInPolygon([lng, lat], a.geometry)).map((a) => a.level);
      return [layer, levels.length === 0 ? null : levels.sort((x, y) => RANK.indexOf(y) - RANK.indexOf(x))[0]];
    }));
    let inside = 0, outside = 0;
    for (const a of areas) {
      const ring = (a.geometry.type === 'Polygon' ? a.geometry.coordinates[0] : a.geometry.coordinates[0]![0])!;
      for (let i = 0; i + 1 < ring.length; i++) {
        const [[x1, y1], [x2, y2]] = [ring[i]!, ring[i + 1]!] as [number, number][];
        const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
        const len = Math.hypot(x2 - x1, y2 - y1);
        const [nx, ny] = [-(y2 - y1) / len * 0.00003, (x2 - x1) / len * 0.00003];
        for (const [lng, lat] of [[mx + nx, my + ny], [mx - nx, my - ny]] as [number, number][]) {
          const expected = expectedAt(lng, lat);
          const risks = await risksAt(t, lat, lng);
          const served = Object.fromEntries(risks.hazards.map((h) => [h.type, h]));
          for (const [layer, level] of Object.entries(expected)) {
            if (level) {
              inside++;
              expect(served[layer], `${layer} at ${lat},${lng}`).toMatchObject({ level, scope: 'point' });
              expect(risks.summary.assessed).toContain(layer);
            } else {
              outside++;
              expect(served[layer], `${layer} at ${lat},${lng}`).toBeUndefined();
              expect(risks.not_assessed).toContain(layer);
              expect(risks.missing[`hazards.${layer}`]).toBe('not_assessed');
            }
          }
          expect(risks.hazards.map((h) => RANK.indexOf(h.level))).toEqual(risks.hazards.map((h) => RANK.indexOf(h.level)).sort((x, y) => y - x));
        }
      }
    }
    expect(inside).toBeGreaterThan(20);
    expect(outside).toBeGreaterThan(20);
  });

  it('summarises: a 0-20 years flood zone is high and notable, the point outside landslide and coastal sectors', async () => {
    const risks = await risksAt(t, 45.555, -73.661);
    expect(risks.hazards).toEqual([{ type: 'flood', level: 'high', scope: 'point', label: 'Flood: high' }]);
    expect(risks.summary).toEqual({ highest_level: 'high', notable: ['flood'], assessed: ['flood'], not_assessed: ['landslide', 'coastal_erosion'] });
    expect(risks.status).toBe('ok');
  });

  it('counts the contaminated sites within the radius and lists the nearest with status, address and date, as SQLite reads the GeoPackage', async () => {
    const SQL = await initSqlJs({ locateFile: (f: string) => createRequire(import.meta.url).resolve(`sql.js/dist/${f}`) });
    const db = new SQL.Database(await readFile(join(REPO_ROOT, 'datasets/ca/contaminated-land/RepertoireTerrainsContamines.gpkg')));
    const [res] = db.exec(`SELECT p.NO_MEF_LIEU, p.LATITUDE, p.LONGITUDE, p.ADR_CIV_LIEU, max(f.DATE_CRE_MAJ), group_concat(f.ETAT_REHAB, '|')
      FROM point p LEFT JOIN detailsFiches f USING (NO_MEF_LIEU) GROUP BY p.NO_MEF_LIEU`);
    db.close();
    const haversine = (lat1: number, lng1: number, lat2: number, lng2: number) => {
      const r = (d: number) => d * Math.PI / 180;
      return 2 * 6371008.8 * Math.asin(Math.sqrt(Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2));
    };
    for (const [lat, lng, radius] of [[45.52, -73.58, 500], [45.52, -73.58, 100], [45.52, -73.58, 2000], [45.555, -73.661, 500]] as const) {
      const expected = res!.values.map(([, plat, plng, adr, date, etats]) => ({
        address: adr as string, updated_on: date as string | null, d: haversine(lat, lng, plat as number, plng as number),
        status: siteStatus(etats === null ? [] : String(etats).split('|').map(fileStatus)),
      })).filter((e) => e.d <= radius).sort((a, b) => a.d - b.d);
      const sites = (await risksAt(t, lat, lng, `&radius=${radius}`)).polluted_sites!;
      expect(sites.counts, `${lat},${lng} r=${radius}`).toEqual({ contaminated_land: expected.length });
      expect(sites.items).toEqual(expected.slice(0, 10).map((e) => ({ type: 'contaminated_land', status: e.status, name: null, address: e.address, distance_m: Math.round(e.d), updated_on: e.updated_on })));
      expect(sites.inside).toBeNull();
    }
  });

  it('serves the same risks in the report (default radius 500) as on /risks', async () => {
    const body = ReportResponse.parse(await get(t, '/api/v1/ca/report?lat=45.52&lng=-73.58&include=risks&locale=en'));
    expect(CaRisks.parse(body.data.risks)).toEqual(await risksAt(t, 45.52, -73.58));
    expect((await risksAt(t, 45.52, -73.58)).polluted_sites!.counts.contaminated_land).toBe((await risksAt(t, 45.52, -73.58, '&radius=500')).polluted_sites!.counts.contaminated_land);
  });

  it('does not serve mapped sectors for a position known only to the street', async () => {
    const body = ReportResponse.parse(await get(t, `/api/v1/ca/report?address=${encodeURIComponent('rue Saint-Denis, Montréal')}&include=risks&locale=en`));
    expect(body.data.location.precision).toBe('street');
    const risks = CaRisks.parse(body.data.risks);
    expect(risks.hazards).toEqual([]);
    expect(risks.missing).toMatchObject({ 'hazards.flood': 'insufficient_precision', 'hazards.landslide': 'insufficient_precision', 'hazards.coastal_erosion': 'insufficient_precision' });
    expect(risks.not_assessed).toEqual([]);
  });

  it('answers unavailable, naming the sources, where nothing of the risks is ingested, and partial where a part is missing', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lds-ca-risks-none-')), 'data');
    await runSamples(silentContext(dir), JOBS.filter((j) => j.id === 'ca.zones' || j.id === 'ca.flood-zones'));
    const bare = await buildTestApp(dir, { sql: t.sql });
    try {
      const risks = await risksAt(bare, 45.555, -73.661);
      expect(risks.status).toBe('partial');
      expect(risks.hazards.map((h) => h.type)).toEqual(['flood']);
      expect(risks.missing).toMatchObject({ 'hazards.landslide': 'unavailable', 'hazards.coastal_erosion': 'unavailable', polluted_sites: 'unavailable' });
      expect(risks.polluted_sites).toBeNull();
      const body = await get(bare, '/api/v1/ca/risks?lat=45.555&lng=-73.661');
      expect(body.meta.warnings.filter((w: { domain: string }) => w.domain === 'risks').map((w: { message: string }) => w.message.split(':')[0])).toEqual(['hazards.landslide', 'hazards.coastal_erosion', 'polluted_sites']);
    } finally { await bare.close(); }
    const none = join(await mkdtemp(join(tmpdir(), 'lds-ca-risks-zero-')), 'data');
    await runSamples(silentContext(none), JOBS.filter((j) => j.id === 'ca.zones'));
    const empty = await buildTestApp(none, { sql: t.sql });
    try {
      expect((await risksAt(empty, 45.52, -73.58)).status).toBe('unavailable');
    } finally { await empty.close(); }
  });
});
