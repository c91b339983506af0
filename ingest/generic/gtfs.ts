import { fileProgress } from '../core/progress.ts';
import type { TransportMode } from '../../schemas/variant-places.ts';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { Source } from '../../datasets/source.ts';
import type { Country } from '../../schemas/common.ts';
import { publish, type JobContext, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { readCsv } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';

/**
 * Any GTFS feed (gtfs.org/schedule/reference) -> <country>/places: one place per stop point
 * (location_type 0 or empty), the stop points of one parent station grouped as that station; the
 * lines calling at it from trips.txt + stop_times.txt + routes.txt when the feed has them (an empty
 * list, said in the log, when it has not); wheelchair_boarding as published.
 * The partition and the source are named from the feed's agencies, never from the file name, so
 * several feeds of one country add up and the same feed under another name replaces itself.
 */

/** The modes of the contract (schemas/variant-places.ts: transport stops of spec 2.12). */
export type Mode = TransportMode;
export interface Line { short_name: string | null; long_name: string | null; mode: Mode | null; color: string | null }

/** GTFS route_type (basic and extended Hierarchical Vehicle Types) -> mode. */
export function modeOf(routeType: string): Mode | null {
  const t = Number(routeType);
  if (!Number.isInteger(t)) return null;
  const basic: Record<number, Mode> = { 0: 'tram', 1: 'metro', 2: 'rail', 3: 'bus', 4: 'ferry', 5: 'cable', 6: 'cable', 7: 'cable', 11: 'bus', 12: 'metro' };
  if (t in basic) return basic[t]!;
  if (t >= 100 && t < 200) return 'rail';
  if ((t >= 200 && t < 300) || (t >= 700 && t < 900)) return 'bus';
  if (t >= 400 && t < 500) return 'metro';
  if (t >= 900 && t < 1000) return 'tram';
  if (t >= 1000 && t < 1100) return 'ferry';
  if (t >= 1300 && t < 1500) return 'cable';
  return null;
}

/** A stop's category: its heaviest mode (a station served by trains and buses is a train station). */
const CATEGORY_BY_MODE: [Mode, string][] = [
  ['rail', 'transport.train_station'], ['metro', 'transport.metro'], ['tram', 'transport.tram'],
  ['ferry', 'transport.ferry'], ['cable', 'transport.cable'], ['bus', 'transport.bus'],
];
export function categoryOf(modes: ReadonlySet<Mode | null>): string {
  for (const [m, c] of CATEGORY_BY_MODE) if (modes.has(m)) return c;
  return 'transport.stop';
}

const FILES = ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt'];

/** The feed's files in a folder: the folder itself, or the members of a zip extracted to a temporary one. */
async function openFeed(input: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  if ((await stat(input)).isDirectory()) return { dir: input, cleanup: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'ingest-gtfs-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const zip = await yauzl.openPromise(input, { lazyEntries: true, autoClose: false });
    try {
      for await (const entry of zip.eachEntry()) {
        // Feeds are zipped flat or in one folder: members are matched by their base name.
        const name = basename(entry.fileName);
        if (entry.fileName.endsWith('/') || entry.fileName.startsWith('__MACOSX/') || !FILES.includes(name)) continue;
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(join(dir, name)));
      }
    } finally {
      zip.close();
    }
  } catch (e) {
    await cleanup();
    throw new Error(`${input} is neither a folder nor a readable zip of a GTFS feed: ${(e as Error).message}`);
  }
  return { dir, cleanup };
}

/** Checksum of the feed's files read, in a fixed order (a folder has no checksum of its own). */
async function feedSha256(dir: string): Promise<string> {
  const h = createHash('sha256');
  for (const f of FILES) if (existsSync(join(dir, f))) h.update(`${f}\n`).update(await readFile(join(dir, f)));
  return h.digest('hex');
}

async function readAll(path: string): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  for await (const { record, error } of readCsv(path, { separator: ',' })) if (!error) out.push(record);
  return out;
}

const slug = (s: string) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export interface GtfsOptions { country: Country; input: string }

export interface GtfsReport { partition: string; source: string; places: number; stops: number; linesPublished: boolean }

/** Reads one feed and publishes its places; nothing is published when stops.txt is missing or too many stops are refused. */
export async function ingestGtfs(ctx: JobContext, o: GtfsOptions): Promise<PartitionSummary[]> {
  const { dir, cleanup } = await openFeed(o.input);
  try {
    const file = (n: string) => join(dir, n);
    if (!existsSync(file('stops.txt'))) throw new Error(`GTFS feed ${o.input} has no stops.txt: it publishes no stop, nothing was ingested`);
    const agencies = existsSync(file('agency.txt')) ? await readAll(file('agency.txt')) : [];
    // The feed is named by its agencies (their ids, else names); without agency.txt, by its stops' content.
    const keys = agencies.map((a) => slug(a.agency_id?.trim() || a.agency_name?.trim() || '')).filter((k) => k !== '').sort();
    const key = keys.length > 0 ? keys.join('+').slice(0, 80)
      : `stops-${createHash('sha256').update(await readFile(file('stops.txt'))).digest('hex').slice(0, 12)}`;
    const partition = `gtfs.${key}`;
    const names = agencies.map((a) => a.agency_name?.trim()).filter((n): n is string => !!n);
    const source: Source = {
      id: `${o.country}.${partition}`, country: o.country, name: `GTFS ${names.join(', ') || key}`, producer: names.join(', ') || 'given at ingest',
      licence: 'see producer', licence_url: '', attribution: names.join(', '), url: agencies[0]?.agency_url?.trim() ?? '', download_url: null,
      format: 'csv', crs: 'EPSG:4326', encoding: 'utf-8', update_frequency: 'irregular', tables: ['places'], sample: '',
    };

    // Lines: route_id -> line, then stop_id -> routes through trips and stop_times.
    const routes = new Map<string, Line & { sort: number }>();
    if (existsSync(file('routes.txt'))) {
      for (const r of await readAll(file('routes.txt'))) {
        const color = /^[0-9a-f]{6}$/i.test(r.route_color?.trim() ?? '') ? `#${r.route_color!.trim().toUpperCase()}` : null;
        routes.set(r.route_id ?? '', {
          short_name: r.route_short_name?.trim() || null, long_name: r.route_long_name?.trim() || null, mode: modeOf(r.route_type ?? ''), color,
          sort: Number(r.route_sort_order) || 0,
        });
      }
    }
    const linesPublished = existsSync(file('trips.txt')) && existsSync(file('stop_times.txt'));
    const routesOfStop = new Map<string, Set<string>>();
    if (linesPublished) {
      const routeOfTrip = new Map<string, string>();
      for (const t of await readAll(file('trips.txt'))) routeOfTrip.set(t.trip_id ?? '', t.route_id ?? '');
      for await (const { record, error } of readCsv(file('stop_times.txt'), { separator: ',', progress: fileProgress(ctx, 'gtfs', file('stop_times.txt')) })) {
        if (error) continue;
        const route = routeOfTrip.get(record.trip_id ?? '');
        if (route === undefined || !routes.has(route)) continue;
        const stop = record.stop_id ?? '';
        let set = routesOfStop.get(stop);
        if (!set) routesOfStop.set(stop, (set = new Set()));
        set.add(route);
      }
    }
    // Without trips, a stop's mode is known only when every route of the feed has the same one.
    const feedModes = new Set([...routes.values()].map((r) => r.mode));
    const feedMode = feedModes.size === 1 ? [...feedModes][0]! : null;

    const stops = await readAll(file('stops.txt'));
    const byId = new Map(stops.map((s) => [s.stop_id ?? '', s]));
    const rejects = new Rejects(ctx.dataDir, o.country, 'places', partition, ctx.maxRejectShare);
    await rejects.init();
    // Stop points grouped under their parent station (location_type 1), else alone.
    const groups = new Map<string, { head: Record<string, string>; line: number; members: Record<string, string>[] }>();
    let total = 0;
    let line = 1;
    for (const s of stops) {
      line++;
      const type = (s.location_type ?? '').trim();
      if (type !== '' && type !== '0') continue;
      total++;
      const parent = byId.get((s.parent_station ?? '').trim());
      const head = parent && (parent.location_type ?? '').trim() === '1' ? parent : s;
      const id = head.stop_id ?? '';
      if (id === '') { rejects.add(line, 'stop_id is empty', s); continue; }
      const g = groups.get(id);
      if (g) g.members.push(s); else groups.set(id, { head, line, members: [s] });
    }
    if (total === 0) throw new Error(`GTFS feed ${o.input}: stops.txt has no stop point (location_type 0 or empty), nothing was ingested`);
    const writer = await PointsWriter.open(ctx.dataDir, o.country, 'places', partition, source.id);
    try {
      for (const [id, g] of groups) {
        const lat = Number(g.head.stop_lat), lng = Number(g.head.stop_lon);
        if ((g.head.stop_lat ?? '').trim() === '' || (g.head.stop_lon ?? '').trim() === '' || !(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) {
          rejects.add(g.line, `stop ${id}: stop_lat/stop_lon is not a WGS84 position`, g.head); continue;
        }
        const routeIds = new Set(g.members.flatMap((m) => [...(routesOfStop.get(m.stop_id ?? '') ?? [])]));
        const lines = [...routeIds].map((r) => routes.get(r)!).sort((a, b) => a.sort - b.sort || (a.short_name ?? a.long_name ?? '').localeCompare(b.short_name ?? b.long_name ?? '', 'fr', { numeric: true }));
        const modes = linesPublished ? new Set(lines.map((l) => l.mode)) : new Set([feedMode]);
        // wheelchair_boarding: 1 some accessible path, 2 none, 0/empty no information (a child stop inherits its station's).
        const access = g.members.map((m) => (m.wheelchair_boarding ?? '').trim() || (g.head !== m ? (g.head.wheelchair_boarding ?? '').trim() : ''));
        const wheelchair = access.includes('1') ? true : access.length > 0 && access.every((a) => a === '2') ? false : null;
        const why = writer.add({
          id: `${source.id}.${id}`, latitude: lat, longitude: lng, category: categoryOf(modes), name: g.head.stop_name ?? null,
          attributes: {
            lines: lines.map(({ sort: _, ...l }) => l), lines_published: linesPublished, wheelchair_accessible: wheelchair,
            stop_ids: g.members.map((m) => m.stop_id).sort(),
          },
        });
        if (why) rejects.add(g.line, why, g.head);
      }
      rejects.check(total);
      await rejects.close();
      const out = await publish(ctx, o.country, 'gtfs', source, { path: o.input, sha256: await feedSha256(dir) }, partition, await writer.prepare(), rejects);
      ctx.log(gtfsSummary({ partition, source: source.id, places: writer.count, stops: total, linesPublished }));
      return out;
    } catch (e) {
      await rejects.close();
      await writer.abort();
      throw e;
    }
  } finally {
    await cleanup();
  }
}

/** What the job says of a feed, lines included or not (issue 16: an empty list said honestly). */
export function gtfsSummary(r: GtfsReport): string {
  return `gtfs ${r.source}: ${r.places} places from ${r.stops} stop points; ${r.linesPublished
    ? 'lines from trips.txt and stop_times.txt'
    : 'no trips.txt/stop_times.txt in the feed: lines are empty and the mode is the feed\'s only when all its routes share one'}`;
}
