import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { fileStatus, ingestContaminatedLand, siteStatus } from '../../../ingest/ca/contaminated-land.ts';
import { CA_COASTAL_EROSION, CA_FLOOD, CA_LANDSLIDE, floodLevel } from '../../../ingest/ca/hazard-zones.ts';
import { ingestHazardPolygons } from '../../../ingest/core/hazard-polygons.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { partitionPath, tableGlob, tableDir } from '../../../schemas/tables/layout.ts';

const require = createRequire(import.meta.url);
const sqlJs = () => initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
const GPKG = join(REPO_ROOT, 'datasets/ca/contaminated-land/RepertoireTerrainsContamines.gpkg');
const LAYERS = [
  { spec: CA_FLOOD, file: 'datasets/ca/flood-zones/zones_inondables.geojson', attr: 'TYPE_ZONE' },
  { spec: CA_LANDSLIDE, file: 'datasets/ca/landslide/zones_contraintes_glissements.geojson', attr: 'CLASSE' },
  { spec: CA_COASTAL_EROSION, file: 'datasets/ca/coastal-erosion/zones_contraintes_erosion_cotiere.geojson', attr: 'TYPE_COTE' },
];

describe('Quebec hazard zones (ca.flood-zones, ca.landslide, ca.coastal-erosion)', () => {
  it('maps return periods as the issue says: 0-20 years high, 20-100 moderate, none present; refuses anything else', () => {
    expect(['0-20 ans', '0 - 20 ans', '0–20 ans (grand courant)', '20-100 ans', 'Zone inondable sans cote', 'sans récurrence', '100 ans', '', '0-2 ans'].map(floodLevel))
      .toEqual(['high', 'high', 'high', 'moderate', 'present', 'present', null, null, null]);
  });

  for (const { spec, file, attr } of LAYERS) {
    it(`${spec.source.id}: writes every polygon of the sample with its class, reprojected from Quebec Lambert (checked against DuckDB on the file)`, async () => {
      const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-haz-')), 'data');
      const path = join(REPO_ROOT, file);
      const summary = await ingestHazardPolygons(silentContext(dataDir), { path }, spec);
      expect(summary.map((s) => [s.table, s.partition, s.rejects])).toEqual([['hazard_areas', spec.source.id, 0], ['hazard_areas_cells', spec.source.id, 0]]);
      const source = await duckRows<{ id: string; cls: string; x: number; y: number }>(
        `SELECT f.properties.NO_ZONE AS id, f.properties.${attr} AS cls, f.geometry.coordinates[1][1][1]::DOUBLE AS x, f.geometry.coordinates[1][1][2]::DOUBLE AS y
         FROM (SELECT unnest(features) AS f FROM read_json('${path}')) ORDER BY id`);
      const out = await duckRows<{ id: string; layer: string; attributes: string; geometry: string }>(`SELECT id, layer, attributes, geometry FROM '${partitionPath(dataDir, 'ca', 'hazard_areas', spec.source.id)}' ORDER BY id`);
      expect(out.map((r) => r.id)).toEqual(source.map((s) => `${spec.source.id}:${s.id}`));
      const toLambert = fromWgs84('EPSG:32198');
      for (const s of source) {
        const w = out.find((r) => r.id === `${spec.source.id}:${s.id}`)!;
        expect(w.layer).toBe(spec.layer);
        const a = JSON.parse(w.attributes);
        expect(a.level).toBe(spec === CA_FLOOD ? floodLevel(s.cls) : 'present');
        const [x, y] = toLambert(JSON.parse(w.geometry).coordinates[0][0]);
        expect(Math.abs(x - s.x)).toBeLessThan(0.05);
        expect(Math.abs(y - s.y)).toBeLessThan(0.05);
      }
    });
  }

  it('refuses an unknown return period with its feature number, and fails on another layer naming the missing attribute, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-flood-bad-'));
    const sq = [[[-230000, 260000], [-229000, 260000], [-229000, 261000], [-230000, 260000]]];
    const crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32198' } };
    const file = join(dir, 'zi.geojson');
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', crs, features: [
      { type: 'Feature', properties: { NO_ZONE: 'a', TYPE_ZONE: '0-20 ans' }, geometry: { type: 'Polygon', coordinates: sq } },
      { type: 'Feature', properties: { NO_ZONE: 'b', TYPE_ZONE: '100-500 ans' }, geometry: { type: 'Polygon', coordinates: sq } },
    ] }));
    const [summary] = await ingestHazardPolygons({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: file }, CA_FLOOD);
    expect(summary).toMatchObject({ rows: 1, rejects: 1 });
    expect(await readFile(join(dir, 'data', 'ca', 'rejects', 'hazard_areas.ca.flood-zones.csv'), 'utf8')).toMatch(/^2;"TYPE_ZONE ""100-500 ans"" is not a return period/m);

    const other = join(dir, 'other.geojson');
    await writeFile(other, JSON.stringify({ type: 'FeatureCollection', crs, features: [{ type: 'Feature', properties: { NO_ZONE: 'x', RECURRENCE: 20 }, geometry: { type: 'Polygon', coordinates: sq } }] }));
    await expect(ingestHazardPolygons(silentContext(join(dir, 'data2')), { path: other }, CA_FLOOD)).rejects.toThrow(/lack the attribute TYPE_ZONE; found NO_ZONE, RECURRENCE/);
    expect(existsSync(tableDir(join(dir, 'data2'), 'ca', 'hazard_areas'))).toBe(false);
  });
});

describe('ca.contaminated-land (Répertoire des terrains contaminés, GeoPackage)', () => {
  it('derives a site status from its files: works under way first, remediated only when every file is', () => {
    expect(['Initiée', 'Non débutée', 'Non nécessaire', 'Terminée en 2016', 'Terminée', '', null, 'Autre'].map(fileStatus))
      .toEqual(['under_treatment', 'confirmed', 'confirmed', 'remediated', 'remediated', 'unknown', 'unknown', 'unknown']);
    expect(siteStatus(['remediated', 'under_treatment'])).toBe('under_treatment');
    expect(siteStatus(['remediated', 'confirmed'])).toBe('confirmed');
    expect(siteStatus(['remediated', 'remediated'])).toBe('remediated');
    expect(siteStatus(['remediated', 'unknown'])).toBe('unknown');
    expect(siteStatus([])).toBe('unknown');
  });

  it('writes one point per site of the sample, with address, status and latest file date as SQLite reads the GeoPackage', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-rtc-')), 'data');
    const [summary] = await ingestContaminatedLand(silentContext(dataDir), { path: GPKG });
    const SQL = await sqlJs();
    const db = new SQL.Database(await readFile(GPKG));
    const [res] = db.exec(`SELECT p.NO_MEF_LIEU, p.LATITUDE, p.LONGITUDE, p.ADR_CIV_LIEU, max(f.DATE_CRE_MAJ), group_concat(f.ETAT_REHAB, '|')
      FROM point p LEFT JOIN detailsFiches f USING (NO_MEF_LIEU) GROUP BY p.NO_MEF_LIEU ORDER BY p.NO_MEF_LIEU`);
    db.close();
    const expected = res!.values.map(([id, lat, lng, adr, date, etats]) => ({
      id: `ca.contaminated-land:${id}`, latitude: lat, longitude: lng, address: adr, updated_on: date,
      status: siteStatus(etats === null ? [] : String(etats).split('|').map(fileStatus)),
    }));
    expect(summary).toMatchObject({ table: 'polluted_sites', partition: 'ca.contaminated-land', rows: expected.length, rejects: 0 });
    const rows = await duckRows<{ id: string; latitude: number; longitude: number; category: string; name: string | null; attributes: string }>(
      `SELECT id, latitude, longitude, category, name, attributes FROM '${tableGlob(dataDir, 'ca', 'polluted_sites')}' ORDER BY id`);
    expect(rows.map((r) => ({ id: r.id, latitude: r.latitude, longitude: r.longitude, ...JSON.parse(r.attributes) }))).toEqual(expected);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(['polluted_site.contaminated_land']));
    expect(rows.every((r) => r.name === null)).toBe(true);
    expect(new Set(expected.map((e) => e.status))).toEqual(new Set(['remediated', 'under_treatment', 'confirmed', 'unknown']));
  });

  it('refuses a site without a position or outside Quebec with its row and reason; fails on a GeoPackage without the Répertoire layers, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-rtc-bad-'));
    const SQL = await sqlJs();
    const db = new SQL.Database(await readFile(GPKG));
    db.run(`INSERT INTO point (NO_MEF_LIEU, LATITUDE, LONGITUDE, ADR_CIV_LIEU) VALUES ('x-1', NULL, NULL, 'Nulle part'), ('x-2', -73.58, 45.52, 'Inversé')`);
    const bad = join(dir, 'rtc.gpkg');
    await writeFile(bad, db.export());
    db.run('DROP TABLE detailsFiches');
    const noFiles = join(dir, 'nofiles.gpkg');
    await writeFile(noFiles, db.export());
    db.close();
    const [summary] = await ingestContaminatedLand({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: bad });
    expect(summary).toMatchObject({ rows: 5, rejects: 2 });
    const rejects = await readFile(join(dir, 'data', 'ca', 'rejects', 'polluted_sites.ca.contaminated-land.csv'), 'utf8');
    expect(rejects).toMatch(/^6;no position \(LATITUDE, LONGITUDE empty or not numbers\);/m);
    expect(rejects).toMatch(/^7;position -73.58, 45.52 outside Quebec/m);
    await expect(ingestContaminatedLand(silentContext(join(dir, 'data2')), { path: noFiles })).rejects.toThrow(/no layer detailsFiches in the GeoPackage; found point/);
    await expect(ingestContaminatedLand(silentContext(join(dir, 'data2')), { path: join(REPO_ROOT, 'datasets/ca/flood-zones/zones_inondables.geojson') })).rejects.toThrow(/not a GeoPackage/);
    expect(existsSync(tableDir(join(dir, 'data2'), 'ca', 'polluted_sites'))).toBe(false);
  });
});
