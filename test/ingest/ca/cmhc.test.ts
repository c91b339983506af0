import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestCmhc, nameKey, surveyMonth } from '../../../ingest/ca/cmhc.ts';
import { jobById, REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

/** The publication date the jobs record (here the sample's first commit date: the samples are ours). */
const PUBLISHED = '2026-11-24';

const RENTS = join(REPO_ROOT, 'datasets/ca/cmhc/rms_average_rent_montreal_2024.csv');
const VACANCY = join(REPO_ROOT, 'datasets/ca/cmhc/rms_vacancy_montreal_2024.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/ca/cmhc_rms_hmip_export/rms_vacancy_vancouver.csv');

let dataDir: string;
beforeAll(async () => {
  // Quebec's zones first: the export's zones are matched to the rental-survey neighbourhoods by name.
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-cmhc-')), 'data');
  const zones = jobById('ca.zones')!;
  for (const argv of zones.samples) await zones.run(silentContext(dataDir), argv);
});

describe('ca.cmhc', () => {
  it('reads survey months and zone names as HMIP writes them', () => {
    expect(surveyMonth('Row / Apartment October 2024')).toEqual({ start: '2024-10-01', end: '2024-10-31' });
    expect(surveyMonth('1990 October')).toEqual({ start: '1990-10-01', end: '1990-10-31' });
    expect(nameKey('Zone 5 - Plateau-Mont-Royal/Mile End/Outremont')).toBe(nameKey('Plateau-Mont-Royal / Mile End / Outremont'));
  });

  it('writes every cell of the average-rent table of the sample, letters as reliability, ** as withheld', async () => {
    const logged: string[] = [];
    const parts = await ingestCmhc({ ...silentContext(dataDir), log: (l) => logged.push(l) }, { publishedAt: PUBLISHED, path: RENTS });
    expect(parts.map((p) => p.partition)).toEqual(['ca.cmhc.average.2024']);
    // The CMA's total row is no rental-survey neighbourhood: said, not served.
    expect(logged).toEqual(['ca.cmhc: skipped Montréal CMA: not a rental-survey neighbourhood of Quebec in ca/zones']);
    const rows = await duckRows<{ code: string; breakdown: string | null; value: number | null; reliability: string | null; suppressed: boolean; unit: string }>(
      `SELECT code, breakdown, value, reliability, suppressed, unit FROM '${dataDir}/tables/zone_values/country=ca/ca.cmhc.average.2024.parquet' ORDER BY code, breakdown NULLS LAST`);
    // The file itself, decoded from Windows-1252, is the reference.
    const text = iconv.decode(await readFile(RENTS), 'windows-1252').split('\r\n');
    const plateau = text.find((l) => l.startsWith('Zone 5'))!.split(',');
    const plateauRow = (b: string | null) => rows.find((r) => r.code === 'Q0105' && r.breakdown === b)!.value;
    expect([plateauRow('studio'), plateauRow('one_bedroom'), plateauRow('two_bedrooms'), plateauRow('three_bedrooms_plus'), plateauRow(null)])
      .toEqual([1, 3, 5, 7, 9].map((i) => Number(plateau[i])));
    expect(rows.find((r) => r.code === 'Q0105' && r.breakdown === 'three_bedrooms_plus')).toMatchObject({ reliability: 'medium', unit: 'CAD/month' });
    expect(rows.find((r) => r.code === 'Q0201' && r.breakdown === 'studio')).toMatchObject({ value: null, suppressed: true, reliability: null });
    expect(new Set(rows.map((r) => r.code))).toEqual(new Set(['Q0105', 'Q0109', 'Q0201']));
  });

  it('writes the vacancy rates beside the rents', async () => {
    await ingestCmhc(silentContext(dataDir), { publishedAt: PUBLISHED, path: VACANCY });
    const [row] = await duckRows<{ value: number; unit: string; reliability: string }>(
      `SELECT value, unit, reliability FROM '${dataDir}/tables/zone_values/country=ca/ca.cmhc.vacancy_rate.2024.parquet' WHERE code = 'Q0109' AND breakdown = 'three_bedrooms_plus'`);
    expect(row).toEqual({ value: 3.1, unit: '%', reliability: 'low' });
  });

  it.skipIf(!existsSync(REAL))('refuses the real Vancouver history whole: no Quebec neighbourhood, nothing published', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'lds-cmhc-real-')), 'data');
    const zones = jobById('ca.zones')!;
    for (const argv of zones.samples) await zones.run(silentContext(dir), argv);
    await expect(ingestCmhc(silentContext(dir), { publishedAt: PUBLISHED, path: REAL })).rejects.toThrow(/names no rental-survey neighbourhood of Quebec .*1990 October of an unnamed geography/);
    expect(existsSync(join(dir, 'tables', 'zone_values', 'country=ca'))).toBe(false);
  });

  it('refuses a table of another kind, naming its title', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cmhc-bad-'));
    const file = join(dir, 'starts.csv');
    await (await import('node:fs/promises')).writeFile(file, 'Montréal CMA — Housing Starts by Dwelling Type\r\n2024\r\n,Single,,Total,,\r\n');
    await expect(ingestCmhc(silentContext(join(dir, 'data')), { publishedAt: PUBLISHED, path: file })).rejects.toThrow(/not an HMIP Rental Market Survey table .*Housing Starts/);
  });
});
