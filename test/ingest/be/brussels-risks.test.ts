import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BE_FLOOD, brusselsFloodLevel, ingestBrusselsSoil, soilCategory } from '../../../ingest/be/brussels-risks.ts';
import { ingestHazardPolygons } from '../../../ingest/core/hazard-polygons.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { partitionPath, tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

const FLOOD = join(REPO_ROOT, 'datasets/be/brussels-flood/alea_inondation.geojson');
const SOIL = join(REPO_ROOT, 'datasets/be/brussels-soil/inventaire_etat_sol.geojson');
const crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::31370' } };
const sq = [[[149000, 170000], [149050, 170000], [149050, 170050], [149000, 170000]]];

describe('be.brussels-flood', () => {
  it('maps the hazard classes: faible low, moyen moderate, élevé high; refuses others', () => {
    expect(['Aléa faible', 'Aléa moyen', 'Aléa élevé', 'ALEA ELEVE', 'élevé', 'très élevé', ''].map(brusselsFloodLevel)).toEqual(['low', 'moderate', 'high', 'high', 'high', null, null]);
  });

  it('writes every zone of the sample with its level, reprojected from Lambert 72 (checked against DuckDB on the file)', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-flood-')), 'data');
    const summary = await ingestHazardPolygons(silentContext(dataDir), { path: FLOOD }, BE_FLOOD);
    expect(summary.map((s) => [s.table, s.partition, s.rejects])).toEqual([['hazard_areas', 'be.brussels-flood', 0], ['hazard_areas_cells', 'be.brussels-flood', 0]]);
    const source = await duckRows<{ id: number; alea: string; x: number; y: number }>(
      `SELECT f.properties.ID::INTEGER AS id, f.properties.ALEA_FR AS alea, f.geometry.coordinates[1][1][1]::DOUBLE AS x, f.geometry.coordinates[1][1][2]::DOUBLE AS y
       FROM (SELECT unnest(features) AS f FROM read_json('${FLOOD}')) ORDER BY id`);
    const out = await duckRows<{ id: string; attributes: string; geometry: string }>(`SELECT id, attributes, geometry FROM '${partitionPath(dataDir, 'be', 'hazard_areas', 'be.brussels-flood')}' ORDER BY id`);
    expect(out.map((r) => r.id)).toEqual(source.map((s) => `be.brussels-flood:${s.id}`));
    const toL72 = fromWgs84('EPSG:31370');
    for (const s of source) {
      const w = out.find((r) => r.id === `be.brussels-flood:${s.id}`)!;
      expect(JSON.parse(w.attributes)).toEqual({ level: brusselsFloodLevel(s.alea), alea: s.alea });
      const [x, y] = toL72(JSON.parse(w.geometry).coordinates[0][0]);
      expect(Math.abs(x - s.x)).toBeLessThan(0.05);
      expect(Math.abs(y - s.y)).toBeLessThan(0.05);
    }
  });
});

describe('be.brussels-soil', () => {
  it('maps categories and their combinations to the spec types and statuses, never serving a parcel recognised as unpolluted', () => {
    expect(['0', '1', '2', '3', '4', '0+1', '0+3', '1+4', '2+4', ' 0 + 2 '].map(soilCategory)).toEqual([
      { type: 'suspected_land', status: 'suspected' }, null, { type: 'contaminated_land', status: 'confirmed' }, { type: 'contaminated_land', status: 'confirmed' },
      { type: 'contaminated_land', status: 'under_treatment' }, { type: 'suspected_land', status: 'suspected' }, { type: 'contaminated_land', status: 'confirmed' },
      { type: 'contaminated_land', status: 'under_treatment' }, { type: 'contaminated_land', status: 'under_treatment' }, { type: 'contaminated_land', status: 'confirmed' },
    ]);
    expect(soilCategory('5')).toMatchObject({ reject: expect.stringMatching(/CATEGORIE "5" is not a category/) });
    expect(soilCategory('')).toMatchObject({ reject: expect.any(String) });
  });

  it('writes each served parcel as an area and as a point at its centre, as DuckDB reads the file; category 1 appears nowhere', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-soil-')), 'data');
    const summary = await ingestBrusselsSoil(silentContext(dataDir), { path: SOIL });
    const source = await duckRows<{ key: string; cat: string }>(`SELECT f.properties.CAPAKEY AS key, f.properties.CATEGORIE AS cat FROM (SELECT unnest(features) AS f FROM read_json('${SOIL}')) ORDER BY key`);
    const served = source.filter((s) => soilCategory(s.cat) !== null);
    expect(served.length).toBe(source.length - 1);
    expect(summary.map((s) => [s.table, s.rows, s.rejects])).toEqual([['hazard_areas', served.length, 0], ['hazard_areas_cells', expect.any(Number), 0], ['polluted_sites', served.length, 0]]);
    const areas = await duckRows<{ id: string; layer: string; attributes: string }>(`SELECT id, layer, attributes FROM '${tableGlob(dataDir, 'be', 'hazard_areas')}' ORDER BY id`);
    const points = await duckRows<{ id: string; category: string; attributes: string }>(`SELECT id, category, attributes FROM '${tableGlob(dataDir, 'be', 'polluted_sites')}' ORDER BY id`);
    const expected = served.map((s) => ({ id: `be.brussels-soil:${s.key}`, ...(soilCategory(s.cat) as object), category: s.cat }));
    expect(areas.map((a) => ({ id: a.id, ...JSON.parse(a.attributes) }))).toEqual(expected);
    expect(points.map((a) => ({ id: a.id, ...JSON.parse(a.attributes) }))).toEqual(expected);
    expect(points.map((p) => p.category)).toEqual(expected.map((e) => `polluted_site.${(e as unknown as { type: string }).type}`));
    expect(new Set(areas.map((a) => a.layer))).toEqual(new Set(['soil_status']));
  });

  it('refuses an unknown category with its feature number, and fails on another layer naming the missing attribute, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-be-soil-bad-'));
    const file = join(dir, 'soil.geojson');
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', crs, features: [
      { type: 'Feature', properties: { CAPAKEY: 'a', CATEGORIE: '3' }, geometry: { type: 'Polygon', coordinates: sq } },
      { type: 'Feature', properties: { CAPAKEY: 'b', CATEGORIE: '0+7' }, geometry: { type: 'Polygon', coordinates: sq } },
    ] }));
    const [summary] = await ingestBrusselsSoil({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file });
    expect(summary).toMatchObject({ rows: 1, rejects: 1 });
    expect(await readFile(join(dir, 'data', 'be', 'rejects', 'polluted_sites.be.brussels-soil.csv'), 'utf8')).toMatch(/^2;"CATEGORIE ""0\+7"" is not a category/m);
    const other = join(dir, 'other.geojson');
    await writeFile(other, JSON.stringify({ type: 'FeatureCollection', crs, features: [{ type: 'Feature', properties: { PARCELLE: 'x', CATEGORIE: '3' }, geometry: { type: 'Polygon', coordinates: sq } }] }));
    await expect(ingestBrusselsSoil(silentContext(join(dir, 'data2')), { path: other })).rejects.toThrow(/lack the attribute CAPAKEY; found PARCELLE, CATEGORIE/);
    expect(existsSync(tableDir(join(dir, 'data2'), 'be', 'hazard_areas'))).toBe(false);
    expect(existsSync(tableDir(join(dir, 'data2'), 'be', 'polluted_sites'))).toBe(false);
  });
});
