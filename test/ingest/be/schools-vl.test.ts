import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { beSchoolsVlJob } from '../../../ingest/be/schools-vl.job.ts';
import { vlCategory } from '../../../ingest/be/schools-vl.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/be/schools-vl/vestigingsplaatsen-van-scholen.csv');
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string };
// EPSG:31370 written from the EPSG dataset (BD72 -> WGS 84, transformation 15929), independently of the job's table.
const L72 = '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs';

/** The sample as the file says it: CR-separated records, quoted values, BOM before the header. */
function vlFile(path = SAMPLE): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split('\r').filter((l) => l);
  const cells = (l: string) => l.split(';').map((v) => v.replace(/^"|"$/g, ''));
  const cols = cells(head!);
  return lines.map((l) => Object.fromEntries(cells(l).map((v, i) => [cols[i]!, v])));
}

async function run(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-schools-vl-')), 'data');
  const logs: string[] = [];
  const summary = await beSchoolsVlJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  return { dataDir, summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'be', 'places')}' ORDER BY id`), log: logs.join('\n') };
}

describe('be.schools-vl (Flemish Community, onderwijsaanbod vestigingsplaatsen)', () => {
  it('one place per school and site at its Lambert 72 position, CR-only line ends and BOM read as published', async () => {
    const { summary, rows, log } = await run(SAMPLE);
    const kept = vlFile().filter((r) => r['soort instelling'] === 'Onderwijsinstelling' && vlCategory(r.instellingstype!) !== null && !(r.lx === '0' && r.ly === '0'));
    expect(kept.length).toBe(8);
    expect(summary[0]).toMatchObject({ partition: 'be.schools-vl', rows: kept.length, rejects: 0 });
    for (const r of kept) {
      const row = rows.find((x) => x.id === `be.schools-vl.${r.schoolnummer}.${r.intern_vplnummer}`)!;
      const [lng, lat] = proj4(L72, 'WGS84', [Number(r.lx), Number(r.ly)]);
      expect(row.name).toBe(r.naam);
      expect(row.longitude).toBeCloseTo(lng!, 6);
      expect(row.latitude).toBeCloseTo(lat!, 6);
    }
    expect(Object.fromEntries(rows.map((r) => [r.id, r.category]))).toEqual({
      'be.schools-vl.900011.1': 'school.primary', 'be.schools-vl.900011.2': 'school.primary', 'be.schools-vl.900029.1': 'school.high_school',
      'be.schools-vl.900037.1': 'school.kindergarten', 'be.schools-vl.900045.1': 'school.university', 'be.schools-vl.900060.1': 'school.primary',
      'be.schools-vl.900078.1': 'school.high_school', 'be.schools-vl.900086.1': 'school.high_school',
    });
    expect(log).toContain('1 of instellingstype Instelling voor deeltijds kunstonderwijs');
    expect(log).toContain('1 without a position (lx/ly 0)');
    expect(JSON.parse(rows[0]!.attributes)).toMatchObject({ address: 'Voorbeeldstraat 12, 1000 Brussel', main_site: true, network: 'Vrij gesubsidieerd onderwijs', language: 'Nederlandstalig' });
  });

  it('reads the same list with LF line ends; refuses a position outside Belgium by line; refuses another layout naming the columns', async () => {
    const text = readFileSync(SAMPLE, 'utf8');
    const [head, first] = text.split('\r');
    const many = Array.from({ length: 150 }, (_, k) => first!.replace('"900011";"1"', `"${800000 + k}";"1"`));
    const swapped = first!.replace('"900011";"1"', '"700001";"1"').replace(/"(\d+\.\d+)";"(\d+\.\d+)"/, '"$2";"$1"').replace(/"1\d{5}\.\d+";"1\d{5}\.\d+"/, '"999999.00";"999999.00"');
    const dir = await mkdtemp(join(tmpdir(), 'lds-be-schools-vl-'));
    await writeFile(join(dir, 'lf.csv'), [head, ...many, swapped].join('\n') + '\n');
    const { summary, dataDir } = await run(join(dir, 'lf.csv'));
    expect(summary[0]).toMatchObject({ rows: 150, rejects: 1 });
    expect(readFileSync(join(dataDir, 'be', 'rejects', 'places.be.schools-vl.csv'), 'utf8')).toMatch(/is not in Belgium/);
    await writeFile(join(dir, 'other.csv'), '\uFEFF"schoolnummer";"naam";"x";"y"\r"1";"a";"1";"2"\r');
    await expect(run(join(dir, 'other.csv'))).rejects.toThrow(/onderwijsaanbod list of vestigingsplaatsen.*missing columns intern_vplnummer/);
  });

  it('maps the institution types by the level their words name', () => {
    expect(vlCategory('Basisschool')).toBe('school.primary');
    expect(vlCategory('Autonome lagere school')).toBe('school.primary');
    expect(vlCategory('Autonome kleuterschool')).toBe('school.kindergarten');
    expect(vlCategory('School voor voltijds gewoon secundair onderwijs en deeltijds beroepsonderwijs')).toBe('school.high_school');
    expect(vlCategory('Centrum voor deeltijds onderwijs')).toBe('school.high_school');
    expect(vlCategory('Universiteit')).toBe('school.university');
    expect(vlCategory('Instelling voor deeltijds kunstonderwijs')).toBeNull();
    expect(vlCategory('Internaat')).toBeNull();
  });
});
