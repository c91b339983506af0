import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { beSchoolsJob } from '../../../ingest/be/schools.job.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/be/schools/signaletique-fase.csv');
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string };

async function run(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-schools-')), 'data');
  const logs: string[] = [];
  const summary = await beSchoolsJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  return { summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'be', 'places')}' ORDER BY id`), log: logs.join('\n') };
}

describe('be.schools (Fédération Wallonie-Bruxelles, signaletique-fase)', () => {
  it('one place per site and stage, a site teaching kindergarten and primary served as a primary school, as DuckDB reads the file', async () => {
    const { summary, rows, log } = await run(SAMPLE);
    // The file read independently: DuckDB's CSV reader, the stage grouping in SQL.
    const sites = await duckRows<{ site: string; stage: string; n: bigint; primary: boolean; name: string; pos: string }>(`
      SELECT ndeg_fase_de_l_implantation::VARCHAR AS site,
        CASE WHEN type_d_enseignement LIKE 'Maternel%' OR type_d_enseignement LIKE 'Primaire%' THEN 'fondamental'
             WHEN type_d_enseignement LIKE 'Secondaire%' THEN 'secondaire' WHEN type_d_enseignement LIKE 'Promotion sociale%' THEN 'promotion-sociale'
             WHEN type_d_enseignement IN ('Université', 'Haute École', 'École supérieure des Arts') THEN 'superieur' END AS stage,
        count(*) AS n, bool_or(type_d_enseignement LIKE 'Primaire%') AS "primary", any_value(nom_de_l_etablissement) AS name, any_value(geolocalisation) AS pos
      FROM read_csv('${SAMPLE}', delim = ';', header = true, all_varchar = true)
      WHERE stage IS NOT NULL AND coalesce(geolocalisation, '') <> '' GROUP BY ALL ORDER BY site`);
    expect(summary[0]).toMatchObject({ partition: 'be.schools-fwb', rows: sites.length, rejects: 0 });
    expect(rows.map((r) => r.id).sort()).toEqual(sites.map((s) => `be.schools-fwb.${s.site}.${s.stage}`).sort());
    for (const s of sites) {
      const r = rows.find((x) => x.id === `be.schools-fwb.${s.site}.${s.stage}`)!;
      const [lat, lng] = s.pos.split(',').map(Number);
      expect(r).toMatchObject({ name: s.name, latitude: lat, longitude: lng });
      if (s.stage === 'fondamental') expect(r.category).toBe(s.primary ? 'school.primary' : 'school.kindergarten');
    }
    const centre = rows.find((r) => r.id === 'be.schools-fwb.2001.fondamental')!;
    expect(centre.category).toBe('school.primary');
    expect(JSON.parse(centre.attributes)).toMatchObject({ types: ['Maternel ordinaire', 'Primaire ordinaire'], address: 'Rue de la Violette 20, 1000 Bruxelles', network: 'Subventionné communal' });
    expect(rows.find((r) => r.id === 'be.schools-fwb.2007.superieur')!.category).toBe('school.university');
    expect(log).toContain('1 of type Artistique à horaire réduit');
    expect(log).toContain('1 without a position');
  });

  it('refuses a position outside Belgium and a file of another layout, naming the columns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-be-schools-'));
    const head = 'ndeg_fase_de_l_implantation;nom_de_l_etablissement;type_d_enseignement;geolocalisation';
    const ok = Array.from({ length: 120 }, (_, k) => `${3000 + k};École ${k};Primaire ordinaire;"50.8${k % 10}, 4.35"`);
    await writeFile(join(dir, 'f.csv'), [head, ...ok, '9999;Swapped;Primaire ordinaire;"4.35, 50.84"'].join('\n') + '\n');
    expect((await run(join(dir, 'f.csv'))).summary[0]).toMatchObject({ rows: 120, rejects: 1 });
    await writeFile(join(dir, 'other.csv'), 'id;nom\n1;x\n');
    await expect(run(join(dir, 'other.csv'))).rejects.toThrow(/signaletique-fase export \(field names\) \(other.csv\): missing columns ndeg_fase_de_l_implantation, nom_de_l_etablissement, type_d_enseignement, geolocalisation/);
  });
});
