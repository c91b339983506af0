import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestSitePolygons } from '../../../ingest/core/site-polygons.ts';
import { FR_SIS } from '../../../ingest/fr/sis.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/sis/sis.geojson');

describe('fr.sis', () => {
  it('writes each area of the sample as an area and a point at its centre, with name, address and date, as DuckDB reads the file', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-sis-')), 'data');
    const summary = await ingestSitePolygons(silentContext(dataDir), { path: SAMPLE }, FR_SIS);
    const source = await duckRows<{ id: string; nom: string; adresse: string; date_maj: string }>(
      `SELECT f.properties.id_sis AS id, f.properties.nom AS nom, f.properties.adresse AS adresse, f.properties.date_maj::VARCHAR AS date_maj FROM (SELECT unnest(features) AS f FROM read_json('${SAMPLE}')) ORDER BY id`);
    expect(summary.map((s) => [s.table, s.partition, s.rejects])).toEqual([['hazard_areas', 'fr.sis', 0], ['hazard_areas_cells', 'fr.sis', 0], ['polluted_sites', 'fr.sis', 0]]);
    const points = await duckRows<{ id: string; category: string; name: string; attributes: string }>(`SELECT id, category, name, attributes FROM '${tableGlob(dataDir, 'fr', 'polluted_sites')}' ORDER BY id`);
    expect(points.map((p) => ({ id: p.id, category: p.category, name: p.name, ...JSON.parse(p.attributes) }))).toEqual(source.map((s) => ({
      id: `fr.sis:${s.id}`, category: 'polluted_site.soil_information_area', name: s.nom, address: s.adresse, status: null, updated_on: s.date_maj,
    })));
    const areas = await duckRows<{ id: string; layer: string }>(`SELECT id, layer FROM '${tableGlob(dataDir, 'fr', 'hazard_areas')}' ORDER BY id`);
    expect(areas).toEqual(source.map((s) => ({ id: `fr.sis:${s.id}`, layer: 'soil_information_area' })));
  });

  it('fails on a layer without id_sis, naming it, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-sis-bad-'));
    const file = join(dir, 'other.geojson');
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
      features: [{ type: 'Feature', properties: { identifiant: 'x', nom: 'y' }, geometry: { type: 'Polygon', coordinates: [[[652000, 6862000], [652100, 6862000], [652100, 6862100], [652000, 6862000]]] } }] }));
    await expect(ingestSitePolygons(silentContext(join(dir, 'data')), { path: file }, FR_SIS)).rejects.toThrow(/lack the attribute id_sis; found identifiant, nom/);
    expect(existsSync(tableDir(join(dir, 'data'), 'fr', 'polluted_sites'))).toBe(false);
  });
});
