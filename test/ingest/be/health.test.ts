import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { beHealthJob } from '../../../ingest/be/health.job.ts';
import { readXlsxRows } from '../../../ingest/core/readers/xlsx.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { workbook } from '../../helpers/xlsx.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/be/health/Lst_Pharmacies_pub_Extended.xlsx');
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string };
// EPSG:3812 (ETRS89 / Belgian Lambert 2008) from the EPSG dataset, independently of the job's table.
const L08 = '+proj=lcc +lat_0=50.797815 +lon_0=4.35921583333333 +lat_1=49.8333333333333 +lat_2=51.1666666666667 +x_0=649328 +y_0=665262 +ellps=GRS80 +units=m +no_defs';

async function run(file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-health-')), 'data');
  const logs: string[] = [];
  const summary = await beHealthJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  return { dataDir, summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'be', 'places')}' ORDER BY id`), log: logs.join('\n') };
}

describe('be.health (AFMPS pharmacies open to the public)', () => {
  it('one pharmacy place per licence at its Lambert 2008 position; the temporarily closed and the footer note left out', async () => {
    const { summary, rows, log } = await run(SAMPLE);
    const sheet = await readXlsxRows(SAMPLE);
    const open = sheet.slice(2).filter((r) => /^\d+$/.test(r.cells[0] ?? '') && (r.cells[5] ?? '') === '');
    expect(open.length).toBe(7);
    expect(summary[0]).toMatchObject({ partition: 'be.health-afmps', rows: open.length, rejects: 0 });
    for (const r of open) {
      const row = rows.find((x) => x.id === `be.health-afmps.${r.cells[0]}`)!;
      const [lng, lat] = proj4(L08, 'WGS84', [Number(r.cells[8]), Number(r.cells[9])]);
      expect(row).toMatchObject({ name: r.cells[1], category: 'health.pharmacy' });
      expect(row.longitude).toBeCloseTo(lng!, 6);
      expect(row.latitude).toBeCloseTo(lat!, 6);
    }
    expect(log).toContain('1 marked *(1) (temporarily closed)');
    expect(log).toContain("1 the list's footer note");
    expect(JSON.parse(rows.find((r) => r.id === 'be.health-afmps.990004')!.attributes)).toMatchObject({ address: 'Rue Exemple-Haute 101, 1000 Bruxelles', operator: 'PHARMA EXEMPLE SRL (KBO-BCE : 0999000014)' });
  });

  it('refuses a workbook of another layout, naming the missing columns, and a file that is not a workbook', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-be-health-'));
    const other = await workbook(dir, '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row>', ['Naam Nom', 'X']);
    await expect(run(other)).rejects.toThrow(/AFMPS's list of pharmacies.*missing columns Vergunningsnummer Numéro d'autorisation, Status Statut, X \(Lambert 2008\)/);
    await writeFile(join(dir, 'x.xlsx'), readFileSync(join(REPO_ROOT, 'datasets/be/schools/signaletique-fase.csv')));
    await expect(run(join(dir, 'x.xlsx'))).rejects.toThrow(/not an \.xlsx workbook/);
  });
});
