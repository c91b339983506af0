import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestClay } from '../../../ingest/fr/clay.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/clay/ExpoArgile_Fxx_L93.geojson');
const LEVELS: Record<number, string> = { 1: 'low', 2: 'moderate', 3: 'high' };

type Written = { id: string; layer: string; attributes: string; geometry: string };
const written = (dataDir: string) => duckRows<Written>(`SELECT id, layer, attributes, geometry FROM '${dataDir}/tables/hazard_areas/country=fr/fr.clay.parquet' ORDER BY id`);

describe('fr.clay', () => {
  it('writes every polygon of the sample with its level, as DuckDB reads the GeoJSON, reprojected from Lambert-93', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-clay-')), 'data');
    const summary = await ingestClay(silentContext(dataDir), { path: SAMPLE });
    expect(summary.map((s) => [s.table, s.partition, s.rejects])).toEqual([['hazard_areas', 'fr.clay', 0], ['hazard_areas_cells', 'fr.clay', 0]]);
    const source = await duckRows<{ id: string; niveau: number; x: number; y: number }>(
      `SELECT f.properties.ID AS id, f.properties.NIVEAU::INTEGER AS niveau, f.geometry.coordinates[1][1][1]::DOUBLE AS x, f.geometry.coordinates[1][1][2]::DOUBLE AS y
       FROM (SELECT unnest(features) AS f FROM read_json('${SAMPLE}', maximum_object_size = 100000000)) ORDER BY id`);
    const out = await written(dataDir);
    expect(out.map((r) => r.id)).toEqual(source.map((s) => `fr.clay:${s.id}`));
    const toL93 = fromWgs84('EPSG:2154');
    for (const s of source) {
      const w = out.find((r) => r.id === `fr.clay:${s.id}`)!;
      expect(w.layer).toBe('clay_shrink_swell');
      expect(JSON.parse(w.attributes)).toEqual({ level: LEVELS[s.niveau], niveau: s.niveau });
      // The first vertex, projected back to Lambert-93, is the published one (to the centimetre).
      const [x, y] = toL93(JSON.parse(w.geometry).coordinates[0][0]);
      expect(Math.abs(x - s.x)).toBeLessThan(0.05);
      expect(Math.abs(y - s.y)).toBeLessThan(0.05);
    }
  });

  it('refuses a level outside 1-3 with its feature number, and a layer without NIVEAU naming it, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-clay-bad-'));
    const sq = [[[452657, 6438892], [454231, 6438830], [454297, 6440495], [452657, 6438892]]];
    const crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } };
    const file = join(dir, 'clay.geojson');
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', crs, features: [
      { type: 'Feature', properties: { ID: 'a', NIVEAU: 2 }, geometry: { type: 'Polygon', coordinates: sq } },
      { type: 'Feature', properties: { ID: 'b', NIVEAU: 4 }, geometry: { type: 'Polygon', coordinates: sq } },
    ] }));
    const [summary] = await ingestClay({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file });
    expect(summary).toMatchObject({ rows: 1, rejects: 1 });
    expect(await readFile(join(dir, 'data', 'fr', 'rejects', 'hazard_areas.fr.clay.csv'), 'utf8')).toMatch(/^2;NIVEAU 4 is not 1, 2 or 3;/m);

    const other = join(dir, 'other.geojson');
    await writeFile(other, JSON.stringify({ type: 'FeatureCollection', crs, features: [{ type: 'Feature', properties: { ALEA: 'Fort' }, geometry: { type: 'Polygon', coordinates: sq } }] }));
    await expect(ingestClay(silentContext(join(dir, 'data2')), { path: other })).rejects.toThrow(/lack the attribute NIVEAU; found ALEA/);
    expect(existsSync(join(dir, 'data2', 'tables', 'hazard_areas', 'country=fr'))).toBe(false);
  });

  it('writes a departmental file to its own partition, its areas carrying the department; a code outside metropolitan France is refused before anything is written', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-clay-dep-')), 'data');
    const summary = await ingestClay(silentContext(dataDir), { path: SAMPLE, department: '33' });
    expect(summary.map((s) => [s.table, s.partition])).toEqual([['hazard_areas', 'fr.clay-33'], ['hazard_areas_cells', 'fr.clay-33']]);
    const rows = await duckRows<Written>(`SELECT id, layer, attributes, geometry FROM '${dataDir}/tables/hazard_areas/country=fr/fr.clay-33.parquet' ORDER BY id`);
    const national = await duckRows<{ id: string; n: number }>(`SELECT f.properties.ID AS id, f.properties.NIVEAU::INTEGER AS n FROM (SELECT unnest(features) AS f FROM read_json('${SAMPLE}', maximum_object_size = 100000000)) ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual(national.map((s) => `fr.clay:33:${s.id}`));
    expect(rows.map((r) => JSON.parse(r.attributes))).toEqual(national.map((s) => ({ level: LEVELS[s.n], niveau: s.n, department: '33' })));
    expect(existsSync(join(dataDir, 'tables/hazard_areas/country=fr/fr.clay.parquet'))).toBe(false);

    const other = join(await mkdtemp(join(tmpdir(), 'lds-clay-dep-bad-')), 'data');
    for (const bad of ['971', '33 ', '2C', '']) {
      await expect(ingestClay(silentContext(other), { path: SAMPLE, department: bad })).rejects.toThrow(/is not a metropolitan department code/);
    }
    expect(existsSync(join(other, 'tables'))).toBe(false);
  });
});
