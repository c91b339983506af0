import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { categoryOf, ingestProtectedAreas } from '../../../ingest/fr/protected-areas.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/protected-areas/assiette_sup_s.geojson');
const LAYERS: Record<string, string> = { 'AC1 Monument historique': 'historic_monument', 'AC1 Périmètre des abords': 'historic_monument_surroundings', 'AC4 Périmètre du SPR': 'remarkable_heritage_site' };
const partition = (dataDir: string) => join(dataDir, 'tables/protected_areas/country=fr/fr.protected-areas.parquet');
type Written = { id: string; layer: string; attributes: string; geometry: string; source: string };
const written = (dataDir: string) => duckRows<Written>(`SELECT id, layer, attributes, geometry, source FROM '${partition(dataDir)}' ORDER BY id`);

const ring = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const feature = (properties: Record<string, unknown>, geometry: unknown = { type: 'MultiPolygon', coordinates: [[ring(2.360, 48.855, 2.362, 48.857)]] }) => ({ type: 'Feature', properties, geometry });
const wgs84 = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } };
async function geojson(dir: string, name: string, features: unknown[], crs: unknown = wgs84): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features, crs }));
  return file;
}
const ac1 = (idass: string, typeass = 'Périmètre des abords', extra: Record<string, unknown> = {}) =>
  ({ gid: 1, idass, idgen: 'AC1-75-9-1', nomass: 'AC1_Test_abor', typeass, suptype: 'ac1', nomsuplitt: 'Église test', ...extra });

describe('fr.protected-areas', () => {
  it('writes the AC1 and AC4 assiettes of the sample as DuckDB reads the GeoJSON, leaving the other categories out', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-protected-')), 'data');
    const logged: string[] = [];
    const summary = await ingestProtectedAreas({ ...silentContext(dataDir), log: (l) => logged.push(l) }, { path: SAMPLE });
    const source = await duckRows<{ idass: string; idgen: string; nomass: string; typeass: string; suptype: string; nomsuplitt: string; geometry: string }>(
      `SELECT f.properties.idass AS idass, f.properties.idgen AS idgen, f.properties.nomass AS nomass, f.properties.typeass AS typeass, f.properties.suptype AS suptype,
         f.properties.nomsuplitt AS nomsuplitt, to_json(f.geometry)::VARCHAR AS geometry
       FROM (SELECT unnest(features) AS f FROM read_json('${SAMPLE}', maximum_object_size = 100000000)) ORDER BY idass`);
    const kept = source.filter((s) => s.suptype === 'ac1' || s.suptype === 'ac4');
    expect(kept.length).toBe(3);
    expect(source.length).toBeGreaterThan(kept.length); // the AC2 site
    expect(summary.map((s) => [s.table, s.partition, s.rows, s.rejects])).toEqual([
      ['protected_areas', 'fr.protected-areas', kept.length, 0],
      ['protected_areas_cells', 'fr.protected-areas', expect.any(Number), 0],
    ]);
    expect(logged).toContainEqual('fr.protected-areas: left out 1 AC2 (other SUP categories)');
    const out = await written(dataDir);
    expect(out.map((r) => r.id)).toEqual(kept.map((s) => `fr.protected-areas:${s.idass}`));
    for (const s of kept) {
      const w = out.find((r) => r.id === `fr.protected-areas:${s.idass}`)!;
      const category = s.suptype.toUpperCase();
      expect(w.layer).toBe(LAYERS[`${category} ${s.typeass}`]);
      expect(w.source).toBe('fr.protected-areas');
      expect(JSON.parse(w.attributes)).toEqual({ category, typeass: s.typeass, name: s.nomsuplitt, nomass: s.nomass, nomsuplitt: s.nomsuplitt, idgen: s.idgen });
      // Published in WGS84 with 7 decimals: the outline is written as published.
      expect(JSON.parse(w.geometry)).toEqual(JSON.parse(s.geometry));
    }
    // The cover: every kept area has cells.
    const cells = await duckRows<{ id: string; n: number }>(`SELECT id, count(*)::INTEGER AS n FROM '${dataDir}/tables/protected_areas_cells/country=fr/fr.protected-areas.parquet' GROUP BY id ORDER BY id`);
    expect(cells.map((c) => c.id)).toEqual(out.map((r) => r.id));
  });

  it('reads a CNIG AC1 file in Lambert-93 without suptype (the category from nomass), reprojected; nomass names an area without nomsuplitt', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-protected-l93-'));
    const toL93 = fromWgs84('EPSG:2154');
    const l93 = ring(2.360, 48.855, 2.362, 48.857).map((p) => toL93(p as [number, number]).map((v) => Math.round(v * 100) / 100));
    const file = await geojson(dir, 'AC1_ASSIETTE_SUP_S_075.geojson', [
      feature({ idass: 'AC1-75-9-1-1', idgen: 'AC1-75-9-1', nomass: 'AC1_HotelTest_abor', typeass: 'Périmètre des abords', modegeoass: 'Zone tampon', paramcalc: 500 }, { type: 'Polygon', coordinates: [l93] }),
    ], { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } });
    await ingestProtectedAreas(silentContext(join(dir, 'data')), { path: file });
    const [w] = await written(join(dir, 'data'));
    expect(w!.layer).toBe('historic_monument_surroundings');
    expect(JSON.parse(w!.attributes)).toMatchObject({ category: 'AC1', name: 'AC1_HotelTest_abor', nomsuplitt: null });
    const back = (JSON.parse(w!.geometry).coordinates[0] as [number, number][]).map((p) => toL93(p));
    back.forEach(([x, y], i) => { expect(Math.abs(x - l93[i]![0]!)).toBeLessThan(0.05); expect(Math.abs(y - l93[i]![1]!)).toBeLessThan(0.05); });
    expect(categoryOf({ nomass: 'ac4_Site_ass' })).toBe('AC4');
    expect(categoryOf({ suptype: 'ac1', nomass: 'AC4_Site_ass' })).toBe('AC1'); // suptype, when the layer has it, wins
  });

  it('refuses an unknown assiette type, a missing idass, a point, swapped axes and a duplicate, each with its feature number and reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-protected-bad-'));
    const file = await geojson(dir, 'bad.geojson', [
      feature(ac1('AC1-75-9-1-1')),
      feature(ac1('AC1-75-9-1-2', 'Zone de protection')),
      feature({ ...ac1('AC4-75-9-1-3', 'Périmètre des abords'), suptype: 'ac4' }),
      feature(ac1('')),
      feature(ac1('AC1-75-9-1-4'), { type: 'Point', coordinates: [2.36, 48.85] }),
      feature(ac1('AC1-75-9-1-5'), { type: 'Polygon', coordinates: [ring(48.855, 2.360, 48.857, 2.362)] }),
      feature(ac1('AC1-75-9-1-1')),
      feature({ ...ac1('AC1-75-9-1-6'), nomsuplitt: '', nomass: '' }),
      feature({ idass: 'PM1-75-1-1-1', idgen: 'PM1-75-1-1', nomass: 'PM1_PPRI_ass', typeass: 'Zone réglementée', suptype: 'pm1' }),
    ]);
    const [summary] = await ingestProtectedAreas({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file });
    expect(summary).toMatchObject({ rows: 1, rejects: 7 });
    const rejects = (await duckRows<{ line: number; reason: string }>(`SELECT line, reason FROM read_csv('${join(dir, 'data', 'fr', 'rejects', 'protected_areas.fr.protected-areas.csv')}', delim = ';', header = true, quote = '"', escape = '"') ORDER BY line`))
      .map((r) => `${r.line};${r.reason}`);
    expect(rejects).toEqual([
      '2;typeass "Zone de protection" is not an AC1 assiette type (Monument historique, Périmètre des abords)',
      '3;typeass "Périmètre des abords" is not an AC4 assiette type (Périmètre du SPR)',
      '4;idass: no identifier',
      '5;geometry must be a Polygon or MultiPolygon, not Point',
      '6;outline (48.855, 2.36) to (48.857, 2.362) is not in France: swapped axes or a wrong CRS?',
      '7;duplicate id fr.protected-areas:AC1-75-9-1-1',
      '8;no name: nomsuplitt and nomass are empty',
    ]);
  });

  it('fails on a layer without the assiette attributes, naming them, and on a layer without AC1 or AC4, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-protected-layout-'));
    const zoneUrba = await geojson(dir, 'zone_urba.geojson', [feature({ gid: 3, libelle: 'UG', libelong: 'Zone urbaine générale', typezone: 'U' })]);
    await expect(ingestProtectedAreas(silentContext(join(dir, 'data')), { path: zoneUrba })).rejects.toThrow(/lack the attributes idass, nomass, typeass; found gid, libelle, libelong, typezone/);
    const pm1 = await geojson(dir, 'pm1.geojson', [feature({ idass: 'PM1-75-1-1-1', nomass: 'PM1_PPRI_ass', typeass: 'Zone réglementée', suptype: 'pm1' })]);
    await expect(ingestProtectedAreas(silentContext(join(dir, 'data')), { path: pm1 })).rejects.toThrow(/no AC1 or AC4 assiette in .*pm1\.geojson \(1 feature of PM1\)/);
    expect(existsSync(join(dir, 'data', 'tables', 'protected_areas'))).toBe(false);
    expect(existsSync(join(dir, 'data', 'fr', 'manifest.json'))).toBe(false);
  });

  it('keeps the published partition whole when a new file has too many refused assiettes', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-protected-keep-')), 'data');
    await ingestProtectedAreas(silentContext(dataDir), { path: SAMPLE });
    const before = await written(dataDir);
    const manifest = await readFile(join(dataDir, 'fr', 'manifest.json'), 'utf8');
    const file = await geojson(join(dataDir, '..'), 'half-bad.geojson', [feature(ac1('AC1-75-9-1-1')), feature(ac1('AC1-75-9-1-2', 'Zone de protection'))]);
    await expect(ingestProtectedAreas(silentContext(dataDir), { path: file })).rejects.toThrow(/reject/i);
    expect(await written(dataDir)).toEqual(before);
    expect(await readFile(join(dataDir, 'fr', 'manifest.json'), 'utf8')).toBe(manifest);
  });
});
