import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { bpeJob } from '../../../ingest/fr/bpe.job.ts';
import { BPE_CATEGORIES } from '../../../ingest/fr/bpe.ts';
import { PLACE_CATEGORY_CODES } from '../../../schemas/categories.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/bpe/bpe_ensemble_xy.csv');
const HEADER = 'REG;DEP;DEPCOM;DCIRIS;AN;TYPEQU;LAMBERT_X;LAMBERT_Y;QUALITE_XY';
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string; source: string };

async function run(file = SAMPLE) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-bpe-')), 'data');
  const logs: string[] = [];
  const ctx = { ...silentContext(dataDir), log: (l: string) => logs.push(l) };
  const summary = await bpeJob.run(ctx, ['--input', file]);
  return { dataDir, summary, logs };
}
const readRows = (dataDir: string) => duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'fr', 'places')}' ORDER BY id`);

describe('fr.bpe', () => {
  it('maps only codes of the taxonomy', () => {
    for (const c of Object.values(BPE_CATEGORIES)) expect(PLACE_CATEGORY_CODES).toContain(c);
  });

  it('reads the Windows-1252 file: one place per category and position, units added, positions projected by department', async () => {
    const { dataDir, summary, logs } = await run();
    const rows = await readRows(dataDir);
    // 22 rows: 3 doctors at one practice are one place, D101 + D106 one hospital; A101, "Non géolocalisé" and "Mauvaise" left out.
    expect(summary).toMatchObject([{ table: 'places', partition: 'fr.bpe', rows: 22 - 2 - 1 - 3, rejects: 0 }]);
    expect(rows).toHaveLength(16);
    expect(logs.join('\n')).toContain('fr.bpe: 16 points from 22 rows, 0 refused; left out: ');
    expect(logs.join('\n')).toContain('1 of a type outside the taxonomy');
    expect(logs.join('\n')).toContain('1 not geolocated by INSEE');
    expect(logs.join('\n')).toContain('1 with a position INSEE qualifies "Mauvaise"');
    const practice = rows.filter((r) => r.category === 'health.doctor' && r.id.includes('75111'));
    expect(practice).toHaveLength(1);
    expect(practice[0]!.latitude).toBeCloseTo(48.8591, 6);
    expect(practice[0]!.longitude).toBeCloseTo(2.3689, 6);
    expect(JSON.parse(practice[0]!.attributes)).toMatchObject({ units: 3, types: ['D201'], position_quality: 'good', commune_code: '75111', year: '2021' });
    const hospital = rows.find((r) => r.category === 'health.hospital')!;
    expect(JSON.parse(hospital.attributes)).toMatchObject({ units: 2, types: ['D101', 'D106'] });
    // Both pharmacy codes (before and after INSEE's 2021 revision).
    expect(rows.filter((r) => r.category === 'health.pharmacy').map((r) => r.id.split('.')[2])).toEqual(['33001', '75103', '75111', '97411']);
    // La Réunion: UTM 40S, not Lambert-93.
    const reunion = rows.find((r) => r.id.includes('97411'))!;
    expect(reunion.latitude).toBeCloseTo(-20.8789, 6);
    expect(reunion.longitude).toBeCloseTo(55.4481, 6);
    // Abzac.
    const abzac = rows.find((r) => r.category === 'school.primary' && r.id.includes('33001'))!;
    expect([abzac.latitude, abzac.longitude]).toEqual([expect.closeTo(45.0141, 6), expect.closeTo(-0.1271, 6)]);
    expect(rows.every((r) => r.name === null && r.source === 'fr.bpe')).toBe(true);
  });

  it('the same file read twice gives the same ids (content, never the line)', async () => {
    const lines = readFileSync(SAMPLE, 'latin1').trim().split('\r\n');
    const shuffled = join(await mkdtemp(join(tmpdir(), 'lds-bpe-')), 'shuffled.csv');
    writeFileSync(shuffled, [lines[0], ...lines.slice(1).reverse()].join('\r\n') + '\r\n', 'latin1');
    const a = (await readRows((await run()).dataDir)).map((r) => r.id);
    const b = (await readRows((await run(shuffled)).dataDir)).map((r) => r.id);
    expect(b).toEqual(a);
  });

  it('refuses broken rows with their line and reason, and a file of another layout naming the columns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-bpe-'));
    const rows = [HEADER, ...Array.from({ length: 200 }, (_, k) => `11;75;75103;751031002;2021;D301;${653000 + k}.00;6862000.00;Bonne`),
      '11;75;75103;751031002;2021;D301;abc;6862000.00;Bonne', '11;75;75103;751031002;2021;D301;653000.00;6862000.00;Excellente'];
    const file = join(dir, 'bpe.csv');
    writeFileSync(file, iconv.encode(rows.join('\r\n') + '\r\n', 'win1252'));
    const { dataDir, summary } = await run(file);
    expect(summary[0]).toMatchObject({ rows: 200, rejects: 2 });
    const rejects = readFileSync(join(dataDir, 'fr/rejects/places.fr.bpe.csv'), 'utf8');
    expect(rejects).toContain('202;LAMBERT_X/LAMBERT_Y is not a number');
    expect(rejects).toContain('203;"QUALITE_XY ""Excellente"" is none of');

    const other = join(dir, 'other.csv');
    writeFileSync(other, 'DEPCOM;TYPEQU;X;Y\n75103;D301;1;2\n');
    await expect(run(other)).rejects.toThrow(/not INSEE's BPE geolocated file.*missing columns DEP, LAMBERT_X, LAMBERT_Y, QUALITE_XY/);
  });
});
