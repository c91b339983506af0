import { tableGlob } from '../../../schemas/tables/layout.ts';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { categoryOf, modeOf } from '../../../ingest/generic/gtfs.ts';
import { gtfsJob } from '../../../ingest/generic/gtfs.job.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const T2C = join(REPO_ROOT, '../shared/realdata/fr/gtfs_t2c');
const IDFM = join(REPO_ROOT, 'datasets/fr/gtfs/idfm');

async function rows(dataDir: string, country: string): Promise<{ id: string; category: string; name: string; latitude: number; longitude: number; attributes: Record<string, unknown>; source: string }[]> {
  const db = await DuckDBInstance.create();
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(`SELECT id, category, name, latitude, longitude, attributes, source FROM read_parquet('${tableGlob(dataDir, country, 'places')}') ORDER BY id`);
    return (r.getRowObjectsJS() as Record<string, unknown>[]).map((x) => ({ ...x, attributes: JSON.parse(x.attributes as string) })) as never;
  } finally { c.closeSync(); }
}

const tmpData = async () => join(await mkdtemp(join(tmpdir(), 'lds-gtfs-')), 'data');
function logged(dataDir: string) { const lines: string[] = []; return { ctx: { ...silentContext(dataDir), log: (l: string) => lines.push(l) }, lines }; }

/** stops.txt as a plain comma file (the feeds read here quote nothing). */
function stopsOf(dir: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(join(dir, 'stops.txt'), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l !== '');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

describe('gtfs job', () => {
  it('maps route types to modes and a stop to its heaviest mode', () => {
    expect([modeOf('0'), modeOf('1'), modeOf('2'), modeOf('3'), modeOf('109'), modeOf('700'), modeOf('x')]).toEqual(['tram', 'metro', 'rail', 'bus', 'rail', 'bus', null]);
    expect(categoryOf(new Set(['bus', 'metro'] as const))).toBe('transport.metro');
    expect(categoryOf(new Set([null]))).toBe('transport.stop');
  });

  it('groups stop points under their station, with the lines of every member (Paris sample)', async () => {
    const dataDir = await tmpData();
    const { ctx, lines } = logged(dataDir);
    const [summary] = await gtfsJob.run(ctx, ['--country', 'fr', '--input', IDFM]);
    expect(summary).toMatchObject({ table: 'places', partition: 'gtfs.idfm-operator-100', rejects: 0 });
    const got = await rows(dataDir, 'fr');
    // 10 stop points: 6 stations grouping 7 of them, 3 bus stops alone... Gare de Lyon's one platform included.
    const stops = stopsOf(IDFM).filter((s) => s.location_type === '0');
    const heads = new Set(stops.map((s) => s.parent_station || s.stop_id));
    expect(got.map((r) => r.id.replace('fr.gtfs.idfm-operator-100.', '')).sort()).toEqual([...heads].sort());
    const calvaire = got.find((r) => r.name === 'Filles du Calvaire')!;
    // Metro 8 on one platform, bus 96 on a stop of the same station: a metro station with both lines.
    expect(calvaire.category).toBe('transport.metro');
    expect((calvaire.attributes.lines as { short_name: string }[]).map((l) => l.short_name)).toEqual(['8', '96']);
    expect(calvaire.attributes).toMatchObject({ lines_published: true, wheelchair_accessible: false, stop_ids: ['IDFM:22020', 'IDFM:22021'] });
    expect(calvaire).toMatchObject({ latitude: 48.86317, longitude: 2.36685, source: 'fr.gtfs.idfm-operator-100' });
    expect(got.find((r) => r.name === 'Gare de Lyon')!.category).toBe('transport.train_station');
    expect((got.find((r) => r.name === 'Gare de Lyon')!.attributes.lines as unknown[])[0]).toEqual({ short_name: 'A', long_name: 'RER A', mode: 'rail', color: '#EB2132' });
    // A stop no trip calls at: no line, mode unknown.
    expect(got.find((r) => r.name === 'Saint-Claude')).toMatchObject({ category: 'transport.stop', attributes: { lines: [] } });
    expect(lines.join('\n')).toContain('lines from trips.txt and stop_times.txt');
  });

  it('reads the real T2C extract (no trips): every stop point once under its station, lines empty and said so', async () => {
    const dataDir = await tmpData();
    const { ctx, lines } = logged(dataDir);
    const [summary] = await gtfsJob.run(ctx, ['--country', 'fr', '--input', T2C]);
    const stops = stopsOf(T2C);
    const byId = new Map(stops.map((s) => [s.stop_id, s]));
    const points = stops.filter((s) => s.location_type === '0' || s.location_type === '');
    expect(points).toHaveLength(1350);
    const heads = new Set(points.map((s) => (byId.get(s.parent_station!)?.location_type === '1' ? s.parent_station! : s.stop_id!)));
    expect(summary).toMatchObject({ partition: 'gtfs.6192453782601729', rows: heads.size, rejects: 0 });
    const got = await rows(dataDir, 'fr');
    expect(new Set(got.map((r) => r.id.split('.').slice(3).join('.')))).toEqual(heads);
    // Every route of routes.txt is a bus (route_type 3): the mode is known without trips.
    expect(new Set(got.map((r) => r.category))).toEqual(new Set(['transport.bus']));
    expect(got.every((r) => (r.attributes.lines as unknown[]).length === 0 && r.attributes.lines_published === false)).toBe(true);
    const abpr = got.find((r) => r.id.endsWith('.ABPR'))!;
    expect(abpr).toMatchObject({ name: byId.get('ABPR')!.stop_name, latitude: Number(byId.get('ABPR')!.stop_lat), longitude: Number(byId.get('ABPR')!.stop_lon) });
    expect(abpr.attributes.stop_ids).toEqual(points.filter((s) => s.parent_station === 'ABPR').map((s) => s.stop_id).sort());
    expect(lines.join('\n')).toMatch(/no trips\.txt\/stop_times\.txt in the feed: lines are empty/);
  });

  it('names the partition from the feed, not the file: a zip and a renamed folder replace each other', async () => {
    const dataDir = await tmpData();
    const root = join(dataDir, '..');
    const renamed = join(root, 'my-download');
    cpSync(IDFM, renamed, { recursive: true });
    execFileSync('zip', ['-qj', join(root, 'feed.zip'), ...['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt'].map((f) => join(IDFM, f))]);
    const a = await gtfsJob.run(silentContext(dataDir), ['--country', 'fr', '--input', renamed]);
    const b = await gtfsJob.run(silentContext(dataDir), ['--country', 'fr', '--input', join(root, 'feed.zip')]);
    expect(b[0]!.partition).toBe(a[0]!.partition);
    expect((await rows(dataDir, 'fr')).length).toBe(a[0]!.rows);
  });

  it('adds up several feeds of one country, each with its source', async () => {
    const dataDir = await tmpData();
    for (const f of ['stib', 'delijn', 'sncb']) await gtfsJob.run(silentContext(dataDir), ['--country', 'be', '--input', join(REPO_ROOT, 'datasets/be/gtfs', f)]);
    const got = await rows(dataDir, 'be');
    expect([...new Set(got.map((r) => r.source))].sort()).toEqual(['be.gtfs.1', 'be.gtfs.dl', 'be.gtfs.nmbs-sncb']);
    const manifest = JSON.parse(readFileSync(join(dataDir, 'be', 'manifest.json'), 'utf8')) as { partitions: { partition: string; sources: { id: string }[] }[] };
    expect(manifest.partitions.map((p) => `${p.partition}:${p.sources[0]!.id}`).sort()).toEqual(['gtfs.1:be.gtfs.1', 'gtfs.dl:be.gtfs.dl', 'gtfs.nmbs-sncb:be.gtfs.nmbs-sncb']);
    // SNCB's sample has no trips: a train station (its only route type) with no line.
    expect(got.find((r) => r.name === 'Bruxelles-Central')).toMatchObject({ category: 'transport.train_station', attributes: { lines: [], lines_published: false } });
  });

  it('refuses a feed without stops.txt and publishes nothing', async () => {
    const dataDir = await tmpData();
    const feed = join(dataDir, '..', 'nostops');
    mkdirSync(feed);
    writeFileSync(join(feed, 'agency.txt'), 'agency_id,agency_name,agency_url,agency_timezone\nX,X,https://x.example,Europe/Paris\n');
    await expect(gtfsJob.run(silentContext(dataDir), ['--country', 'fr', '--input', feed])).rejects.toThrow(/has no stops\.txt: it publishes no stop, nothing was ingested/);
    expect(existsSync(join(dataDir, 'tables', 'places', 'country=fr'))).toBe(false);
    expect(existsSync(join(dataDir, 'fr', 'manifest.json'))).toBe(false);
  });

  it('refuses a stops.txt without any stop point, and publishes nothing', async () => {
    const dataDir = await tmpData();
    const feed = join(dataDir, '..', 'stations-only');
    mkdirSync(feed);
    writeFileSync(join(feed, 'stops.txt'), 'stop_id,stop_name,stop_lat,stop_lon,location_type\nS1,Gare,48.8,2.3,1\n');
    await expect(gtfsJob.run(silentContext(dataDir), ['--country', 'fr', '--input', feed])).rejects.toThrow(/stops\.txt has no stop point/);
    expect(existsSync(join(dataDir, 'fr', 'manifest.json'))).toBe(false);
  });

  it('refuses a file that is neither a folder nor a zip, with a clear message', async () => {
    const dataDir = await tmpData();
    const bad = join(dataDir, '..', 'feed.zip');
    writeFileSync(bad, 'not a zip');
    await expect(gtfsJob.run(silentContext(dataDir), ['--country', 'fr', '--input', bad])).rejects.toThrow(/neither a folder nor a readable zip of a GTFS feed/);
  });
});
