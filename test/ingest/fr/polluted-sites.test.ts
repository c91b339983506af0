import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPollutedSites, type PollutedSitesMapping } from '../../../ingest/fr/polluted-sites.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/polluted-sites/basias.geocoded.csv');
const REAL = join(REPO_ROOT, '../shared/realdata/fr/basias_idf_geocoded/basias.geocoded.csv');
// The Kelrisks team's geocoded BASIAS export, read through the job's column options.
const KELRISKS: PollutedSitesMapping = { type: 'former_industrial_activity', id: 'identifiant', lat: 'latitude', lng: 'longitude', address: 'adresse', score: 'result_score', minScore: 0.5 };

async function ingest(file: string, maxRejectShare = 0.01) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-sites-')), 'data');
  const [summary] = await ingestPollutedSites({ ...silentContext(dataDir), maxRejectShare }, { path: file }, KELRISKS);
  const out = await duckRows<{ id: string; latitude: number; longitude: number; category: string; attributes: string }>(
    `SELECT id, latitude, longitude, category, attributes FROM '${dataDir}/tables/polluted_sites/country=fr/*.parquet' ORDER BY id`);
  return { dataDir, summary: summary!, out };
}

/** The file as DuckDB reads it: the sites with a position geocoded at score 0.5 or more. */
const direct = (file: string) => duckRows<{ id: string; lat: number; lng: number; address: string }>(
  `SELECT identifiant AS id, latitude::DOUBLE AS lat, longitude::DOUBLE AS lng, adresse AS address FROM read_csv('${file}', delim = ';', header = true, all_varchar = true)
   WHERE latitude <> '' AND result_score::DOUBLE >= 0.5 ORDER BY id`);

async function expectSameAsSource(file: string, out: Awaited<ReturnType<typeof ingest>>['out']) {
  const source = await direct(file);
  expect(out.map((r) => r.id)).toEqual(source.map((s) => `fr.polluted-sites:${s.id}`));
  for (const s of source) {
    const w = out.find((r) => r.id === `fr.polluted-sites:${s.id}`)!;
    expect([w.latitude, w.longitude, w.category]).toEqual([s.lat, s.lng, 'polluted_site.former_industrial_activity']);
    expect(JSON.parse(w.attributes)).toEqual({ address: s.address, status: null, updated_on: null });
  }
}

describe('fr.polluted-sites', () => {
  it('writes every site of the sample (UTF-8 with BOM) as DuckDB reads the file', async () => {
    const { summary, out } = await ingest(SAMPLE);
    expect(summary).toMatchObject({ table: 'polluted_sites', partition: 'former_industrial_activity.basias_geocoded', rejects: 0 });
    await expectSameAsSource(SAMPLE, out);
  });

  it.skipIf(!existsSync(REAL))('reads the real geocoded export: positions under score 0.5 and rows without one refused with their reason', async () => {
    const { summary, out, dataDir } = await ingest(REAL, 1);
    await expectSameAsSource(REAL, out);
    const all = await duckRows<{ n: number; none: number }>(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE coalesce(latitude, '') = '')::INTEGER AS none FROM read_csv('${REAL}', delim = ';', header = true, all_varchar = true)`);
    expect(summary.rows + summary.rejects).toBe(all[0]!.n);
    const rejects = await readFile(join(dataDir, 'fr', 'rejects', 'polluted_sites.former_industrial_activity.basias_geocoded.csv'), 'utf8');
    expect(rejects.match(/;no position \(latitude, longitude empty or not numbers\);/g)).toHaveLength(all[0]!.none);
    expect(rejects).toMatch(/^3;geocoding score 0\.25 under 0\.5;/m);
  });

  it('refuses a file without the named columns, naming them, and publishes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-sites-bad-'));
    const file = join(dir, 'sites.csv');
    await writeFile(file, 'id;lat;lon\r\nA;48.8;2.3\r\n');
    await expect(ingestPollutedSites(silentContext(join(dir, 'data')), { path: file }, KELRISKS)).rejects.toThrow(/missing columns identifiant, latitude, longitude, adresse, result_score; found id, lat, lon/);
    expect(existsSync(join(dir, 'data', 'tables', 'polluted_sites', 'country=fr'))).toBe(false);
  });
});
