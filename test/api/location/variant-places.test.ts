import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportResponse } from '../../../api/location/report.ts';
import { AccessResponse } from '../../../api/location/domains/access/routes.ts';
import { PlacesResponse } from '../../../api/location/domains/places/routes.ts';
import { CatalogCategoriesResponse } from '../../../api/location/catalog.ts';
import { STOP_CATEGORIES, TRANSPORT_STOP_ITEMS } from '../../../api/location/variant/places.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { modeOf } from '../../../ingest/generic/gtfs.ts';
import { ErrorBody } from '../../../schemas/error.ts';
import type { Access, Places } from '../../../schemas/places.ts';
import type { Place } from '../../../schemas/place.ts';
import { Amenities, Transport, TRANSPORT_MODE_CODES, type VariantPlace } from '../../../schemas/variant-places.ts';
import { VariantReportResponse } from '../../../schemas/variant-report.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { samplesDataDir } from '../../helpers/samples.ts';

// The multi-country variant's amenities and transport (spec 2.12) against each country's own
// places and access mapped to 2.12, on the committed samples (Paris, Montreal, Brussels).
let t: TestApp;

beforeAll(async () => {
  const { dataDir } = await samplesDataDir('lds-variant-places-');
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = (url: string, key = t.key) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
const ok = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const variant = async (query: string) => {
  const body = VariantReportResponse.parse((await ok(`/api/v1/report?${query}`)).json());
  return {
    body,
    get amenities() { return Amenities.parse(body.data.amenities); },
    get transport() { return Transport.parse(body.data.transport); },
  };
};

/** The country's places and access for the same point, as its own routes serve them. */
async function countryAnswer(cc: string, place: string): Promise<{ places: Places; access: Access }> {
  const res = await ok(`/api/v1/${cc}/report?${place}&include=places,access`);
  return ReportResponse.parse(res.json()).data as { places: Places; access: Access };
}

/** The sources the country's table holds under each category (/catalog/categories). */
async function sourcesByCategory(cc: string): Promise<Map<string, string[]>> {
  const { categories } = CatalogCategoriesResponse.parse((await ok(`/api/v1/${cc}/catalog/categories`)).json()).data;
  return new Map(categories.map((c) => [c.code, c.sources]));
}

const withoutSource = ({ source: _, ...p }: VariantPlace): Place => p;
const lineNames = (lines: { short_name: string | null; long_name: string | null }[]) => [...new Set(lines.map((l) => l.short_name ?? l.long_name).filter((n) => n !== null))];

const PLACES: [string, string][] = [
  ['fr', 'lat=48.8597&lng=2.36745'],
  ['ca', 'lat=45.52&lng=-73.58&radius=2000'],
  ['be', 'lat=50.8466&lng=4.3524'],
];

describe('GET /api/v1/report: amenities and transport of spec 2.12', () => {
  it.each(PLACES)('%s (%s): amenities are the country\'s places, each with the source publishing it', async (cc, place) => {
    const own = await countryAnswer(cc, place);
    const { amenities, body } = await variant(`${place}&include=amenities`);
    expect(body.data.location.country).toBe(cc.toUpperCase());
    expect(amenities.items.map(withoutSource)).toEqual(own.places.items);
    expect(amenities.items.length).toBeGreaterThan(0);
    expect({ ...amenities, items: [] }).toEqual({ ...own.places, items: [] });
    const sources = await sourcesByCategory(cc);
    for (const item of amenities.items) expect(sources.get(item.category), `${item.name} ${item.source}`).toContain(item.source);
    // Only the domains asked, location always.
    expect(Object.keys(body.data).sort()).toEqual(['amenities', 'location']);
  });

  it.each(PLACES)('%s (%s): transport\'s nearest are access\'s nearest, its stops the stops among the places, nearest first', async (cc, place) => {
    const own = await countryAnswer(cc, place);
    const { transport } = await variant(`${place}&include=transport`);
    const sources = await sourcesByCategory(cc);
    const pairs: [VariantPlace | null, Place | null][] = [
      [transport.nearest.train_station, own.access.nearest.station], [transport.nearest.airport, own.access.nearest.airport],
      [transport.nearest.road_access, own.access.nearest.highway_access],
    ];
    for (const [mine, theirs] of pairs) {
      expect(mine && withoutSource(mine)).toEqual(theirs);
      if (mine) expect(sources.get(mine.category)).toContain(mine.source);
    }
    expect(transport.nearest.train_station).not.toBeNull();
    // The charging station nearest however far: within the radius it is the first of access's list.
    if (cc === 'fr') {
      expect(own.access.charging_stations.length).toBeGreaterThan(0);
      expect(withoutSource(transport.nearest.charging_station!)).toEqual(own.access.charging_stations[0]);
    } else {
      expect(transport.nearest.charging_station).toBeNull();
      expect(transport.missing['nearest.charging_station']).toBe('unavailable');
      expect(transport.status).toBe('partial');
    }
    // The stops among the country's first page of places are the variant's nearest stops, in order.
    const ownStops = own.places.items.filter((p) => p.category in STOP_CATEGORIES);
    expect(ownStops.length).toBeGreaterThan(0);
    const mine = transport.stops.slice(0, ownStops.length);
    expect(mine.map((s) => [s.id, s.name, s.latitude, s.longitude, s.distance_m])).toEqual(ownStops.map((p) => [p.id, p.name, p.latitude, p.longitude, p.distance_m]));
    expect(mine.map((s) => lineNames(s.lines))).toEqual(ownStops.map((p) => p.lines));
    const distances = transport.stops.map((s) => s.distance_m);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(transport.stops.length).toBeLessThanOrEqual(TRANSPORT_STOP_ITEMS);
    for (const s of transport.stops) expect(s.distance_m).toBeLessThanOrEqual(transport.radius_m);
  });

  it('Brussels: every stop within the radius, its lines, modes and colours as the feeds\' routes.txt publish them', async () => {
    const place = 'lat=50.8466&lng=4.3524';
    const list = PlacesResponse.parse((await ok(`/api/v1/be/places?${place}&category=transport&per_page=100`)).json()).data.places;
    const ownStops = list.items.filter((p) => p.category in STOP_CATEGORIES);
    const { transport } = await variant(`${place}&include=transport`);
    expect(ownStops.length).toBeLessThanOrEqual(TRANSPORT_STOP_ITEMS);
    expect(transport.stops.map((s) => s.id)).toEqual(ownStops.map((p) => p.id));
    // routes.txt of the feeds read here: short name -> route_type and colour.
    const routes = new Map<string, { type: string; color: string }>();
    for (const feed of ['stib', 'delijn', 'sncb']) {
      const [head, ...rows] = readFileSync(join(REPO_ROOT, 'datasets/be/gtfs', feed, 'routes.txt'), 'utf8').trim().split(/\r?\n/);
      const cols = head!.split(',');
      for (const r of rows.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])) as Record<string, string>)) {
        routes.set(r.route_short_name!, { type: r.route_type!, color: r.route_color ? `#${r.route_color.toUpperCase()}` : '' });
      }
    }
    for (const s of transport.stops) {
      for (const l of s.lines) expect([l.mode, l.color], `${s.name} ${l.short_name}`).toEqual([modeOf(routes.get(l.short_name!)!.type), routes.get(l.short_name!)!.color || null]);
      const modes = [...new Set(s.lines.map((l) => l.mode))];
      if (modes.length > 0) expect([...s.modes].sort()).toEqual(modes.sort());
    }
    // De Brouckère's bus stop, published by STIB and De Lijn 10 m apart: one stop with both lines.
    const brouckere = transport.stops.filter((s) => s.modes.includes('bus') && /brouck/i.test(s.name ?? ''));
    expect(brouckere).toHaveLength(1);
    expect(brouckere[0]!.lines.map((l) => l.short_name)).toEqual(['86', '355']);
    expect(brouckere[0]!.lines.map((l) => l.color)).toEqual(['#B5BA05', '#FFEC00']);
    // SNCB's sample has no trips: its stations have no lines, and the mode of their category.
    const central = transport.stops.find((s) => s.name === 'Bruxelles-Central')!;
    expect(central).toMatchObject({ lines: [], modes: ['rail'], source: 'be.gtfs.nmbs-sncb' });
    // Every stop within the radius is listed here: stops_by_mode counts them by mode.
    for (const m of TRANSPORT_MODE_CODES) expect(transport.stops_by_mode[m], m).toBe(transport.stops.filter((s) => s.modes.includes(m)).length);
    expect(transport.stops_by_mode.bus! + transport.stops_by_mode.tram! + transport.stops_by_mode.metro!).toBeGreaterThan(0);
  });

  it('answers the other domains of 2.12 as not computed here (no unit), or not covered where the country publishes none; meta.sources cites the places\' sources', async () => {
    const res = await ok('/api/v1/report?lat=50.8466&lng=4.3524&locale=en');
    const body = VariantReportResponse.parse(res.json());
    expect(body.data.sales).toEqual({ status: 'not_covered', missing: {} });
    expect(body.data.prices).toEqual({ status: 'unavailable', missing: {} });
    expect(body.meta.warnings).toEqual(expect.arrayContaining([
      expect.objectContaining({ domain: 'sales', code: 'not_covered' }), expect.objectContaining({ domain: 'prices', code: 'data_unavailable' }),
    ]));
    const ids = body.meta.sources.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['be.best', 'be.airports', 'be.osm']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(body.meta.sources.find((s) => s.id === 'be.osm')!.share_alike).toBe(true);
    // location, amenities and transport: three units.
    const before = Number(res.headers['x-quota-remaining']);
    const again = await ok('/api/v1/report?lat=50.8466&lng=4.3524&include=amenities');
    expect(before - Number(again.headers['x-quota-remaining'])).toBe(2);
  });

  it('refuses an unknown domain by name, and omits a domain outside the key', async () => {
    const bad = await get('/api/v1/report?lat=50.8466&lng=4.3524&include=amenities,places');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'include' } });
    const { key } = await t.keys.create({ countries: ['fr', 'ca', 'be'], domains: ['location', 'places'], sandbox: false, label: 'places only' });
    const res = await get('/api/v1/report?lat=50.8466&lng=4.3524&include=amenities,transport', key);
    expect(res.statusCode, res.body).toBe(200);
    const body = VariantReportResponse.parse(res.json());
    expect(Object.keys(body.data).sort()).toEqual(['amenities', 'location']);
    expect(body.meta.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ domain: 'transport', code: 'domain_not_allowed' })]));
  });
});
