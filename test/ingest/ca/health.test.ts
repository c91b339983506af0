import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { caHealthJob } from '../../../ingest/ca/health.job.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/ca/health/installationscsv.csv');
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string };

async function run(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-ca-health-')), 'data');
  const logs: string[] = [];
  const summary = await caHealthJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  return { dataDir, summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'ca', 'places')}' ORDER BY id`), log: logs.join('\n') };
}

describe('ca.health (MSSS installations, M02 installationscsv.csv)', () => {
  it('one place per installation: hospitals (CHSGS, CHPSY) and CLSCs, as DuckDB reads the file', async () => {
    const { summary, rows, log } = await run(SAMPLE);
    // The file read independently: DuckDB's CSV reader, the documented rule in SQL.
    const expected = await duckRows<{ code: string; name: string; lng: number; lat: number; category: string }>(`
      SELECT INSTAL_COD AS code, INSTAL_NOM AS name, LONGITUDE::DOUBLE AS lng, LATITUDE::DOUBLE AS lat,
        CASE WHEN CHSGS = 'Oui' OR CHPSY = 'Oui' THEN 'health.hospital' WHEN CLSC = 'Oui' THEN 'health.clinic' END AS category
      FROM read_csv('${SAMPLE}', delim = ',', header = true, all_varchar = true) WHERE category IS NOT NULL ORDER BY code`);
    expect(expected.length).toBe(5);
    expect(summary[0]).toMatchObject({ partition: 'ca.health', rows: expected.length, rejects: 0 });
    expect(rows.map((r) => ({ id: r.id, name: r.name, lng: r.longitude, lat: r.latitude, category: r.category })))
      .toEqual(expected.map((e) => ({ id: `ca.health.${e.code}`, name: e.name, lng: e.lng, lat: e.lat, category: e.category })));
    expect(log).toMatch(/left out: .*of missions outside the taxonomy only \(CHSLD\)/);
    expect(log).toContain('of missions outside the taxonomy only (CRDPM, CRDPV)');
    expect(log).toContain('of missions outside the taxonomy only (CPEJ)');
    // A hospital that is also a CLSC and a CHSLD is one place, a hospital, its missions kept.
    const gatineau = rows.find((r) => r.id === 'ca.health.99000082')!;
    expect(gatineau.category).toBe('health.hospital');
    expect(JSON.parse(gatineau.attributes)).toMatchObject({ missions: ['CHSGS', 'CLSC', 'CHSLD'], address: '116, boulevard Exemple, Gatineau J8Y6N1', health_region: 'Outaouais' });
  });

  it('reads the file with a byte-order mark; refuses a bad mission value and a position outside Quebec by line; refuses another layout naming the columns', async () => {
    const [head, ...lines] = readFileSync(SAMPLE, 'utf8').trim().split('\n');
    const clsc = lines[0]!;
    const many = Array.from({ length: 250 }, (_, k) => clsc.replace('"99000017"', `"${98000000 + k}"`));
    const bad = clsc.replace('"99000017"', '"97000001"').replace(/"Oui"/, '"Peut-être"');
    const swapped = clsc.replace('"99000017"', '"97000002"').replace('-73.57901000976562,45.52180099487305', '45.52180099487305,-73.57901000976562');
    const dir = await mkdtemp(join(tmpdir(), 'lds-ca-health-'));
    await writeFile(join(dir, 'installationscsv.csv'), `\uFEFF${[head, ...many, bad, swapped].join('\n')}\n`);
    const { summary, dataDir } = await run(join(dir, 'installationscsv.csv'));
    expect(summary[0]).toMatchObject({ rows: 250, rejects: 2 });
    const rejects = readFileSync(join(dataDir, 'ca', 'rejects', 'places.ca.health.csv'), 'utf8');
    expect(rejects).toMatch(/CLSC "+Peut-être"+ is neither Oui nor Non/);
    expect(rejects).toMatch(/is not a position in Quebec/);
    await writeFile(join(dir, 'other.csv'), 'INSTAL_COD,INSTAL_NOM,X,Y\n"1","a",-73.5,45.5\n');
    await expect(run(join(dir, 'other.csv'))).rejects.toThrow(/MSSS's installations file.*LONGITUDE/);
  });
});
