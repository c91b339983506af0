import { readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon, centroid } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../../../api/core/warehouse.ts';
import { protectedAreaOf } from '../../../../../api/location/domains/building/protected-area.ts';
import { footprintPoint as buildingPoint } from '../../../../../api/location/domains/building/place.ts';
import { AreasWriter } from '../../../../../ingest/core/kinds/areas.ts';
import { ingestProtectedAreas } from '../../../../../ingest/fr/protected-areas.ts';
import { REPO_ROOT } from '../../../../../ingest/jobs.ts';
import type { FrBuilding } from '../../../../../schemas/building.ts';
import { tableGlob } from '../../../../../schemas/tables/layout.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

const ring = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const square = (x: number, y: number): Polygon => ({ type: 'Polygon', coordinates: [ring(x - 0.0001, y - 0.0001, x + 0.0001, y + 0.0001)] });
// An L: the bottom bar and the left bar of a 0.001-degree square; its vertex centroid falls in the notch.
const L: Polygon = { type: 'Polygon', coordinates: [[[2.3600, 48.8500], [2.3610, 48.8500], [2.3610, 48.8502], [2.3602, 48.8502], [2.3602, 48.8510], [2.3600, 48.8510], [2.3600, 48.8500]]] };

describe('heritage.protected_area of a building (fixture areas and footprints)', () => {
  let warehouse: Warehouse;
  let bare: Warehouse;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-protected-serve-'));
    const areas = join(dir, 'assiette_sup_s.geojson');
    const f = (idass: string, suptype: string, typeass: string, nomsuplitt: string, coordinates: number[][][]) =>
      ({ type: 'Feature', properties: { idass, idgen: idass.slice(0, -2), nomass: `${suptype.toUpperCase()}_X_ass`, typeass, suptype, nomsuplitt }, geometry: { type: 'Polygon', coordinates } });
    await writeFile(areas, JSON.stringify({ type: 'FeatureCollection', features: [
      // A site with a hole; abords over its east half and beyond; a monument inside both.
      f('AC4-75-1-1-1', 'ac4', 'Périmètre du SPR', 'Site B', [ring(2.300, 48.800, 2.320, 48.820), ring(2.305, 48.805, 2.308, 48.808)]),
      f('AC1-75-2-1-1', 'ac1', 'Périmètre des abords', 'Monument M', [ring(2.310, 48.800, 2.330, 48.820)]),
      f('AC1-75-2-1-2', 'ac1', 'Monument historique', 'Monument M', [ring(2.3140, 48.8140, 2.3160, 48.8160)]),
      f('AC1-75-3-1-1', 'ac1', 'Périmètre des abords', 'Another monument A', [ring(2.310, 48.800, 2.330, 48.820)]),
      // Abords over the L's notch only.
      f('AC1-75-4-1-1', 'ac1', 'Périmètre des abords', 'Notch', [ring(2.36025, 48.85025, 2.3610, 48.8510)]),
    ] }));
    const dataDir = join(dir, 'data');
    await ingestProtectedAreas(silentContext(dataDir), { path: areas });
    const buildings = await AreasWriter.open(dataDir, 'fr', 'buildings', 'test', 'fr.rnb');
    const put = (id: string, geometry: Polygon) => expect(buildings.add({ id, layer: 'building', geometry, attributes: {} })).toBeNull();
    put('bld_site', square(2.302, 48.802));
    put('bld_hole', square(2.3065, 48.8065));
    put('bld_all', square(2.315, 48.815));
    put('bld_out', square(2.340, 48.840));
    put('bld_l', L);
    for (const { prepared } of await buildings.prepare()) await prepared.commit();
    warehouse = await openWarehouse(dataDir, { tables: ['buildings', 'buildings_cells', 'protected_areas', 'protected_areas_cells'], memoryTables: {} });
    bare = await openWarehouse(dataDir, { tables: ['buildings', 'buildings_cells'], memoryTables: {} });
  });
  afterAll(async () => { await warehouse?.close(); await bare?.close(); });

  it('names every area containing the building, the monument first, then the site, then abords by name; null in a hole or outside', async () => {
    expect(await protectedAreaOf(warehouse, 'bld_site')).toEqual({ ingested: true, value: 'AC4 Périmètre du SPR: Site B' });
    expect(await protectedAreaOf(warehouse, 'bld_all')).toEqual({ ingested: true,
      value: 'AC1 Monument historique: Monument M; AC4 Périmètre du SPR: Site B; AC1 Périmètre des abords: Another monument A; AC1 Périmètre des abords: Monument M' });
    expect(await protectedAreaOf(warehouse, 'bld_hole')).toEqual({ ingested: true, value: null });
    expect(await protectedAreaOf(warehouse, 'bld_out')).toEqual({ ingested: true, value: null });
  });

  it('places a concave footprint by a point inside it, not by its centroid in the notch', async () => {
    const c = centroid(L).geometry.coordinates as [number, number];
    expect(booleanPointInPolygon(c, L)).toBe(false);
    const p = buildingPoint(L);
    expect(booleanPointInPolygon(p, L, { ignoreBoundary: true })).toBe(true);
    expect(p[1]).toBe(c[1]);
    expect(await protectedAreaOf(warehouse, 'bld_l')).toEqual({ ingested: true, value: null });
    // A convex footprint: its centroid.
    expect(buildingPoint(square(2.3, 48.8))).toEqual(centroid(square(2.3, 48.8)).geometry.coordinates);
    // A multipolygon whose parts miss the centroid's latitude: a point of its first part.
    const two: MultiPolygon = { type: 'MultiPolygon', coordinates: [square(2.30, 48.80).coordinates, square(2.30, 48.81).coordinates] };
    expect(booleanPointInPolygon(buildingPoint(two), square(2.30, 48.80), { ignoreBoundary: true })).toBe(true);
  });

  it('is not ingested (unavailable, not not_found) where the table is not served', async () => {
    expect(await protectedAreaOf(bare, 'bld_site')).toEqual({ ingested: false, value: null });
  });
});

describe('GET /api/v1/fr/buildings/{id} and /building: heritage.protected_area on the samples', () => {
  const SAMPLE = join(REPO_ROOT, 'datasets/fr/protected-areas/assiette_sup_s.geojson');
  const ORDER = ['AC1 Monument historique', 'AC4 Périmètre du SPR', 'AC1 Périmètre des abords'];
  let dataDir: string;
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
  beforeAll(async () => {
    ({ dataDir } = await samplesDataDir('lds-protected-route-'));
    t = await buildTestApp(dataDir);
  }, 300_000); // the samples, ingested once per run
  afterAll(async () => { await t?.close(); });

  it('serves at every Paris sample building the AC1 and AC4 areas of the sample file containing its footprint centroid, else null not_found', async () => {
    const fc = JSON.parse(await readFile(SAMPLE, 'utf8')) as { features: { properties: Record<string, string>; geometry: MultiPolygon }[] };
    const kept = fc.features.filter((f) => ORDER.includes(`${f.properties.suptype!.toUpperCase()} ${f.properties.typeass}`));
    const footprints = await duckRows<{ id: string; geometry: string }>(`SELECT id, geometry FROM read_parquet('${tableGlob(dataDir, 'fr', 'buildings')}') WHERE id IN (SELECT building_id FROM read_parquet('${tableGlob(dataDir, 'fr', 'building_links')}') WHERE kind = 'address' AND key LIKE '75%') ORDER BY id`);
    const seen = { inside: 0, several: 0, outside: 0 };
    for (const b of footprints) {
      const footprint = JSON.parse(b.geometry) as Polygon;
      const c = centroid(footprint).geometry.coordinates as [number, number];
      expect(booleanPointInPolygon(c, footprint)).toBe(true); // square footprints: the centroid is the point
      const labels = kept.filter((f) => booleanPointInPolygon(c, f.geometry))
        .map((f) => ({ rank: ORDER.indexOf(`${f.properties.suptype!.toUpperCase()} ${f.properties.typeass}`), label: `${f.properties.suptype!.toUpperCase()} ${f.properties.typeass}: ${f.properties.nomsuplitt}` }))
        .sort((x, y) => x.rank - y.rank || x.label.localeCompare(y.label)).map((x) => x.label);
      const res = await get(`/api/v1/fr/buildings/${b.id}`);
      expect(res.statusCode).toBe(200);
      const building = res.json().data.building as FrBuilding;
      expect(building.heritage.protected_area).toBe(labels.length > 0 ? labels.join('; ') : null);
      if (labels.length === 0) { expect(building.missing['heritage.protected_area']).toBe('not_found'); seen.outside++; } else {
        expect(building.missing['heritage.protected_area']).toBeUndefined();
        if (labels.length > 1) seen.several++; else seen.inside++;
      }
      expect(res.json().meta.warnings.map((w: { message: string }) => w.message)).not.toContainEqual(expect.stringMatching(/^heritage\.protected_area:/));
    }
    expect(seen.inside).toBeGreaterThan(5);
    expect(seen.several).toBeGreaterThan(2);
    expect(seen.outside).toBeGreaterThan(5);
  });

  it('serves it at a position too, and unavailable with a warning where fr.protected-areas is not ingested', async () => {
    // The report point of the demo, on the 3e side of the boulevard Beaumarchais: inside the Marais SPR.
    const res = await get('/api/v1/fr/building?lat=48.859142&lng=2.367443');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.building.heritage.protected_area).toMatch(/^AC4 Périmètre du SPR: Site patrimonial remarquable de Paris - Le Marais/);
    const id = res.json().data.building.id as string;

    await t.close();
    await rm(join(dataDir, 'tables', 'protected_areas'), { recursive: true });
    await rm(join(dataDir, 'tables', 'protected_areas_cells'), { recursive: true });
    t = await buildTestApp(dataDir);
    const without = await get(`/api/v1/fr/buildings/${id}`);
    expect(without.json().data.building.heritage.protected_area).toBeNull();
    expect(without.json().data.building.missing['heritage.protected_area']).toBe('unavailable');
    expect(without.json().meta.warnings.map((w: { message: string }) => w.message)).toContain('heritage.protected_area: not ingested yet (protected areas (AC1, SPR))');
  });
});
