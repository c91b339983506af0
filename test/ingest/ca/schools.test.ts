import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { caSchoolsJob } from '../../../ingest/ca/schools.job.ts';
import { caSchoolCategory } from '../../../ingest/ca/schools.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/ca/schools/pps_public_ecole.geojson');
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string };

async function run(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-schools-')), 'data');
  const logs: string[] = [];
  const summary = await caSchoolsJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  return { summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'ca', 'places')}' ORDER BY id`), log: logs.join('\n') };
}

describe('ca.schools', () => {
  it('writes one place per school and building, its category from the levels taught there', async () => {
    const { summary, rows, log } = await run(SAMPLE);
    const features = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { features: { properties: Record<string, unknown>; geometry: { coordinates: [number, number] } }[] }).features;
    const taught = features.filter((f) => caSchoolCategory(f.properties) !== null);
    expect(summary[0]).toMatchObject({ partition: 'ca.schools', rows: taught.length, rejects: 0 });
    expect(log).toContain('1 teaching none of the levels');
    for (const f of taught) {
      const r = rows.find((x) => x.id === `ca.schools.${f.properties.COMBINE_NUO_NUI}`)!;
      expect(r).toMatchObject({ name: f.properties.NOM_OFFCL_ORGNS, longitude: f.geometry.coordinates[0], latitude: f.geometry.coordinates[1] });
    }
    expect(rows.map((r) => r.category)).toEqual(['school.primary', 'school.kindergarten', 'school.high_school', 'school.training']);
    expect(JSON.parse(rows[0]!.attributes)).toMatchObject({ address: '4200, rue Sample, Montréal H2J2L1', levels: 'Préscolaire - Primaire' });
  });

  it('refuses a feature outside Quebec, and a layer of another layout naming the properties', async () => {
    const fc = JSON.parse(readFileSync(SAMPLE, 'utf8'));
    const base = fc.features[0];
    fc.features = [...Array.from({ length: 120 }, (_, k) => ({ ...base, properties: { ...base.properties, COMBINE_NUO_NUI: `x${k}` } })),
      { ...base, properties: { ...base.properties, COMBINE_NUO_NUI: 'swapped' }, geometry: { type: 'Point', coordinates: [45.52, -73.58] } }];
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-schools-'));
    writeFileSync(join(dir, 'pps_public_ecole.geojson'), JSON.stringify(fc));
    expect((await run(join(dir, 'pps_public_ecole.geojson'))).summary[0]).toMatchObject({ rows: 120, rejects: 1 });
    writeFileSync(join(dir, 'other.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { nom: 'x' }, geometry: { type: 'Point', coordinates: [-73.58, 45.52] } }] }));
    await expect(run(join(dir, 'other.geojson'))).rejects.toThrow(/not the Ministère de l'Éducation's PPS_Public_Ecole layer: missing the properties COMBINE_NUO_NUI/);
  });
});
