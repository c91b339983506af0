import { readFile, writeFile } from 'node:fs/promises';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBuildings } from '../../../../../ingest/fr/buildings.ts';
import { JOBS, REPO_ROOT, runSamples } from '../../../../../ingest/jobs.ts';
import { BuildingResponse } from '../../../../../api/location/domains/building/routes.ts';
import { ErrorBody } from '../../../../../schemas/error.ts';
import type { FrBuilding } from '../../../../../schemas/building.ts';
import { buildBuildingIndex, buildingIndexReady } from '../../../../../api/location/domains/building/building-index.ts';
import { buildingRecord, describeBuilding, featureOf } from '../../../../../api/location/domains/building/fr.ts';
import { describeProperty, propertiesOfBuilding, rentSurfaceOf } from '../../../../../api/location/domains/property/fr.ts';
import { READ_STORES, sqlReads } from '../../../../../api/location/domains/building/reads.ts';
import { locationReady } from '../../../../../api/location/ready.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { partitionPath, tableGlob } from '../../../../../schemas/tables/layout.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';
import { createManifests } from '../../../../../api/core/manifests.ts';
import type { Warehouse } from '../../../../../api/core/warehouse.ts';
import { createZoneLookup } from '../../../../../api/location/zones/lookup.ts';
import { openLocationWarehouse } from '../../../../../api/location/warehouse.ts';
import { buildingPoint, footprintPoint, type BuildingPlace } from '../../../../../api/location/domains/building/place.ts';
import { buildingMarket } from '../../../../../api/location/domains/building/market.ts';
import { buildingRisks } from '../../../../../api/location/domains/building/risks.ts';
import { reprojectGeometry, toWgs84 } from '../../../../../ingest/core/reproject.ts';
import { booleanPointInPolygon } from '@turf/turf';
import type { Polygon } from 'geojson';
import { ZONE_LEVEL_ORDER, type Zones } from '../../../../../schemas/zone.ts';

const BAN = join(REPO_ROOT, 'datasets/fr/ban/adresses-75.csv');
let dataDir: string;
let t: TestApp;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
const ids = async () => duckRows<{ key: string; id: string }>(`SELECT key, id FROM read_parquet('${tableGlob(dataDir, 'fr', 'id_registry')}') ORDER BY key`);
/** What describeBuilding reads: the app's warehouse, a zone lookup on it, the samples' manifests and the test clock. */
const deps = () => ({ warehouse: t.warehouse, zones: createZoneLookup(t.warehouse), manifests: createManifests(dataDir), clock: t.clock });
/** data.building of every sample building, as the index-versus-SQL test computed it (the tests after it read them). */
const described = new Map<string, Extract<FrBuilding, { id: string }>>();

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-building-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t?.close(); });

describe('heritage, electricity per meter, social housing and legal owners from the BDNB', () => {
  it('serves at every sample building the nearest historic monument, the residential kWh per meter, the RPLS dwellings and the legal-person owners the BDNB files give its group', async () => {
    const f = (name: string, dep: string) => join(REPO_ROOT, `datasets/fr/buildings/bdnb_${name}_${dep}.csv`);
    const both = (name: string) => `read_csv(['${f(name, '75')}', '${f(name, '33')}'], header = true, all_varchar = true)`;
    const want = await duckRows<{ rnb_id: string; g: string; d: number | null; name: string | null; kwh: number | null; rpls: number | null }>(
      `SELECT rnb_id, batiment_groupe_id AS g, merimee_distance_batiment_historique_plus_proche::DOUBLE AS d, merimee_nom_batiment_historique_plus_proche AS name,
         dle_elec_2020_conso_res_par_pdl::DOUBLE AS kwh, rpls_nb_log::INTEGER AS rpls
       FROM ${both('batiment_groupe_compile')}`);
    const owners = await duckRows<{ g: string; owners: { name: string; siren: string | null; legal_form: string | null; premises: number }[] }>(
      `SELECT l.batiment_groupe_id AS g, list({ 'name': p.denomination, 'siren': p.siren, 'legal_form': p.forme_juridique, 'premises': l.nb_locaux_open::INTEGER } ORDER BY l.nb_locaux_open::INTEGER DESC, p.denomination) AS owners
       FROM ${both('rel_batiment_groupe_proprietaire')} l JOIN ${both('proprietaire')} p USING (personne_id) GROUP BY ALL`);
    const links = await duckRows<{ building_id: string; key: string }>(`SELECT building_id, key FROM read_parquet('${tableGlob(dataDir, 'fr', 'building_links')}') WHERE kind = 'rnb'`);
    let monuments = 0, none = 0, kwh = 0, social = 0, notSocial = 0, owned = 0, notOwned = 0;
    for (const w of want) {
      const id = links.find((l) => l.key === w.rnb_id)?.building_id;
      if (!id) continue; // demolished in the RNB: not served
      const res = await get(`/api/v1/fr/buildings/${id}`);
      expect(res.statusCode).toBe(200);
      const b = res.json().data.building as FrBuilding;
      if (w.name !== null && w.d !== null) {
        expect(b.heritage.historic_monument).toEqual({ name: w.name, distance_m: w.d });
        monuments++;
      } else {
        expect(b.heritage.historic_monument).toBeNull();
        expect(b.missing['heritage.historic_monument']).toBe('not_found');
        none++;
      }
      if (w.kwh !== null) {
        expect(b.electricity_per_meter).toEqual({ unit: 'kWh/year', zone: null, points: [{ period: { start: '2020-01-01', end: '2020-12-31' }, value: w.kwh, sample_size: null }], changes: { '1y': null, '5y': null, since_start: null } });
        kwh++;
      } else {
        expect(b.electricity_per_meter).toBeNull();
        expect(b.missing.electricity_per_meter).toBe('not_found');
      }
      expect(b.social_housing.dwellings).toBe(w.rpls);
      if (w.rpls === null) { expect(b.missing['social_housing.dwellings']).toBe('not_found'); notSocial++; } else social++;
      const o = owners.find((x) => x.g === w.g)?.owners ?? null;
      expect(b.legal_owners).toEqual(o === null ? null : { owners: o });
      if (o === null) { expect(b.missing.legal_owners).toBe('not_found'); notOwned++; } else owned++;
      // Fed now: none is named among the sources not ingested; fibre and energy potential still are.
      const messages = res.json().meta.warnings.map((x: { message: string }) => x.message);
      expect(messages).not.toContainEqual(expect.stringMatching(/^(heritage\.historic_monument|electricity_per_meter|social_housing\.dwellings|legal_owners):/));
      expect(messages).toContainEqual(expect.stringMatching(/^fiber: not ingested yet/));
      expect(b.missing.energy_potential).toBe('unavailable');
    }
    expect([monuments, none, kwh, social, notSocial, owned, notOwned].every((n) => n > 5)).toBe(true);
  });

  it('answers unavailable, as before, for a building whose BDNB export had no RPLS column nor owner tables', async () => {
    const [{ building_id: id }] = await duckRows<{ building_id: string }>(`SELECT building_id FROM read_parquet('${tableGlob(dataDir, 'fr', 'building_links')}') WHERE kind = 'bdnb' ORDER BY building_id LIMIT 1`);
    const record = (await buildingRecord(t.warehouse, id))!;
    expect(record.social_housing_dwellings).toBeDefined();
    expect(record.legal_owners).toBeDefined();
    const { social_housing_dwellings: _s, legal_owners: _o, ...bare } = record;
    const { value, warnings } = await describeBuilding(deps(), id, bare, 'fr');
    const b = value as FrBuilding;
    expect([b.social_housing.dwellings, b.legal_owners]).toEqual([null, null]);
    expect([b.missing['social_housing.dwellings'], b.missing.legal_owners]).toEqual(['unavailable', 'unavailable']);
    expect(warnings.map((w) => w.message)).toEqual(expect.arrayContaining(['social_housing.dwellings: not ingested yet (RPLS)', 'legal_owners: not ingested yet (legal persons owning premises)']));
  });
});

describe("every sample building: the index and SQL paths, its 24-month median, its difference to the IRIS, its hazards (before the tests re-ingesting)", () => {
  it('stops writing the stores when the warehouse closes, leaving no partial store or temporary folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-building-reads-stop-'));
    const warehouse = await openLocationWarehouse(dataDir);
    const building = buildBuildingIndex(warehouse, { dir });
    let settled = false;
    building.then(() => { settled = true; }, () => { settled = true; });
    // Closed once the stores are being written (their temporary folder made): the build ends with an error.
    while (!settled && !(await readdir(dir)).some((f) => f.startsWith('.tmp-'))) await new Promise((r) => setTimeout(r, 2));
    expect(settled).toBe(false);
    await warehouse.close();
    await expect(building).rejects.toThrow();
    // The stores finished before the close are kept (a later build reuses them), no later one is
    // begun, and nothing partial is left.
    const all = Object.values(READ_STORES).filter((r) => r.tables.every((x) => t.warehouse.has('fr', x))).length;
    expect((await readdir(dir)).filter((f) => f.endsWith('.kstore')).length).toBeLessThan(all);
    expect((await readdir(dir)).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('writes the stores in a child process past a size, byte for byte as in process, and kills it when the warehouse closes', async () => {
    const here = await mkdtemp(join(tmpdir(), 'lds-building-reads-here-'));
    const child = await mkdtemp(join(tmpdir(), 'lds-building-reads-child-'));
    const inProcess = await buildBuildingIndex(t.warehouse, { dir: here, childFrom: Number.POSITIVE_INFINITY });
    const forked = await buildBuildingIndex(t.warehouse, { dir: child, childFrom: 0 });
    expect(inProcess!.written).toMatchObject({ peak_rss_mb: null });
    expect(forked!.written!.stores).toBe(inProcess!.written!.stores);
    expect(forked!.written!.peak_rss_mb).toBeGreaterThan(0);
    const names = (await readdir(here)).sort();
    expect((await readdir(child)).sort()).toEqual(names);
    for (const f of names) expect((await readFile(join(child, f))).equals(await readFile(join(here, f))), f).toBe(true);
    // Reused at the next build: nothing written.
    expect((await buildBuildingIndex(t.warehouse, { dir: child, childFrom: 0 }))!.written).toBeNull();

    // Closed while the child writes: killed, the build fails, nothing partial is left.
    const stop = await mkdtemp(join(tmpdir(), 'lds-building-reads-kill-'));
    const warehouse = await openLocationWarehouse(dataDir);
    const building = buildBuildingIndex(warehouse, { dir: stop, childFrom: 0 });
    let settled = false;
    building.then(() => { settled = true; }, () => { settled = true; });
    while (!settled && !(await readdir(stop)).some((f) => f.startsWith('.tmp-'))) await new Promise((r) => setTimeout(r, 2));
    expect(settled).toBe(false);
    await warehouse.close();
    await expect(building).rejects.toThrow(/closed while the building stores were written/);
    expect((await readdir(stop)).filter((f) => f.startsWith('.'))).toEqual([]);
    expect((await readdir(stop)).filter((f) => f.endsWith('.kstore')).length).toBeLessThan(names.length);
  });

  it('removes what a killed build left in the stores folder (its temporary folder, its partial store), not a running one\'s', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-building-reads-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const running = `.tmp-${process.pid}-9999`;
    await mkdir(join(dir, `.tmp-${dead}-1`));
    await writeFile(join(dir, `.tmp-${dead}-1`, 'spill.tmp'), 'x');
    await writeFile(join(dir, `.sales-0123456789abcdef01234567.kstore.${dead}-2.lines`), '{"k":"a","v":[]}\n');
    await writeFile(join(dir, `.sales-0123456789abcdef01234567.kstore.${dead}-2`), 'partial');
    await mkdir(join(dir, running));
    const index = await buildBuildingIndex(t.warehouse, { dir });
    expect(index!.blocks).toBeGreaterThan(0);
    const left = await readdir(dir);
    expect(left.filter((f) => f.startsWith('.'))).toEqual([running]);
    expect(left.filter((f) => f.endsWith('.kstore')).length).toBeGreaterThan(0);
  });

  it('answers the same from the key-sorted stores as by SQL, for every building of the samples and every property of theirs', async () => {
    const index = await buildingIndexReady(t.warehouse);
    expect(index).not.toBeNull();
    expect(index!.blocks).toBeGreaterThan(0);
    // Ready once the stores are open (a load balancer waits for them: scans take seconds at national counts).
    expect((await locationReady(t.warehouse)).waiting).not.toContain('fr.building reads');
    const sql = sqlReads(t.warehouse);
    const ids = await duckRows<{ id: string }>(`SELECT id FROM read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}') ORDER BY id`);
    let withSales = 0, withDiagnoses = 0, properties = 0, withEvents = 0;
    // Each building on both paths, eight buildings at a time (the warehouse's pool of connections), compared in order.
    const both = async (id: string) => {
      const record = (await buildingRecord(t.warehouse, id))!;
      const props = [await propertiesOfBuilding(t.warehouse, id, index!), await propertiesOfBuilding(t.warehouse, id, sql)];
      const described = await Promise.all(props[1]!.map(async (p) => {
        // The property by id: its row as the building lists it, with its Carrez surface.
        const byId = await index!.property(p.id);
        expect(byId).toEqual(await sql.property(p.id));
        expect(byId).toMatchObject(p);
        return [
          await describeProperty(t.warehouse, t.clock, p, 'fr', index!), await describeProperty(t.warehouse, t.clock, p, 'fr', sql),
          await rentSurfaceOf(t.warehouse, p, index!), await rentSurfaceOf(t.warehouse, p, sql)];
      }));
      // The record and point read from the building's own partition (the stores name it) and from every partition.
      expect(await buildingRecord(t.warehouse, id, index)).toEqual(await buildingRecord(t.warehouse, id, null));
      const point = await buildingPoint(t.warehouse, id, null);
      expect(await buildingPoint(t.warehouse, id, index)).toEqual(point);
      // The buildings at its point and around it (inside, across its edges, outside), from the cover store and by the areas reader.
      for (const [dx, dy] of [[0, 0], [0.00005, 0], [-0.00005, 0.00003], [0.0001, 0.0001], [0.0003, -0.0002]] as const) {
        const at = [point!.longitude + dx, point!.latitude + dy] as const;
        const fromStore = await index!.buildingsAt(...at);
        expect(fromStore, `${id} ${at}`).toEqual(await sql.buildingsAt(...at));
        if (dx === 0) expect(fromStore).toContain(id);
      }
      return { fromIndex: await describeBuilding(deps(), id, record, 'fr', index), bySql: await describeBuilding(deps(), id, record, 'fr', null), props, described };
    };
    const results: Awaited<ReturnType<typeof both>>[] = [];
    for (let i = 0; i < ids.length; i += 8) results.push(...await Promise.all(ids.slice(i, i + 8).map(({ id }) => both(id))));
    for (const [i, { id }] of ids.entries()) {
      const { fromIndex, bySql, props, described: ps } = results[i]!;
      expect(fromIndex, id).toEqual(bySql);
      expect(props[0]).toEqual(props[1]);
      for (const [fromStores, bySqlP, rent, rentSql] of ps) {
        expect(fromStores).toEqual(bySqlP);
        expect(rent).toEqual(rentSql);
        properties++;
        if ((fromStores as { value: { events?: unknown[] } }).value.events?.length) withEvents++;
      }
      const b = fromIndex.value as Extract<FrBuilding, { id: string }>;
      described.set(id, b);
      if (b.sales.length > 0) withSales++;
      if (b.energy_diagnoses.length > 0) withDiagnoses++;
    }
    expect([withSales, withDiagnoses, properties, withEvents].every((n) => n > 10)).toBe(true);
    // The buildings linked to each address and parcel the RNB names, and to keys it does not name.
    const links = await duckRows<{ kind: 'address' | 'parcel'; key: string; n: bigint }>(
      `SELECT kind, key, count(DISTINCT building_id) AS n FROM read_parquet('${tableGlob(dataDir, 'fr', 'building_links')}') WHERE kind IN ('address', 'parcel') GROUP BY ALL ORDER BY ALL`);
    expect(links.filter((l) => l.kind === 'address').length).toBeGreaterThan(100);
    for (const l of [...links, { kind: 'address' as const, key: '33001_9999_99999', n: 0n }, { kind: 'parcel' as const, key: '33001000ZZ9999', n: 0n }]) {
      const fromStore = await index!.buildingsLinked(l.kind, l.key);
      expect(fromStore, `${l.kind} ${l.key}`).toEqual(await sql.buildingsLinked(l.kind, l.key));
      expect(fromStore).toHaveLength(Number(l.n));
    }
    // An id no building has: none on either path.
    for (const i of [index, null]) expect([await buildingRecord(t.warehouse, 'bld_00000000000000000000', i), await buildingPoint(t.warehouse, 'bld_00000000000000000000', i)]).toEqual([null, null]);
    expect([await index!.property('prp_00000000000000000000'), await sql.property('prp_00000000000000000000')]).toEqual([null, null]);
    expect([withSales, withDiagnoses].every((n) => n > 10)).toBe(true);
  });

  type Expected = { building: string; n: number; median: number; q1: number; q3: number; houses: number; irises: number; iris: string; start: string; end: string; iris_median: number | null; iris_n: number | null };

  it('serves for every sample building with sales in the window the median, quartiles and sample DuckDB computes over the sales table, and the percent difference to its IRIS', async () => {
    expect(described.size).toBeGreaterThan(200);
    // One grouped query for all buildings: the market's window (24 months to the end of the month of the latest priced sale), the
    // building's priced apartment and house sales on its parcels, and the IRIS median of the type most of them are.
    const rows = await duckRows<Expected>(`
      WITH s AS (SELECT * FROM read_parquet('${tableGlob(dataDir, 'fr', 'sales')}') WHERE price_per_m2 IS NOT NULL AND property_type IN ('apartment', 'house')),
        e AS (SELECT last_day(max(date)) AS e FROM s),
        win AS (SELECT s.*, e.e FROM s, e WHERE s.date > e.e - INTERVAL 24 MONTH AND s.date <= e.e),
        b AS (SELECT id, CAST(json_extract(attributes, '$.parcels') AS VARCHAR[]) AS parcels FROM read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}')),
        per AS (SELECT b.id AS building, count(*)::INTEGER AS n, quantile_cont(w.price_per_m2, 0.5) AS median, quantile_cont(w.price_per_m2, 0.25) AS q1, quantile_cont(w.price_per_m2, 0.75) AS q3,
            count(*) FILTER (WHERE w.property_type = 'house')::INTEGER AS houses, count(DISTINCT w.iris_code)::INTEGER AS irises, any_value(w.iris_code) AS iris,
            strftime(CAST(any_value(w.e) - INTERVAL 24 MONTH + INTERVAL 1 DAY AS DATE), '%Y-%m-%d') AS start, strftime(any_value(w.e), '%Y-%m-%d') AS "end"
          FROM b JOIN win w ON list_has_any(w.parcels, b.parcels) GROUP BY b.id),
        iris AS (SELECT iris_code, property_type, count(*)::INTEGER AS n, quantile_cont(price_per_m2, 0.5) AS median FROM win GROUP BY iris_code, property_type)
      SELECT per.*, iris.median AS iris_median, iris.n AS iris_n FROM per
      LEFT JOIN iris ON iris.iris_code = per.iris AND iris.property_type = CASE WHEN per.houses > per.n - per.houses THEN 'house' ELSE 'apartment' END
      ORDER BY per.building`);
    expect(rows.length).toBeGreaterThan(30);
    const expected = new Map(rows.map((r) => [r.building, r]));
    let compared = 0, unpublishedIris = 0, outOfWindow = 0, noSale = 0;
    for (const [id, b] of described) {
      const w = expected.get(id);
      if (!w) {
        // No priced sale in the window: null with not_found, and nothing to compare.
        expect([b.median_price_per_m2_24m, b.vs_sublocality_level2]).toEqual([null, null]);
        expect([b.missing.median_price_per_m2_24m, b.missing.vs_sublocality_level2]).toEqual(['not_found', 'not_found']);
        if (b.sales.length > 0) outOfWindow++; else noSale++;
        continue;
      }
      expect(b.median_price_per_m2_24m).toEqual({
        value: Math.round(w.median), unit: 'EUR/m2', period: { start: w.start, end: w.end }, zone: null, sample_size: w.n,
        reliability: w.n >= 30 ? 'high' : w.n >= 10 ? 'medium' : 'low', range: { low: Math.round(w.q1), high: Math.round(w.q3) },
        // updated_on: the DVF sample's publication date as ingested (its first commit date), not the import date.
        definition: expect.stringMatching(/^Médiane du prix au m² des ventes du bâtiment/), updated_on: '2026-11-22', stale: expect.any(Boolean),
      });
      expect(b.missing.median_price_per_m2_24m).toBeUndefined();
      // The sales of a building lie in one IRIS, the one containing its footprint.
      expect(w.irises).toBe(1);
      if (w.iris_n !== null && w.iris_n >= 5) {
        expect(b.vs_sublocality_level2).toBe(Math.round((w.median / w.iris_median! - 1) * 1000) / 10);
        expect(b.missing.vs_sublocality_level2).toBeUndefined();
        compared++;
      } else {
        // Fewer than 5 sales of the type in the IRIS: its median is not published.
        expect(b.vs_sublocality_level2).toBeNull();
        expect(b.missing.vs_sublocality_level2).toBe('insufficient_sample');
        unpublishedIris++;
      }
    }
    expect(compared).toBeGreaterThan(10);
    expect([unpublishedIris, outOfWindow, noSale].every((n) => n > 0)).toBe(true);
    // None of the three is named among the sources not ingested any more.
    const res = await get(`/api/v1/fr/buildings/${rows[0]!.building}`);
    expect(res.json().meta.warnings.map((x: { message: string }) => x.message)).not.toContainEqual(expect.stringMatching(/^(median_price_per_m2_24m|vs_sublocality_level2|risks)\b/));
  });

  it("serves at every sample building the clay exposure the BRGM file draws at its footprint (scope building), and the risks domain's hazards at its point", async () => {
    const file = JSON.parse(await readFile(join(REPO_ROOT, 'datasets/fr/clay/ExpoArgile_Fxx_L93.geojson'), 'utf8')) as { crs: { properties: { name: string } }; features: { properties: { NIVEAU: number }; geometry: Polygon }[] };
    const project = toWgs84(file.crs.properties.name);
    const polygons = file.features.map((f) => ({ level: (['low', 'moderate', 'high'] as const)[f.properties.NIVEAU - 1]!, geometry: reprojectGeometry(f.geometry, project) as Polygon }));
    // The point the building is read at: footprintPoint of its RNB footprint (its centroid when inside), from one read of the table.
    const footprints = await duckRows<{ id: string; geometry: string }>(`SELECT id, geometry FROM read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}')`);
    const points = new Map(footprints.map((f) => { const [longitude, latitude] = footprintPoint(JSON.parse(f.geometry) as Polygon); return [f.id, { latitude, longitude }]; }));
    const counts = { high: 0, moderate: 0, low: 0, none: 0 };
    for (const [id, b] of described) {
      const p = points.get(id)!;
      const levels = polygons.filter((x) => booleanPointInPolygon([p.longitude, p.latitude], x.geometry)).map((x) => x.level);
      const want = (['high', 'moderate', 'low'] as const).find((l) => levels.includes(l));
      const clay = b.risks.filter((h) => h.type === 'clay_shrink_swell');
      if (want) {
        expect(clay).toEqual([{ type: 'clay_shrink_swell', level: want, scope: 'building', label: expect.stringMatching(/^Retrait-gonflement des argiles : /) }]);
        expect(b.missing['risks.clay_shrink_swell']).toBeUndefined();
      } else {
        expect(clay).toEqual([]);
        expect(b.missing['risks.clay_shrink_swell']).toBe('not_assessed');
      }
      counts[want ?? 'none']++;
    }
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);

    // An Abzac building in the high block and a Paris building outside every clay block: the report's risks at the same point give the same hazards.
    const inAbzac = [...described.values()].find((b) => b.risks.some((h) => h.type === 'clay_shrink_swell' && h.level === 'high'))!;
    const inParis = [...described.values()].find((b) => b.address?.includes('Paris') && b.missing['risks.clay_shrink_swell'] === 'not_assessed')!;
    for (const b of [inAbzac, inParis]) {
      const p = points.get(b.id)!;
      expect(p).toEqual(await buildingPoint(t.warehouse, b.id));
      const report = (await get(`/api/v1/fr/report?lat=${p.latitude}&lng=${p.longitude}&include=risks&locale=en`)).json().data;
      expect(report.location.building_id).toBe(b.id);
      const en = (await get(`/api/v1/fr/buildings/${b.id}?locale=en`)).json().data.building;
      expect(en.risks).toEqual(report.risks.hazards);
      // Highest first; the commune's classes are kept with scope locality.
      expect(en.risks.some((h: { scope: string }) => h.scope === 'locality')).toBe(true);
    }
    expect(inAbzac.risks[0]).toMatchObject({ type: 'clay_shrink_swell', level: 'high', scope: 'building' });
    expect(inParis.risks.map((h) => h.type)).not.toContain('clay_shrink_swell');
  });

  it('answers unavailable with a warning where sales, IRIS boundaries or hazard sources are not ingested', async () => {
    const none = { has: () => false } as unknown as Warehouse;
    const manifests = { get: async () => ({ partitions: [] }) } as unknown as ReturnType<typeof createManifests>;
    const sale = { id: 's', date: '2025-01-10', lots: null, property_type: 'apartment' as const, rooms: 2, surface: 40, price: 400_000, price_per_m2: 10_000 };
    const market = await buildingMarket({ warehouse: none, manifests, clock: t.clock }, [sale], null, 'fr');
    expect(market.value).toEqual({ median_price_per_m2_24m: null, vs_sublocality_level2: null });
    expect(market.missing).toEqual({ median_price_per_m2_24m: 'unavailable', vs_sublocality_level2: 'unavailable' });
    expect(market.warnings).toHaveLength(1);
    // Sales served, IRIS boundaries not: the median, but no comparison.
    const noZones: BuildingPlace = { latitude: 48.86, longitude: 2.36, zones: Object.fromEntries(ZONE_LEVEL_ORDER.map((l) => [l, null])) as Zones, levels: new Set() };
    const served = await buildingMarket({ warehouse: t.warehouse, manifests, clock: t.clock }, [sale], noZones, 'fr');
    expect(served.value.median_price_per_m2_24m).toMatchObject({ value: 10_000, sample_size: 1, reliability: 'low', range: { low: 10_000, high: 10_000 }, zone: null });
    expect(served.missing).toEqual({ vs_sublocality_level2: 'unavailable' });
    // The manifest here knows no sales partition: no publication date to serve, and the warning says so.
    expect(served.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^median_price_per_m2_24m: updated_on is the import date, not fr\.dvf's publication date/), expect.stringMatching(/^vs_sublocality_level2: IRIS boundaries/)]);
    const risks = await buildingRisks({ warehouse: none }, 'bld_x', noZones, 'fr');
    expect(risks).toEqual({ value: [], missing: { risks: 'unavailable' }, warnings: [{ domain: 'building', code: 'data_unavailable', message: expect.stringMatching(/^risks: /) }] });
  });
});

describe('GET /api/v1/fr/building and /buildings/{id}', () => {
  it('serves the building at an address: RNB footprint, BDNB values as Features, diagnoses at its address, sales on its parcel', async () => {
    const links = await duckRows<{ building_id: string; key: string }>(`SELECT building_id, key FROM '${partitionPath(dataDir, 'fr', 'building_links', 'rnb-75')}' WHERE kind = 'parcel'`);
    const sold = await duckRows<{ parcels: string[] }>(`SELECT parcels FROM read_parquet('${tableGlob(dataDir, 'fr', 'sales')}')`);
    const diagnosed = await duckRows<{ ban_id: string }>(`SELECT ban_id FROM '${partitionPath(dataDir, 'fr', 'diagnoses', 'dpe_v2_existing-75')}' WHERE level = 'dwelling'`);
    const ban = (await readFile(BAN, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';'));
    // An address whose parcel is sold and whose address carries a diagnosis.
    const c = ban.find((r) => r[22] && links.some((l) => l.key === r[22]) && sold.some((s) => s.parcels.includes(r[22]!)) && diagnosed.some((d) => d.ban_id === r[0]))!;
    expect(c).toBeTruthy();
    const res = await get(`/api/v1/fr/building?lat=${c[13]}&lng=${c[12]}`);
    expect(res.statusCode).toBe(200);
    const body = BuildingResponse.parse(res.json());
    const b = body.data.building as Extract<typeof body.data.building, { id: string }>;
    expect(b.id).toBe(links.find((l) => l.key === c[22])!.building_id);
    expect(b.status).toBe('partial');
    expect(b.construction_year?.document.type).toBe('building_record');
    expect(b.energy_diagnoses.length).toBeGreaterThan(0);
    expect(b.sales.length).toBeGreaterThan(0);
    expect(b.sales_attachment).toBe('parcel');
    expect(body.meta.warnings.map((w) => w.message)).not.toContainEqual(expect.stringMatching(/^copro:/));
    expect(b.copro === null ? b.missing.copro : b.copro.registration_number).toBeTruthy();
    // The location names it, and the by-id route serves the same building.
    const loc = await get(`/api/v1/fr/location?lat=${c[13]}&lng=${c[12]}`);
    expect(loc.json().data.location.building_id).toBe(b.id);
    const byId = await get(`/api/v1/fr/buildings/${b.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().data.building).toEqual(b);
  });

  it('serves the co-ownership registry entry of the building, sure by its parcel or probable by its address, with the label in the locale', async () => {
    const at = async (lat: number, lng: number, locale = 'fr') => BuildingResponse.parse((await get(`/api/v1/fr/building?lat=${lat}&lng=${lng}&locale=${locale}`)).json()).data.building as Extract<FrBuilding, { id: string }>;
    // 31 bis boulevard Beaumarchais: the registry names its parcel (Paris prefix form 75056103VS0035).
    const sure = await at(48.855747, 2.368269);
    expect(sure.copro).toEqual({
      name: 'RESIDENCE BEAUMARCHAIS 31', registration_number: 'AA1234567', registered_on: '2017-03-14', regulation_on: '1956-04-12', construction_period: 'before_1949',
      lots: { total: 24, dwellings: 9, parking: 0 },
      manager: { type: 'professional', name: 'SYNDIC EXEMPLE PARIS', siret: '12345678900011', mandate_active: true, mandate_ends_on: '2026-06-30' },
      attachment: { level: 'sure', reason: 'parcel_in_registry', label: 'Le registre des copropriétés désigne la parcelle du bâtiment' },
    });
    expect(sure.missing.copro).toBeUndefined();
    // Its dwelling lots are an alternative to the dwellings of the building record: 9 in both here, so not repeated; another count is kept.
    expect(sure.dwellings).toMatchObject({ value: 9, document: { type: 'building_record' } });
    expect(sure.dwellings!.alternatives.some((x) => x.document.type === 'copro_registry')).toBe(false);
    expect(featureOf([{ value: 12, document: { type: 'building_record', date: null } }], [], 'count', [{ value: 11, date: '2018-11-05' }])!.alternatives)
      .toEqual([{ value: 11, document: { type: 'copro_registry', date: '2018-11-05' } }]);
    // 71 boulevard Beaumarchais: no parcel in the registry, its reference address is the building's; a volunteer manager is not named.
    const probable = await at(48.857993, 2.367731, 'en');
    expect(probable.copro).toMatchObject({ registration_number: 'AB2345678', manager: { type: 'volunteer', name: null, siret: null }, attachment: { level: 'probable', reason: 'address_matches', label: 'The reference address of the registry is an address of the building' } });
    // A building the registry does not name: null with reason not_found.
    const none = await at(48.859142, 2.367443);
    expect([none.copro, none.missing.copro]).toEqual([null, 'not_found']);
  });

  it('answers insufficient_precision at street precision, never the wrong building', async () => {
    const res = await get('/api/v1/fr/building?address=Rue+de+la+Roquette+75011+Paris');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.building).toEqual({ status: 'insufficient_precision', missing: { building: 'insufficient_precision' } });
  });

  it('answers 400 for a malformed id and 404 building_not_found for an unknown one', async () => {
    const bad = await get('/api/v1/fr/buildings/bld_12');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'building_id' } });
    const unknown = await get(`/api/v1/fr/buildings/bld_${'0'.repeat(20)}`);
    expect(unknown.statusCode).toBe(404);
    expect(ErrorBody.parse(unknown.json()).error.code).toBe('building_not_found');
  });

  it('re-ingesting every source changes no id', async () => {
    const before = await ids();
    expect(before.length).toBeGreaterThan(300);
    // Every job an id is derived from: the registry's writers and the tables they read.
    const sources = JOBS.filter((j) => j.writes.some((w) => ['id_registry', 'sales', 'diagnoses', 'building_links', 'parcels'].includes(w)));
    expect(sources.map((j) => j.id)).toEqual(expect.arrayContaining(['fr.dvf', 'fr.cadastre', 'fr.dpe', 'fr.buildings', 'fr.properties']));
    await runSamples(silentContext(dataDir), sources);
    expect(await ids()).toEqual(before);
  });

  it('answers 301 toward the kept id when a new BDNB version shows two RNB buildings to be one', async () => {
    const rnbRows = (await readFile(join(REPO_ROOT, 'datasets/fr/buildings/RNB_33.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';')[0]!);
    const bdnbFile = join(REPO_ROOT, 'datasets/fr/buildings/bdnb_batiment_groupe_compile_33.csv');
    const lines = (await readFile(bdnbFile, 'utf8')).trim().split('\n');
    const withGroup = new Set(lines.slice(1).map((l) => l.split(',')[3]!));
    const lone = rnbRows.find((r) => !withGroup.has(r))!;
    // The first group now names the lone RNB building too: its group and that building are one.
    const [head, first, ...rest] = lines;
    const cols = first!.split(',');
    const twin = [...cols];
    twin[3] = lone;
    const dir = await mkdtemp(join(tmpdir(), 'lds-bdnb-v2-'));
    await writeFile(join(dir, 'bdnb.csv'), `${[head, first, twin.join(','), ...rest].join('\n')}\n`);
    const idOf = async (rnb: string) => (await duckRows<{ id: string }>(`SELECT id FROM read_parquet('${tableGlob(dataDir, 'fr', 'id_registry')}') WHERE key = 'rnb:${rnb}'`))[0]!.id;
    const [kept, abandoned] = [await idOf(cols[3]!), await idOf(lone)];
    await ingestBuildings({ ...silentContext(dataDir), maxRejectShare: 0.05 }, { rnb: { path: join(REPO_ROOT, 'datasets/fr/buildings/RNB_33.csv') }, bdnb: { path: join(dir, 'bdnb.csv') } });
    const merged = await duckRows<{ from_id: string; to_id: string }>(`SELECT from_id, to_id FROM '${partitionPath(dataDir, 'fr', 'id_merges', 'bld')}'`);
    expect(merged).toEqual([{ from_id: abandoned, to_id: kept }]);
    await t.warehouse.refresh();
    const res = await get(`/api/v1/fr/buildings/${abandoned}`);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`/api/v1/fr/buildings/${kept}`);
    expect((await get(`/api/v1/fr/buildings/${kept}`)).statusCode).toBe(200);
  });
});

describe('the property domain: /report property, /properties/{id}', () => {
  it('serves the default property of an address with its events, last sale, value today and story; the by-id route the same', async () => {
    const events = await duckRows<{ property_id: string; n: number }>(`SELECT property_id, count(*)::INTEGER AS n FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') WHERE type = 'sale' GROUP BY property_id ORDER BY n DESC, property_id`);
    const props = await duckRows<{ id: string; building_id: string }>(`SELECT id, building_id FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') WHERE building_id IS NOT NULL`);
    const p = props.find((x) => events.some((e) => e.property_id === x.id))!;
    const res = await get(`/api/v1/fr/properties/${p.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json().data.property;
    expect(body).toMatchObject({ status: 'ok', id: p.id, building_id: p.building_id });
    expect(body.events.length).toBeGreaterThan(0);
    for (const e of body.events) expect(e.attachment.label.length).toBeGreaterThan(10);
    expect(body.story).toMatch(/vendu/);
    expect(body.last_sale).not.toBeNull();
    if (body.value_today) expect(body.value_today).toMatchObject({ unit: 'EUR', method: 'indexed_last_sale' });
    else expect(['insufficient_sample', 'not_found']).toContain(body.missing.value_today);
    const en = await get(`/api/v1/fr/properties/${p.id}?locale=en`);
    expect(en.json().data.property.story).toMatch(/sold/);
    // The report chooses it by property_id.
    const b = await duckRows<{ lng: number; lat: number }>(`SELECT (min_lng + max_lng) / 2 AS lng, (min_lat + max_lat) / 2 AS lat FROM read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}') WHERE id = '${p.building_id}'`);
    const report = await get(`/api/v1/fr/report?lat=${b[0]!.lat}&lng=${b[0]!.lng}&include=property&property_id=${p.id}`);
    expect(report.statusCode).toBe(200);
    expect(report.json().data.property).toEqual(body);
    expect(report.json().data.location.property_ids).toContain(p.id);
  });

  it('serves a flat of a deed of several dwellings: its own lot, surface and Carrez surface, the deed price flagged and not taken as its own', async () => {
    const [u] = await duckRows<{ property_id: string }>(`SELECT property_id FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') WHERE ref = '2022-402072' AND part = '75111000JM0180:5'`);
    const body = (await get(`/api/v1/fr/properties/${u!.property_id}`)).json().data.property;
    expect(body.lot).toBe('5');
    expect(body.carrez_area_m2).toMatchObject({ value: 59.17, unit: 'm2', document: { type: 'sale', date: '2022-06-14' } });
    const sale = body.events.find((e: { type: string }) => e.type === 'sale');
    expect(sale.sale).toMatchObject({ price: { value: 2_150_000, unit: 'EUR' }, price_per_m2: null, surface: 61, deed_dwellings: 3 });
    expect(body.last_sale).toMatchObject({ date: '2022-06-14', price: null, price_per_m2: null });
    expect(body.value_today).toBeNull();
    // A flat sold alone: the Carrez surface of its lot, from its deed.
    const [flat] = await duckRows<{ id: string; carrez: number }>(`SELECT id, carrez_area_m2 AS carrez FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') WHERE carrez_area_m2 IS NOT NULL AND lot NOT IN ('3', '5', '7') ORDER BY id LIMIT 1`);
    expect((await get(`/api/v1/fr/properties/${flat!.id}`)).json().data.property.carrez_area_m2.value).toBe(flat!.carrez);
  });

  it("serves the market's monthly rent of the report's property: the rent map's per m² (as DuckDB reads the file) times the property's surface, saying which", async () => {
    const props = await duckRows<{ id: string; building_id: string; lng: number; lat: number }>(
      `SELECT p.id, p.building_id, (b.min_lng + b.max_lng) / 2 AS lng, (b.min_lat + b.max_lat) / 2 AS lat
       FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') p JOIN read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}') b ON b.id = p.building_id ORDER BY p.id`);
    // The rent map's rows as DuckDB reads the producer's files, by type and commune code (one read per file).
    const refs = new Map<string, { v: number; lo: number; hi: number }>();
    for (const [type, kind] of [['house', 'mai'], ['apartment', 'app']] as const) {
      const file = join(REPO_ROOT, `datasets/fr/rents/pred-${kind}-mef-dhup.csv`);
      for (const r of await duckRows<{ code: string; v: number; lo: number; hi: number }>(
        `SELECT INSEE_C AS code, loypredm2 AS v, "lwr.IPm2" AS lo, "upr.IPm2" AS hi FROM read_csv('${file}', delim = ';', header = true, decimal_separator = ',', types = {'INSEE_C': 'VARCHAR'})`)) {
        refs.set(`${type}:${r.code}`, { v: r.v, lo: r.lo, hi: r.hi });
      }
    }
    const served = { energy_diagnosis: 0, carrez: 0, sale: 0, none: 0 };
    // The reports are asked eight at a time (the warehouse has a pool of connections), then read in order.
    const responses: Awaited<ReturnType<typeof get>>[] = [];
    for (let i = 0; i < props.length; i += 8) {
      responses.push(...await Promise.all(props.slice(i, i + 8).map((p) => get(`/api/v1/fr/report?lat=${p.lat}&lng=${p.lng}&include=property,market&property_id=${p.id}&locale=en`))));
    }
    for (const [i, p] of props.entries()) {
      const res = responses[i]!;
      expect(res.statusCode, res.body).toBe(200);
      const { property, market, location } = res.json().data;
      const rent = market.rent_estimate;
      if (!rent) continue;
      // The rent per m² of the property's type in its arrondissement, else its commune, as published.
      const code = location.zones.sublocality_level1?.code ?? location.zones.locality.code;
      const ref = refs.get(`${property.type === 'house' ? 'house' : 'apartment'}:${code}`);
      if (!ref) { expect(rent.per_m2.zone.code).not.toBe(code); continue; }
      expect(rent.per_m2).toMatchObject({ value: ref.v, range: { low: ref.lo, high: ref.hi } });
      // The surface: the living surface of its latest diagnosis, else the Carrez surface of a sale, else the sale's built surface (data.property says which document).
      const living = property.living_area_m2, carrez = property.carrez_area_m2;
      const expected = living?.document.type === 'energy_diagnosis' ? { s: living.value, basis: 'energy_diagnosis' } : carrez ? { s: carrez.value, basis: 'carrez' } : living ? { s: living.value, basis: 'sale' } : null;
      if (!expected) {
        expect(rent.monthly).toBeNull();
        expect(market.missing['rent_estimate.monthly']).toBe('not_found');
        served.none++;
        continue;
      }
      expect(rent.monthly).toEqual({
        value: Math.round(ref.v * expected.s), unit: 'EUR/month', range: { low: Math.round(ref.lo * expected.s), high: Math.round(ref.hi * expected.s) },
        property_id: p.id, surface_m2: expected.s, surface_basis: expected.basis, definition: expect.stringMatching(/^Estimated monthly rent, charges included, of the property the report describes/),
      });
      expect(market.missing['rent_estimate.monthly']).toBeUndefined();
      served[expected.basis as 'energy_diagnosis' | 'carrez' | 'sale']++;
    }
    // Each surface basis is met in the samples (202 properties with a monthly rent when written).
    expect(served.energy_diagnosis).toBeGreaterThan(0);
    expect(served.carrez).toBeGreaterThan(0);
    expect(served.sale).toBeGreaterThan(0);
  });

  it("uses the report's default property without property_id, the same as data.property, and the market route the same", async () => {
    const props = await duckRows<{ lng: number; lat: number }>(
      `SELECT (b.min_lng + b.max_lng) / 2 AS lng, (b.min_lat + b.max_lat) / 2 AS lat
       FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') p JOIN read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}') b ON b.id = p.building_id
       WHERE p.department_code = '33' GROUP BY b.id, b.min_lng, b.max_lng, b.min_lat, b.max_lat ORDER BY b.id LIMIT 5`);
    let served = 0;
    for (const b of props) {
      const { property, market } = (await get(`/api/v1/fr/report?lat=${b.lat}&lng=${b.lng}&include=property,market`)).json().data;
      const route = (await get(`/api/v1/fr/market?lat=${b.lat}&lng=${b.lng}`)).json().data.market;
      expect(route.rent_estimate).toEqual(market.rent_estimate);
      if (!market.rent_estimate?.monthly) continue;
      expect(market.rent_estimate.monthly.property_id).toBe(property.id);
      served++;
    }
    expect(served).toBeGreaterThan(0);
  });

  it('answers monthly null with its reason where the report knows no property', async () => {
    // A point of Paris 11e off every building of the samples: the rent per m² of the arrondissement, no property, no monthly rent.
    const res = await get('/api/v1/fr/report?lat=48.8530&lng=2.3690&include=market');
    expect(res.statusCode, res.body).toBe(200);
    const { market, location } = res.json().data;
    expect(location.building_id).toBeNull();
    expect(market.rent_estimate.per_m2).not.toBeNull();
    expect(market.rent_estimate.monthly).toBeNull();
    expect(market.missing['rent_estimate.monthly']).toBe('not_found');
    // An address known at street precision only: the property is not known, said so.
    const street = (await get('/api/v1/fr/report?address=rue%20de%20la%20Roquette%2075011%20Paris&include=market')).json().data;
    expect(street.location.precision).toBe('street');
    expect(street.market.rent_estimate.monthly).toBeNull();
    expect(street.market.missing['rent_estimate.monthly']).toBe('insufficient_precision');
  });

  it('answers 400 malformed, 404 property_not_found, and 301 when a new DPE version shows two properties to be one', async () => {
    expect((await get('/api/v1/fr/properties/prp_x')).statusCode).toBe(400);
    const unknown = await get(`/api/v1/fr/properties/prp_${'0'.repeat(20)}`);
    expect(unknown.statusCode).toBe(404);
    expect(ErrorBody.parse(unknown.json()).error.code).toBe('property_not_found');
    const r404 = await get(`/api/v1/fr/report?lat=48.86305&lng=2.36196&include=property&property_id=prp_${'0'.repeat(20)}`);
    expect(r404.statusCode).toBe(404);

    const sample = await readFile(join(REPO_ROOT, 'datasets/fr/dpe/dpe-v2-logements-existants-sample.csv'), 'utf8');
    const [header, ...lines] = sample.replace(/^\uFEFF/, '').trim().split('\n');
    const cols = header!.split(',').map((h) => h.replace(/^"|"$/g, ''));
    const cells = (l: string) => l.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, '')).slice(0, cols.length);
    const template = cells(lines.at(-1)!);
    const row = (number: string, inv: string, rpls: string) => {
      const c = [...template];
      c[cols.indexOf('N°DPE')] = `"${number}"`; c[cols.indexOf('Invariant_fiscal_logement')] = inv ? `"${inv}"` : ''; c[cols.indexOf('N°_RPLS_logement')] = rpls ? `"${rpls}"` : '';
      c[cols.indexOf('Identifiant__BAN')] = ''; c[cols.indexOf('N°_DPE_remplacé')] = '';
      return c.join(',');
    };
    const dir = await mkdtemp(join(tmpdir(), 'lds-dpe-merge-'));
    const v1 = [row('2475E9000001A', '', 'R-777'), row('2475E9000002B', 'I-888', '')];
    await writeFile(join(dir, 'v1.csv'), `\uFEFF${header}\n${v1.join('\n')}\n`);
    const { ingestDpe } = await import('../../../../../ingest/fr/dpe.ts');
    const { buildProperties } = await import('../../../../../ingest/fr/properties.ts');
    await ingestDpe(silentContext(dataDir), { path: join(dir, 'v1.csv') });
    await buildProperties(silentContext(dataDir));
    const idOf = async (key: string) => (await duckRows<{ id: string }>(`SELECT id FROM read_parquet('${tableGlob(dataDir, 'fr', 'id_registry')}') WHERE key = '${key}'`))[0]!.id;
    const [a, bId] = [await idOf('rpls:R-777'), await idOf('inv:I-888')];
    expect(a).not.toBe(bId);
    await writeFile(join(dir, 'v2.csv'), `\uFEFF${header}\n${[...v1, row('2575E9000003C', 'I-888', 'R-777')].join('\n')}\n`);
    await ingestDpe(silentContext(dataDir), { path: join(dir, 'v2.csv') });
    await buildProperties(silentContext(dataDir));
    await t.warehouse.refresh();
    const merges = await duckRows<{ from_id: string; to_id: string }>(`SELECT from_id, to_id FROM '${partitionPath(dataDir, 'fr', 'id_merges', 'prp')}'`);
    expect(merges).toHaveLength(1);
    const { from_id, to_id } = merges[0]!;
    expect([from_id, to_id].sort()).toEqual([a, bId].sort());
    const moved = await get(`/api/v1/fr/properties/${from_id}`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/api/v1/fr/properties/${to_id}`);
    const kept = await get(`/api/v1/fr/properties/${to_id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.property.events.map((e: { energy_diagnosis: { number: string } }) => e.energy_diagnosis.number).sort()).toEqual(['2475E9000001A', '2475E9000002B', '2575E9000003C']);
  });
});
