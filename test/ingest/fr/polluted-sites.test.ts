import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import proj4 from 'proj4';
import { ingestPollutedSites, SITE_LAYOUTS, type PollutedSitesMapping } from '../../../ingest/fr/polluted-sites.ts';
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

describe('fr.polluted-sites --layout basol', () => {
  const BASOL = join(REPO_ROOT, 'datasets/fr/polluted-sites/basol.csv');
  // Lambert II étendu (EPSG:27572), the file's other pair of coordinates: an independent check of the Lambert-93 pair read.
  const L2E = '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +a=6378249.2 +b=6356515 +towgs84=-168,-60,320,0,0,0,0 +pm=paris +units=m +no_defs';
  const metres = (a: [number, number], b: [number, number]) => Math.hypot((a[0] - b[0]) * 111_320 * Math.cos((a[1] * Math.PI) / 180), (a[1] - b[1]) * 110_540);

  it("writes BASOL's sites as contaminated land, their Lambert-93 positions in WGS84, state, address and date as DuckDB reads the file", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-basol-')), 'data');
    const [summary] = await ingestPollutedSites(silentContext(dataDir), { path: BASOL }, SITE_LAYOUTS.basol);
    expect(summary).toMatchObject({ table: 'polluted_sites', partition: 'contaminated_land.basol', rejects: 0 });
    const out = await duckRows<{ id: string; latitude: number; longitude: number; category: string; attributes: string }>(
      `SELECT id, latitude, longitude, category, attributes FROM '${dataDir}/tables/polluted_sites/country=fr/*.parquet' ORDER BY id`);
    const file = await duckRows<{ id: string; etat: string; adresse: string; commune: string; date: string; x2: string; y2: string }>(
      `SELECT numero_basol AS id, sp2_etat AS etat, sp1_adresse AS adresse, nom_commune AS commune, date_publication AS date, sp1_x AS x2, sp1_y AS y2
       FROM read_csv('${BASOL}', delim = ';', header = true, all_varchar = true) ORDER BY id`);
    expect(out.map((r) => r.id)).toEqual(file.map((f) => `fr.polluted-sites:${f.id}`));
    for (const f of file) {
      const w = out.find((r) => r.id === `fr.polluted-sites:${f.id}`)!;
      expect(w.category).toBe('polluted_site.contaminated_land');
      expect(JSON.parse(w.attributes)).toEqual({ address: `${f.adresse}, ${f.commune}`, status: f.etat, updated_on: f.date });
      const l2e = proj4(L2E, 'EPSG:4326', [Number(f.x2), Number(f.y2)]) as [number, number];
      expect(metres([w.longitude, w.latitude], l2e), f.id).toBeLessThan(5);
    }
  });

  it('refuses a site the producer left unlocated (coordinates 0) and reads a French date', async () => {
    const text = await readFile(BASOL, 'utf8');
    const [header, first] = text.split('\n');
    const cells = first!.split(';');
    const unlocated = [...cells];
    unlocated[3] = '75.0063'; unlocated[13] = '0'; unlocated[14] = '0';
    const french = [...cells];
    french[3] = '75.0064'; french[6] = '05/03/2019';
    const file = join(await mkdtemp(join(tmpdir(), 'lds-basol-in-')), 'basol.csv');
    await writeFile(file, [header, unlocated.join(';'), french.join(';'), ''].join('\n'));
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-basol-')), 'data');
    const [summary] = await ingestPollutedSites({ ...silentContext(dataDir), maxRejectShare: 1 }, { path: file }, SITE_LAYOUTS.basol);
    expect(summary!.rejects).toBe(1);
    const rejects = await readFile(join(dataDir, 'fr', 'rejects', 'polluted_sites.contaminated_land.basol.csv'), 'utf8');
    expect(rejects).toMatch(/^2;no position \(sp1_x93, sp1_y93 zero: not located\);/m);
    const out = await duckRows<{ attributes: string }>(`SELECT attributes FROM '${dataDir}/tables/polluted_sites/country=fr/*.parquet'`);
    expect(JSON.parse(out[0]!.attributes).updated_on).toBe('2019-03-05');
  });
});
