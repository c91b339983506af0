import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon, pointOnFeature } from '@turf/turf';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogHazardsResponse } from '../../../../../api/location/catalog.ts';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { JOBS, REPO_ROOT, runSamples } from '../../../../../ingest/jobs.ts';
import { ingestClay } from '../../../../../ingest/fr/clay.ts';
import { FrRisks } from '../../../../../schemas/risks.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { buildTestApp, getOk, type TestApp } from '../../../../helpers/app.ts';
import { tableGlob } from '../../../../../schemas/tables/layout.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// France's risks on the committed samples, each hazard checked against DuckDB reading the producers' files directly.
const RADON = join(REPO_ROOT, 'datasets/fr/radon/radon.csv');
const SEISMIC = join(REPO_ROOT, 'datasets/fr/seismic/zonage_sismique_communes.csv');
const RADON_LEVELS: Record<string, string> = { 1: 'very_low', 2: 'low', 3: 'moderate' };
const SEISMIC_LEVELS: Record<string, string> = { 1: 'very_low', 2: 'low', 3: 'moderate', 4: 'high', 5: 'very_high' };

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-risks-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = getOk;

async function risksAt(app: TestApp, lat: number, lng: number, locale = 'en') {
  const body = ReportResponse.parse(await get(app, `/api/v1/fr/report?lat=${lat}&lng=${lng}&include=risks&locale=${locale}`));
  return { risks: FrRisks.parse(body.data.risks), location: body.data.location, warnings: body.meta.warnings };
}

describe('risks in France on the samples', () => {
  it('serves at every address of the samples the radon category of its arrondissement or commune and the seismic zone of its commune, as in the files', async () => {
    const addresses = await duckRows<{ code: string; lat: number; lng: number }>(
      `SELECT locality_code AS code, any_value(latitude ORDER BY id) AS lat, any_value(longitude ORDER BY id) AS lng FROM '${dataDir}/tables/addresses/country=fr/*.parquet' GROUP BY ALL ORDER BY code`);
    // The producers' files as published: the radon file drops the leading zero of departments 01-09.
    const radon = await duckRows<{ code: string; cls: string }>(`SELECT lpad(insee_com, 5, '0') AS code, classe_potentiel AS cls FROM read_csv('${RADON}', delim = ';', header = true, all_varchar = true, quote = '')`);
    const seismic = await duckRows<{ code: string; zone: string }>(`SELECT code_insee AS code, zone_sismicite AS zone FROM read_csv('${SEISMIC}', delim = ';', header = true, all_varchar = true)`);
    expect(addresses.length).toBeGreaterThan(5);
    let withRadon = 0;
    for (const a of addresses) {
      const { risks, location } = await risksAt(t, a.lat, a.lng);
      // The BAL sample's fictional commune (54999) has no boundary in the zone samples.
      if (!location.zones.locality) continue;
      const commune = location.zones.locality.code;
      const radonCode = location.zones.sublocality_level1?.code ?? commune;
      const r = radon.find((x) => x.code === radonCode);
      const s = seismic.find((x) => x.code === commune);
      const served = Object.fromEntries(risks.hazards.map((h) => [h.type, h]));
      if (r) { withRadon++; expect(served.radon, a.code).toMatchObject({ level: RADON_LEVELS[r.cls], scope: 'locality' }); } else {
        expect(served.radon).toBeUndefined();
        expect(risks.not_assessed).toContain('radon');
        expect(risks.missing['hazards.radon']).toBe('not_found');
      }
      if (s) expect(served.seismic, a.code).toMatchObject({ level: SEISMIC_LEVELS[s.zone], scope: 'locality' }); else expect(risks.not_assessed).toContain('seismic');
      expect(risks.not_assessed).toEqual(expect.arrayContaining(['flood', 'landslide', 'coastal_erosion', 'wildfire']));
    }
    expect(withRadon).toBeGreaterThan(3);
  });

  it('orders hazards highest first and summarises them: Saint-Médard-de-Guizières has radon category 3 and seismic zone 2', async () => {
    // No address of the samples there: a point inside the commune's polygon of the zone samples.
    const [z] = await duckRows<{ geometry: string }>(`SELECT geometry FROM '${dataDir}/tables/zones/country=fr/*.parquet' WHERE level = 'locality' AND code = '33447'`);
    const [lng, lat] = pointOnFeature(JSON.parse(z!.geometry)).geometry.coordinates as [number, number];
    const { risks, warnings, location } = await risksAt(t, lat, lng, 'fr');
    expect(location.zones.locality?.code).toBe('33447');
    // Every source of France's risks is ingested on the samples: nothing is momentarily missing.
    expect(risks.status).toBe('ok');
    expect(risks.hazards).toEqual([
      { type: 'radon', level: 'moderate', scope: 'locality', label: 'Radon : modéré' },
      { type: 'seismic', level: 'low', scope: 'locality', label: 'Séisme : faible' },
    ]);
    // Outside every clay polygon of the sample: not assessed (absence of zone is not absence of risk).
    expect(risks.summary).toEqual({ highest_level: 'moderate', notable: ['radon'], assessed: ['radon', 'seismic'], not_assessed: ['clay_shrink_swell', 'flood', 'landslide', 'coastal_erosion', 'wildfire'] });
    expect(risks.missing['hazards.clay_shrink_swell']).toBe('not_assessed');
    expect(risks.obligations).toEqual({ brush_clearing: false });
    expect(risks.polluted_sites?.inside).toEqual([]);
    // BASOL is served (contaminated_land counted); France publishes no register of suspected land:
    // not_covered (not published on this territory), not a momentary outage, and no warning.
    expect(risks.polluted_sites?.counts.suspected_land).toBeNull();
    expect(risks.missing).toMatchObject({ 'polluted_sites.counts.suspected_land': 'not_covered' });
    expect(risks.missing['polluted_sites.counts.contaminated_land']).toBeUndefined();
    expect(risks.polluted_sites?.counts.contaminated_land).toBe(0);
    expect(risks.missing['polluted_sites.inside']).toBeUndefined();
    expect(warnings.filter((w) => w.domain === 'risks')).toEqual([]);
  });

  it('serves radon at the arrondissement in Paris (the IRSN file has no 75056) and the seismic zone at the commune', async () => {
    const [a] = await duckRows<{ lat: number; lng: number }>(`SELECT latitude AS lat, longitude AS lng FROM '${dataDir}/tables/addresses/country=fr/*.parquet' WHERE locality_code = '75113' LIMIT 1`);
    const { risks, location } = await risksAt(t, a!.lat, a!.lng);
    expect(location.zones.sublocality_level1?.code).toBe('75113');
    // IRSN category 2: low potential (not notable; only category 3 obliges to inform buyers and tenants).
    expect(risks.hazards.map((h) => [h.type, h.level])).toEqual([['radon', 'low'], ['seismic', 'very_low']]);
    expect(risks.summary.notable).toEqual([]);
  });

  it('answers unavailable, naming the sources, where radon, seismic and clay are not ingested', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lds-risks-none-')), 'data');
    await runSamples(silentContext(dir), JOBS.filter((j) => ['fr.zones', 'fr.ban'].includes(j.id)));
    const bare = await buildTestApp(dir, { sql: t.sql });
    try {
      const { risks, warnings } = await risksAt(bare, 45.0136, -0.1291);
      expect(risks.status).toBe('unavailable');
      expect(risks.hazards).toEqual([]);
      expect(risks.summary.assessed).toEqual([]);
      expect(risks.missing).toMatchObject({ 'hazards.radon': 'unavailable', 'hazards.seismic': 'unavailable', 'hazards.clay_shrink_swell': 'unavailable' });
      expect(warnings.some((w) => w.domain === 'risks' && w.message.startsWith('hazards.radon'))).toBe(true);
    } finally { await bare.close(); }
  }, 300_000); // runs every other sample job first: minutes on a loaded machine
});

describe('clay shrink-swell in France on the samples', () => {
  /** The midpoint of the edge of two clay polygons of the sample, as written (WGS84 [lng, lat]). */
  async function outline(id: string): Promise<[number, number][]> {
    const [a] = await duckRows<{ geometry: string }>(`SELECT geometry FROM '${dataDir}/tables/hazard_areas/country=fr/*.parquet' WHERE id = 'fr.clay:${id}'`);
    return JSON.parse(a!.geometry).coordinates[0];
  }

  it('serves the exposure of the polygon containing the point, on both sides of an edge, and not assessed outside', async () => {
    // 33-0001 (NIVEAU 3) lies south of 33-0002 (NIVEAU 2): their shared edge is the north edge of the first.
    const ring = await outline('33-0001');
    const [[x1, y1], [x2, y2]] = [ring[2]!, ring[3]!];
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
    const south = await risksAt(t, my - 0.00002, mx);
    const north = await risksAt(t, my + 0.00002, mx);
    expect(south.risks.hazards.find((h) => h.type === 'clay_shrink_swell')).toEqual({ type: 'clay_shrink_swell', level: 'high', scope: 'point', label: 'Clay shrink-swell: high' });
    expect(north.risks.hazards.find((h) => h.type === 'clay_shrink_swell')).toMatchObject({ level: 'moderate', scope: 'point' });
    // West of the west edge of both: no polygon, so the type is not assessed there.
    const [wx, wy] = ring[0]!;
    const west = await risksAt(t, wy + 0.001, wx - 0.00003);
    expect(west.risks.hazards.some((h) => h.type === 'clay_shrink_swell')).toBe(false);
    expect(west.risks.not_assessed).toContain('clay_shrink_swell');
    expect(west.risks.missing['hazards.clay_shrink_swell']).toBe('not_assessed');
  });

  it('serves clay with scope building at an address whose building is known (fr.buildings), point where the position has no building', async () => {
    const clay = (await duckRows<{ geometry: string; level: string }>(`SELECT geometry, json_extract_string(attributes, '$.level') AS level FROM '${dataDir}/tables/hazard_areas/country=fr/*.parquet' WHERE layer = 'clay_shrink_swell'`))
      .map((r) => ({ g: JSON.parse(r.geometry), level: r.level }));
    const addresses = await duckRows<{ label: string; lat: number; lng: number }>(`SELECT label, latitude AS lat, longitude AS lng FROM '${dataDir}/tables/addresses/country=fr/*.parquet' ORDER BY id`);
    let building = 0, point = 0;
    for (const a of addresses) {
      const containing = clay.filter((c) => booleanPointInPolygon([a.lng, a.lat], c.g));
      if (containing.length === 0) continue;
      const body = ReportResponse.parse(await get(t, `/api/v1/fr/report?address=${encodeURIComponent(a.label)}&include=risks&locale=en`));
      if (body.data.location.precision !== 'address') continue;
      const served = FrRisks.parse(body.data.risks).hazards.find((h) => h.type === 'clay_shrink_swell');
      const { latitude, longitude } = body.data.location;
      const here = clay.filter((c) => booleanPointInPolygon([longitude, latitude], c.g));
      if (here.length === 0) continue;
      if (body.data.location.building_id) { building++; expect(served, a.label).toMatchObject({ scope: 'building' }); } else { point++; expect(served, a.label).toMatchObject({ scope: 'point' }); }
      expect(['low', 'moderate', 'high']).toContain(served!.level);
    }
    expect(building, 'addresses with a known building inside a clay polygon').toBeGreaterThan(0);
    // The same building's point given as a position (no address, so no building): scope point.
    const { risks } = await risksAt(t, 48.8597, 2.36745);
    expect(risks.hazards.find((h) => h.type === 'clay_shrink_swell')).toMatchObject({ scope: 'point' });
    expect(building + point).toBeGreaterThan(0);
  });

  it('does not serve clay for a position known only to the commune or the street, but keeps the commune hazards', async () => {
    for (const [address, precision] of [['Abzac', 'locality'], ['Route de Coutras 33230 Abzac', 'street']] as const) {
      const body = ReportResponse.parse(await get(t, `/api/v1/fr/report?address=${encodeURIComponent(address)}&include=risks&locale=en`));
      expect(body.data.location.precision).toBe(precision);
      const risks = FrRisks.parse(body.data.risks);
      expect(risks.missing['hazards.clay_shrink_swell']).toBe('insufficient_precision');
      expect(risks.hazards.map((h) => h.type)).toEqual(['radon', 'seismic']);
      expect(risks.summary.assessed).not.toContain('clay_shrink_swell');
    }
  });

  it("serves a department's own BRGM file instead of the national layer there, and the national layer elsewhere", async () => {
    // A departmental file for the Gironde (33) with one polygon: 33-0001's outline at NIVEAU 1.
    const ring = await outline('33-0001');
    const [[x1, y1], [x2, y2]] = [ring[2]!, ring[3]!];
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
    const root = await mkdtemp(join(tmpdir(), 'lds-risks-clay-dep-'));
    const dir = join(root, 'data');
    await cp(dataDir, dir, { recursive: true });
    const toL93 = proj4('EPSG:4326', '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs');
    const file = join(root, 'ExpoArgile_33_L93.geojson');
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
      features: [{ type: 'Feature', properties: { ID: '33-D1', NIVEAU: 1, ALEA: 'Faible' }, geometry: { type: 'Polygon', coordinates: [ring.map((p) => toL93.forward(p))] } }] }));
    await ingestClay(silentContext(dir), { path: file, department: '33' });
    // A Paris point inside a national polygon: its level before and after.
    const paris = (await duckRows<{ geometry: string; level: string }>(`SELECT geometry, json_extract_string(attributes, '$.level') AS level FROM '${dataDir}/tables/hazard_areas/country=fr/*.parquet' WHERE id LIKE 'fr.clay:75%' ORDER BY id LIMIT 1`))[0]!;
    const [plng, plat] = pointOnFeature(JSON.parse(paris.geometry)).geometry.coordinates as [number, number];
    const app = await buildTestApp(dir, { sql: t.sql });
    try {
      const south = await risksAt(app, my - 0.00002, mx);
      expect(south.risks.hazards.find((h) => h.type === 'clay_shrink_swell')).toMatchObject({ level: 'low', scope: 'point' });
      // North of the edge the national layer says moderate, but the department's file has no polygon there.
      const north = await risksAt(app, my + 0.00002, mx);
      expect(north.risks.missing['hazards.clay_shrink_swell']).toBe('not_assessed');
      expect(north.risks.not_assessed).toContain('clay_shrink_swell');
      const before = (await risksAt(t, plat, plng)).risks.hazards.find((h) => h.type === 'clay_shrink_swell');
      expect(before).toMatchObject({ level: paris.level });
      expect((await risksAt(app, plat, plng)).risks.hazards.find((h) => h.type === 'clay_shrink_swell')).toEqual(before);
    } finally { await app.close(); }
  });

  it('serves the highest hazard first: high clay before very low radon', async () => {
    const { risks } = await risksAt(t, 45.0136, -0.1291);
    expect(risks.hazards.map((h) => [h.type, h.level])).toEqual([['clay_shrink_swell', 'high'], ['radon', 'very_low'], ['seismic', 'very_low']]);
    expect(risks.summary).toMatchObject({ highest_level: 'high', notable: ['clay_shrink_swell'] });
  });
});

describe('polluted sites in France on the samples', () => {
  const SITES = join(REPO_ROOT, 'datasets/fr/polluted-sites/basias.geocoded.csv');
  /** The sites of the published file within the radius, by DuckDB on the file itself (haversine, R = 6371008.8 m). */
  const within = (lat: number, lng: number, r: number) => duckRows<{ id: string; address: string; d: number }>(
    `SELECT * FROM (SELECT identifiant AS id, adresse AS address, 2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude::DOUBLE - ${lat}) / 2), 2)
       + cos(radians(${lat})) * cos(radians(latitude::DOUBLE)) * pow(sin(radians(longitude::DOUBLE - ${lng}) / 2), 2))) AS d
     FROM read_csv('${SITES}', delim = ';', header = true, all_varchar = true)
     WHERE result_score::DOUBLE >= 0.5 AND latitude <> '') WHERE d <= ${r} ORDER BY d, id`);

  const L2E = '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +a=6378249.2 +b=6356515 +towgs84=-168,-60,320,0,0,0,0 +pm=paris +units=m +no_defs';
  const basolSites = async () => (await duckRows<{ id: string; etat: string; x: string; y: string }>(
    `SELECT numero_basol AS id, sp2_etat AS etat, sp1_x AS x, sp1_y AS y FROM read_csv('${join(REPO_ROOT, 'datasets/fr/polluted-sites/basol.csv')}', delim = ';', header = true, all_varchar = true)`))
    .map((r) => { const [lng, lat] = proj4(L2E, 'EPSG:4326', [Number(r.x), Number(r.y)]); return { id: r.id, etat: r.etat, lat: lat!, lng: lng! }; });
  const haversine = (la1: number, lo1: number, la2: number, lo2: number) => {
    const r = Math.PI / 180;
    return 2 * 6371008.8 * Math.asin(Math.sqrt(Math.sin(((la2 - la1) * r) / 2) ** 2 + Math.cos(la1 * r) * Math.cos(la2 * r) * Math.sin(((lo2 - lo1) * r) / 2) ** 2));
  };

  it('counts the former industrial sites (geocoded BASIAS) and the contaminated land (BASOL) within the radius and lists the nearest, as read from the files', async () => {
    for (const [lat, lng, radius] of [[48.8597, 2.36745, 500], [48.8597, 2.36745, 2000], [48.8597, 2.36745, 100], [45.0136, -0.1291, 500]] as const) {
      const body = ReportResponse.parse(await get(t, `/api/v1/fr/report?lat=${lat}&lng=${lng}&include=risks&radius=${radius}&locale=en`));
      const sites = FrRisks.parse(body.data.risks).polluted_sites!;
      const expected = await within(lat, lng, radius);
      expect(sites.counts.former_industrial_activity, `${lat},${lng} r=${radius}`).toEqual(expected.length);
      // BASOL's sites: positions from the file's Lambert II étendu pair (an independent reading of the Lambert-93 pair served).
      const basol = (await basolSites()).map((b) => ({ ...b, d: haversine(lat, lng, b.lat, b.lng) })).filter((b) => b.d <= radius).sort((a, b) => a.d - b.d);
      expect(sites.counts.contaminated_land, `${lat},${lng} r=${radius}`).toBe(basol.length);
      for (const b of basol) {
        const item = sites.items.find((i) => i.type === 'contaminated_land' && i.status === b.etat);
        if (item) expect(Math.abs(item.distance_m - b.d), b.id).toBeLessThan(5);
      }
      expect(sites.items.filter((i) => i.type === 'former_industrial_activity').map((i) => [i.type, i.address, i.distance_m]))
        .toEqual(expected.slice(0, 10 - sites.items.filter((i) => i.type !== 'former_industrial_activity').length).map((e) => ['former_industrial_activity', e.address, Math.round(e.d)]));
    }
  });
});

describe('GET /catalog/hazards', () => {
  it('lists every type with its levels and definitions, the countries and sources assessing it, in France and Belgium', async () => {
    for (const country of ['fr', 'be']) {
      const body = CatalogHazardsResponse.parse(await get(t, `/api/v1/${country}/catalog/hazards?locale=en`));
      expect(body.data.country).toBe(country);
      const byType = Object.fromEntries(body.data.hazards.map((h) => [h.type, h]));
      expect(Object.keys(byType)).toEqual(['clay_shrink_swell', 'radon', 'seismic', 'flood', 'landslide', 'coastal_erosion', 'wildfire']);
      expect(byType.seismic!.levels.map((l) => l.level)).toEqual(['very_low', 'low', 'moderate', 'high', 'very_high']);
      expect(byType.radon!.levels.map((l) => [l.level, l.definition.slice(0, 16)])).toEqual([['very_low', 'IRSN category 1:'], ['low', 'IRSN category 2:'], ['moderate', 'IRSN category 3:']]);
      expect(byType.radon!.assessed_in).toEqual([{ country: 'fr', scope: ['locality'], sources: ['fr.radon'], served: true }]);
      expect(byType.clay_shrink_swell!.assessed_in).toEqual([{ country: 'fr', scope: ['building', 'point'], sources: ['fr.clay'], served: true }]);
      expect(byType.flood!.assessed_in).toEqual([
        { country: 'ca', scope: ['point'], sources: ['ca.flood-zones'], served: true },
        { country: 'be', scope: ['point'], sources: ['be.brussels-flood'], served: true },
      ]);
      expect(byType.flood!.not_assessed_in).toEqual(['fr']);
    }
  });

  it('is not a route of Quebec (spec 4.3 lists no catalog/hazards)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ca/catalog/hazards', headers: { authorization: `Bearer ${t.key}` } });
    expect(res.statusCode).toBe(404);
  });
});

describe('soil information areas (SIS) in France on the samples', () => {
  const SIS = join(REPO_ROOT, 'datasets/fr/sis/sis.geojson');

  it('lists in inside the SIS containing the point, on both sides of every edge, and counts and lists their centres within the radius', async () => {
    const areas = (await duckRows<{ id: string; attributes: string; geometry: string }>(`SELECT id, attributes, geometry FROM '${tableGlob(dataDir, 'fr', 'hazard_areas')}' WHERE layer = 'soil_information_area'`))
      .map((a) => ({ id: a.id, attributes: JSON.parse(a.attributes), geometry: JSON.parse(a.geometry) }));
    const published = await duckRows<{ id: string; nom: string; date_maj: string }>(`SELECT f.properties.id_sis AS id, f.properties.nom AS nom, f.properties.date_maj::VARCHAR AS date_maj FROM (SELECT unnest(features) AS f FROM read_json('${SIS}')) ORDER BY id`);
    expect(areas.map((a) => a.id).sort()).toEqual(published.map((p) => `fr.sis:${p.id}`));
    let inside = 0, outside = 0;
    for (const a of areas) {
      const ring = a.geometry.coordinates[0] as [number, number][];
      for (let i = 0; i + 1 < ring.length; i++) {
        const [[x1, y1], [x2, y2]] = [ring[i]!, ring[i + 1]!];
        const len = Math.hypot(x2 - x1, y2 - y1);
        const [nx, ny] = [-(y2 - y1) / len * 0.00001, (x2 - x1) / len * 0.00001];
        for (const [lng, lat] of [[(x1 + x2) / 2 + nx, (y1 + y2) / 2 + ny], [(x1 + x2) / 2 - nx, (y1 + y2) / 2 - ny]] as [number, number][]) {
          const expected = areas.filter((z) => booleanPointInPolygon([lng, lat], z.geometry)).map((z) => published.find((p) => `fr.sis:${p.id}` === z.id)!)
            .map((p) => ({ type: 'soil_information_area', status: null, name: p.nom, updated_on: p.date_maj }));
          const { risks } = await risksAt(t, lat, lng);
          if (expected.length > 0) inside++; else outside++;
          expect(risks.polluted_sites!.inside, `${lat},${lng}`).toEqual(expected);
        }
      }
    }
    expect(inside).toBeGreaterThan(5);
    expect(outside).toBeGreaterThan(5);
    const { risks } = await risksAt(t, 48.8594, 2.369);
    const centres = await duckRows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM '${tableGlob(dataDir, 'fr', 'polluted_sites')}' WHERE category = 'polluted_site.soil_information_area'
      AND 2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - 48.8594) / 2), 2) + cos(radians(48.8594)) * cos(radians(latitude)) * pow(sin(radians(longitude - 2.369) / 2), 2))) <= 500`);
    expect(risks.polluted_sites!.counts.soil_information_area).toBe(centres[0]!.n);
  });

  it('does not say inside for a position known only to the street', async () => {
    const body = ReportResponse.parse(await get(t, `/api/v1/fr/report?address=${encodeURIComponent('Route de Coutras 33230 Abzac')}&include=risks&locale=en`));
    expect(body.data.location.precision).toBe('street');
    const risks = FrRisks.parse(body.data.risks);
    expect(risks.polluted_sites!.inside).toBeNull();
    expect(risks.missing['polluted_sites.inside']).toBe('insufficient_precision');
  });
});


describe("GASPAR's risks of the commune in France on the samples", () => {
  const GASPAR = join(REPO_ROOT, 'datasets/fr/gaspar/risq_gaspar.csv');
  it('lists at every address of the samples the risks the file gives its commune, by code, with the nomenclature\'s labels; null where the file has no row', async () => {
    const addresses = await duckRows<{ code: string; lat: number; lng: number }>(
      `SELECT locality_code AS code, any_value(latitude ORDER BY id) AS lat, any_value(longitude ORDER BY id) AS lng FROM '${dataDir}/tables/addresses/country=fr/*.parquet' GROUP BY ALL ORDER BY code`);
    const file = await duckRows<{ code: string; risk: string; label: string }>(`SELECT lpad(cod_commune, 5, '0') AS code, num_risque AS risk, lib_risque AS label FROM read_csv('${GASPAR}', delim = ';', header = true, all_varchar = true)`);
    let listed = 0, absent = 0;
    for (const a of addresses) {
      const { risks, location } = await risksAt(t, a.lat, a.lng, 'fr');
      if (!location.zones.locality) continue;
      const commune = location.zones.locality.code;
      const expected = file.filter((r) => r.code === commune).sort((x, y) => (x.risk < y.risk ? -1 : 1));
      expect(risks.locality?.zone.code, a.code).toBe(commune);
      if (expected.length === 0) {
        absent++;
        expect(risks.locality!.known_risks).toBeNull();
        expect(risks.missing['locality.known_risks']).toBe('not_found');
      } else {
        listed++;
        // The sample's labels are the nomenclature's: served in French as the file writes them.
        expect(risks.locality!.known_risks!.map((k) => [k.code, k.label]), commune).toEqual(expected.map((r) => [r.risk, r.label]));
      }
    }
    expect(listed).toBeGreaterThan(2);
    expect(absent).toBeGreaterThan(0);
  });

  it('keeps the types of GASPAR\'s risks out of hazards[]: flood known in Abzac is still not assessed at the point', async () => {
    const abzac = (await duckRows<{ lat: number; lng: number }>(`SELECT latitude AS lat, longitude AS lng FROM '${dataDir}/tables/addresses/country=fr/*.parquet' WHERE locality_code = '33001' ORDER BY id LIMIT 1`))[0]!;
    const { risks } = await risksAt(t, abzac.lat, abzac.lng);
    expect(risks.locality!.known_risks!.find((k) => k.code === '11')).toEqual({ code: '11', label: 'Flood', type: 'flood' });
    expect(risks.locality!.known_risks!.find((k) => k.code === '127')).toMatchObject({ type: 'clay_shrink_swell' });
    expect(risks.locality!.updated_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(risks.hazards.map((h) => h.type)).not.toContain('flood');
    expect(risks.not_assessed).toContain('flood');
  });
});

describe('brush-clearing obligation in France on the samples', () => {
  it('is true inside an OLD zone and false outside, on both sides of every edge; not said at street precision', async () => {
    const zones = (await duckRows<{ geometry: string }>(`SELECT geometry FROM '${tableGlob(dataDir, 'fr', 'hazard_areas')}' WHERE layer = 'brush_clearing'`)).map((z) => JSON.parse(z.geometry));
    expect(zones.length).toBe(2);
    let inside = 0, outside = 0;
    for (const g of zones) {
      const ring = g.coordinates[0] as [number, number][];
      for (let i = 0; i + 1 < ring.length; i++) {
        const [[x1, y1], [x2, y2]] = [ring[i]!, ring[i + 1]!];
        const len = Math.hypot(x2 - x1, y2 - y1);
        const [nx, ny] = [-(y2 - y1) / len * 0.00002, (x2 - x1) / len * 0.00002];
        for (const [lng, lat] of [[(x1 + x2) / 2 + nx, (y1 + y2) / 2 + ny], [(x1 + x2) / 2 - nx, (y1 + y2) / 2 - ny]] as [number, number][]) {
          const expected = zones.some((z) => booleanPointInPolygon([lng, lat], z));
          if (expected) inside++; else outside++;
          expect((await risksAt(t, lat, lng)).risks.obligations, `${lat},${lng}`).toEqual({ brush_clearing: expected });
        }
      }
    }
    expect(inside).toBeGreaterThan(4);
    expect(outside).toBeGreaterThan(4);
    const body = ReportResponse.parse(await get(t, `/api/v1/fr/report?address=${encodeURIComponent('Route de Coutras 33230 Abzac')}&include=risks&locale=en`));
    const risks = FrRisks.parse(body.data.risks);
    expect(risks.obligations).toBeNull();
    expect(risks.missing.obligations).toBe('insufficient_precision');
  });
});
