import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestDpe } from '../../../ingest/fr/dpe.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { fromWgs84 } from '../../../ingest/core/reproject.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { partitionPath } from '../../../schemas/tables/layout.ts';

const REAL = join(REPO_ROOT, '../shared/realdata/fr/dpe/dpe-v2-logements-neufs_69.csv');

describe.skipIf(!existsSync(REAL))('fr.dpe on the real Rhône new-dwellings extract', () => {
  it('reads every diagnosis as published (BOM, accented columns, Lambert-93), replaced numbers sharing the event id', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dpe-real-')), 'data');
    const [s] = await ingestDpe(silentContext(dataDir), { path: REAL });
    expect(s).toMatchObject({ table: 'diagnoses', partition: 'dpe_v2_new-69', rows: 2851, rejects: 0 });
    const file = partitionPath(dataDir, 'fr', 'diagnoses', 'dpe_v2_new-69');
    // Against DuckDB's own reading of the producer's file.
    const published = await duckRows<{ n: string; cls: string; x: number; y: number; t: string }>(
      `SELECT "N°DPE" AS n, "Etiquette_DPE" AS cls, "Coordonnée_cartographique_X_(BAN)" AS x, "Coordonnée_cartographique_Y_(BAN)" AS y, "Type_bâtiment" AS t FROM read_csv('${REAL}', header = true) ORDER BY n`);
    const rows = await duckRows<{ number: string; energy_class: string; longitude: number; latitude: number; level: string; event_id: string }>(`SELECT number, energy_class, longitude, latitude, level, event_id FROM '${file}' ORDER BY number`);
    expect(rows.map((r) => r.number)).toEqual(published.map((p) => p.n));
    const toL93 = fromWgs84('EPSG:2154');
    for (const [i, p] of published.entries()) {
      expect(rows[i]!.energy_class).toBe(p.cls);
      expect(rows[i]!.level).toBe(p.t === 'immeuble' ? 'building' : 'dwelling');
      const [x, y] = toL93([rows[i]!.longitude, rows[i]!.latitude]);
      expect(Math.abs(x - p.x)).toBeLessThan(0.05);
      expect(Math.abs(y - p.y)).toBeLessThan(0.05);
    }
    // In Lyon (Rhône): WGS84 near 45.7 N, 4.8 E.
    expect(rows.every((r) => r.latitude > 45.4 && r.latitude < 46.4 && r.longitude > 4.2 && r.longitude < 5.2)).toBe(true);
    // A diagnosis and the one it replaces, both in the file, are one event; the replaced one is superseded.
    const pairs = await duckRows<{ a: string; b: string; same: boolean; superseded: boolean }>(
      `SELECT n.number AS a, o.number AS b, n.event_id = o.event_id AS same, o.superseded FROM '${file}' n JOIN '${file}' o ON o.number = n.replaces`);
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.every((p) => p.same && p.superseded)).toBe(true);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(rows.length - pairs.length);

    // Re-ingesting changes no id.
    await ingestDpe(silentContext(dataDir), { path: REAL });
    const again = await duckRows<{ number: string; event_id: string }>(`SELECT number, event_id FROM '${file}' ORDER BY number`);
    expect(again.map((r) => r.event_id)).toEqual(rows.map((r) => r.event_id));
  });

  it('refuses a broken line with its line number, and a file lacking a column naming it, publishing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-dpe-bad-'));
    const lines = (await readFile(REAL, 'utf8')).split('\n');
    const broken = lines.slice(0, 40);
    broken[3] = broken[3]!.replace(/^"\d{4}N\d{7}[A-Z]"/, '"XX"');
    await writeFile(join(dir, 'bad.csv'), `${broken.join('\n')}\n`);
    await expect(ingestDpe(silentContext(join(dir, 'data')), { path: join(dir, 'bad.csv') })).rejects.toThrow(/1 of 39 rows rejected/);
    const [s] = await ingestDpe({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { path: join(dir, 'bad.csv') });
    expect(s).toMatchObject({ rows: 38, rejects: 1 });
    expect(await readFile(join(dir, 'data/fr/rejects/diagnoses.dpe_v2_new-69.csv'), 'utf8')).toMatch(/^4;"N°DPE ""XX"" is not a 13-character diagnosis number/m);

    const header = lines[0]!.replace('"Etiquette_DPE",', '');
    await writeFile(join(dir, "other.csv"), `${header}\n${lines[1]}\n`);
    await expect(ingestDpe(silentContext(join(dir, 'data2')), { path: join(dir, 'other.csv') })).rejects.toThrow(/missing columns Etiquette_DPE/);
    expect(existsSync(join(dir, 'data2/fr/diagnoses'))).toBe(false);
  });
});

describe('fr.dpe on the sample', () => {
  it('reads the existing-dwellings sample: scheme from the header, departments as partitions, the dwelling named twice', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dpe-sample-')), 'data');
    const out = await ingestDpe(silentContext(dataDir), { path: join(REPO_ROOT, 'datasets/fr/dpe/dpe-v2-logements-existants-sample.csv') });
    expect(out.map((s) => [s.partition, s.rejects])).toEqual([['dpe_v2_existing-33', 0], ['dpe_v2_existing-75', 0]]);
    const rows = await duckRows<{ number: string; replaces: string | null; superseded: boolean; tax_invariant: string | null; level: string }>(`SELECT number, replaces, superseded, tax_invariant, level FROM '${tableGlob(dataDir, 'fr', 'diagnoses')}'`);
    expect(rows.filter((r) => r.level === 'building')).toHaveLength(1);
    expect(rows.filter((r) => r.superseded)).toHaveLength(1);
    expect(rows.filter((r) => r.tax_invariant === '1110123456')).toHaveLength(2);
  });
});
