import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { AccessResponse } from '../../../../../api/location/domains/access/routes.ts';
import { PlacesResponse } from '../../../../../api/location/domains/places/routes.ts';
import { placeId } from '../../../../../api/location/domains/places/place.ts';
import { CatalogCategoriesResponse } from '../../../../../api/location/catalog.ts';
import { REPO_ROOT } from '../../../../../ingest/jobs.ts';
import { Access, Places } from '../../../../../schemas/places.ts';
import { PLACE_CATEGORY_CODES } from '../../../../../schemas/categories.ts';
import iconv from 'iconv-lite';
import { BPE_CATEGORIES, bpeCrs } from '../../../../../ingest/fr/bpe.ts';
import { caSchoolCategory } from '../../../../../ingest/ca/schools.ts';
import { vlCategory } from '../../../../../ingest/be/schools-vl.ts';
import { readXlsxRows } from '../../../../../ingest/core/readers/xlsx.ts';
import { toWgs84 } from '../../../../../ingest/core/reproject.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';

// Places and access on the committed samples, checked against a brute-force haversine over the feeds' own stops.txt.
let t: TestApp;
const GRAND_PLACE = { lat: 50.8466, lng: 4.3524 };

beforeAll(async () => {
  const { dataDir } = await samplesDataDir('lds-places-');
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin((lat2 - lat1) * r / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin((lng2 - lng1) * r / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/** Every place of a country's sample feeds as the feed file says it: stations, else lone stop points. */
function feedPlaces(country: string, feeds: string[]): { feed: string; id: string; name: string; lat: number; lng: number }[] {
  return feeds.flatMap((feed) => {
    const [head, ...lines] = readFileSync(join(REPO_ROOT, 'datasets', country, 'gtfs', feed, 'stops.txt'), 'utf8').split(/\r?\n/).filter((l) => l);
    const cols = head!.split(',');
    const stops = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])) as Record<string, string>);
    const byId = new Map(stops.map((s) => [s.stop_id!, s]));
    const heads = new Set(stops.filter((s) => (s.location_type ?? '') === '0' || (s.location_type ?? '') === '')
      .map((s) => (byId.get(s.parent_station ?? '')?.location_type === '1' ? s.parent_station! : s.stop_id!)));
    return [...heads].map((id) => { const s = byId.get(id)!; return { feed, id, name: s.stop_name!, lat: Number(s.stop_lat), lng: Number(s.stop_lon) }; });
  });
}

/** The BPE sample's places as the file says them: mapped types, kept qualities, one per category and position. */
function bpePlaces(): { category: string; lat: number; lng: number }[] {
  const [, ...lines] = iconv.decode(readFileSync(join(REPO_ROOT, 'datasets/fr/bpe/bpe_ensemble_xy.csv')), 'win1252').trim().split('\r\n');
  const out = new Map<string, { category: string; lat: number; lng: number }>();
  for (const l of lines) {
    const [, dep, , , , typequ, x, y, quality] = l.split(';');
    const category = BPE_CATEGORIES[typequ!];
    if (!category || !['Bonne', 'Acceptable'].includes(quality!)) continue;
    const [lng, lat] = toWgs84(bpeCrs(dep!))([Number(x), Number(y)]);
    out.set(`${category}|${x}|${y}`, { category, lat, lng });
  }
  return [...out.values()];
}

/** Distances of the charging stations (one per station id and position) of the IRVE sample within 1000 m, nearest first. */
function chargingNear(lat: number, lng: number): number[] {
  const xy = readFileSync(join(REPO_ROOT, 'datasets/fr/charging/consolidation-etalab-schema-irve-statique.csv'), 'utf8').trim().split('\n').slice(1)
    .map((l) => /"\[([-\d.]+), ([-\d.]+)\]"/.exec(l)!).map((m) => `${m[2]},${m[1]}`);
  return [...new Set(xy)].map((k) => k.split(',').map(Number)).map(([la, ln]) => haversine(lat, lng, la!, ln!)).filter((d) => d <= 1000).sort((a, b) => a - b);
}

/** Distances of the fuel flow sample's points of sale within 1000 m (positions / 100,000), nearest first. */
function fuelNear(lat: number, lng: number): number[] {
  return [...iconv.decode(readFileSync(join(REPO_ROOT, 'datasets/fr/fuel/PrixCarburants_instantane.xml')), 'latin1').matchAll(/latitude="(\d[\d.]*)" longitude="(-?\d[\d.]*)"/g)]
    .map((m) => haversine(lat, lng, Number(m[1]) / 1e5, Number(m[2]) / 1e5)).filter((d) => d <= 1000).sort((a, b) => a - b);
}

/** The education directory sample's schools with a position, as the file says them. */
function schoolsFile(): { name: string; category: string; lat: number; lng: number }[] {
  const [head, ...lines] = readFileSync(join(REPO_ROOT, 'datasets/fr/schools/fr-en-annuaire-education.csv'), 'utf8').trim().split('\n');
  const cols = head!.split(';');
  return lines.map((l) => l.replace(/"[^"]*"/g, (q) => q.replace(/;/g, ','))).map((l) => Object.fromEntries(l.split(';').map((v, i) => [cols[i]!, v])) as Record<string, string>)
    .filter((r) => ['Ecole', 'Collège', 'Lycée'].includes(r.Type_etablissement!) && r.latitude !== '')
    .map((r) => ({
      name: r.Nom_etablissement!, lat: Number(r.latitude), lng: Number(r.longitude),
      category: r.Type_etablissement === 'Ecole' ? (r.Ecole_elementaire === '1' ? 'school.primary' : 'school.kindergarten') : 'school.high_school',
    }));
}

describe('places in Belgium', () => {
  it('counts and orders the stops within the radius as a brute-force haversine over the feeds, the twin stop served once', async () => {
    // Transport items only: the French-language schools around are listed too (and checked below).
    const res = await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&per_page=100&category=transport`);
    expect(res.statusCode, res.body).toBe(200);
    const places = Places.parse(PlacesResponse.parse(res.json()).data.places);
    const brute = feedPlaces('be', ['stib', 'delijn', 'sncb']).map((p) => ({ ...p, d: haversine(GRAND_PLACE.lat, GRAND_PLACE.lng, p.lat, p.lng) }))
      .filter((p) => p.d <= 1000).sort((a, b) => a.d - b.d);
    // Served once (docs/places.md): STIB's "DE BROUCKERE" bus stop and De Lijn's "Brussel De Brouckère",
    // 10 m apart; STIB's two "BOURSE" tram platforms, 20 m apart without a parent station.
    const twins = [brute.filter((p) => p.id === '5200' || p.id === '300852'), brute.filter((p) => p.name === 'BOURSE')];
    for (const pair of twins) expect(pair).toHaveLength(2);
    expect(places.counts.transport).toBe(brute.length - twins.length);
    expect(places.pagination).toEqual({ page: 1, per_page: 100, total: brute.length - twins.length });
    expect(places.items[0]!.name).toBe(brute[0]!.name);
    expect(places.items[0]!.distance_m).toBe(Math.round(brute[0]!.d));
    expect(places.items[0]!.walk_minutes).toBe(Math.ceil(Math.round(brute[0]!.d) / 80));
    const served = places.items.map((i) => i.distance_m);
    expect(served).toEqual([...served].sort((a, b) => a - b));
    const debrouckereBus = places.items.filter((i) => i.category === 'transport.bus' && /brouck/i.test(i.name ?? ''));
    expect(debrouckereBus).toHaveLength(1);
    expect(debrouckereBus[0]!.lines).toEqual(['86', '355']);
    // Groups with no source ingested in Belgium are null and named, never 0; schools in Brussels are
    // both Communities' (FWB and Flemish registers): counted (checked below).
    expect(places.counts).toMatchObject({ shop: null });
    expect(places.counts.school).toBeGreaterThan(0);
    expect(places.counts.health).toBeGreaterThan(0);
    expect(places.status).toBe('partial');
    expect(places.missing).toMatchObject({ 'counts.shop': 'unavailable' });
    expect(places.missing['counts.school']).toBeUndefined();
    // A stop's lines are a list, empty when its feed publishes no trips (SNCB's sample).
    expect(places.items.find((i) => i.name === 'Bruxelles-Central')).toMatchObject({ category: 'transport.train_station', lines: [], id: placeId('be.gtfs.nmbs-sncb.8813003') });
  });

  it('filters by group or category, pages, and refuses an unknown category by name', async () => {
    const metro = PlacesResponse.parse((await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&category=transport.metro`)).json()).data.places;
    expect(metro.items.length).toBeGreaterThan(0);
    expect(metro.items.every((i) => i.category === 'transport.metro')).toBe(true);
    const all = PlacesResponse.parse((await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&category=transport`)).json()).data.places;
    // Counts describe the surroundings whatever the filter.
    expect(metro.counts).toEqual(all.counts);
    const page2 = PlacesResponse.parse((await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&per_page=2&page=2&category=transport`)).json()).data.places;
    expect(page2.items.map((i) => i.id)).toEqual(all.items.slice(2, 4).map((i) => i.id));
    const bad = await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&category=transport.rocket`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'category', value: 'transport.rocket' } });
    expect(bad.json().error.message).toContain('transport.rocket');
    for (const q of ['per_page=101', 'radius=99', 'radius=2001', 'page=0']) {
      const r = await get(`/api/v1/be/places?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&${q}`);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().error.code).toBe('invalid_parameter');
    }
  });

  it('access: the nearest station however far, the lists within the radius only', async () => {
    const res = await get(`/api/v1/be/access?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&radius=100`);
    expect(res.statusCode, res.body).toBe(200);
    const access = Access.parse(AccessResponse.parse(res.json()).data.access);
    const stations = feedPlaces('be', ['sncb']).map((p) => ({ ...p, d: haversine(GRAND_PLACE.lat, GRAND_PLACE.lng, p.lat, p.lng) })).sort((a, b) => a.d - b.d);
    expect(stations[0]!.d).toBeGreaterThan(100);
    expect(access.nearest.station).toMatchObject({ name: stations[0]!.name, distance_m: Math.round(stations[0]!.d) });
    expect(access.stations).toEqual([]);
    expect(access.missing).toMatchObject({ stations: 'not_found', airports: 'not_found', highway_accesses: 'not_found' });
    expect(access.nearest.school).not.toBeNull();
    expect(access.nearest.airport).toMatchObject({ name: 'Brussels Airport', category: 'transport.airport' });
    expect(access.status).toBe('partial');
    const wide = AccessResponse.parse((await get(`/api/v1/be/access?lat=${GRAND_PLACE.lat}&lng=${GRAND_PLACE.lng}&radius=2000`)).json()).data.access;
    expect(wide.stations.map((s) => s.name)).toEqual(stations.filter((s) => s.d <= 2000).map((s) => s.name));
  });
});

describe('places and access in the reports of the three countries', () => {
  it('France: places around Paris 3e and the nearest station (Gare de Lyon) beyond the radius', async () => {
    const res = await get('/api/v1/fr/report?lat=48.8597&lng=2.36745&include=places,access');
    expect(res.statusCode, res.body).toBe(200);
    const data = ReportResponse.parse(res.json()).data as { places: Places; access: Access };
    const brute = feedPlaces('fr', ['idfm']).map((p) => ({ ...p, d: haversine(48.8597, 2.36745, p.lat, p.lng) })).filter((p) => p.d <= 1000).sort((a, b) => a.d - b.d);
    // Transport counts stops, fuel and charging stations (all of the transport group).
    expect(data.places.counts.transport).toBe(brute.length + fuelNear(48.8597, 2.36745).length + chargingNear(48.8597, 2.36745).length);
    const transport = data.places.items.filter((i) => i.category.startsWith('transport.') && i.lines !== null);
    expect(transport.length).toBeGreaterThan(0);
    expect(transport.map((i) => i.name)).toEqual(brute.slice(0, transport.length).map((p) => p.name));
    // The nearest station however far: SNCF's list and the feed's RER station, by brute force.
    const sncf = readFileSync(join(REPO_ROOT, 'datasets/fr/stations/gares-de-voyageurs.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(';'))
      .map(([name, , , pos]) => { const [lat, lng] = pos!.split(',').map(Number); return { name: name!, lat: lat!, lng: lng! }; });
    const stations = [...sncf, feedPlaces('fr', ['idfm']).find((p) => p.name === 'Gare de Lyon')!]
      .map((p) => ({ ...p, d: haversine(48.8597, 2.36745, p.lat, p.lng) })).sort((a, b) => a.d - b.d);
    expect(data.access.nearest.station).toMatchObject({ name: stations[0]!.name, distance_m: Math.round(stations[0]!.d) });
    expect(data.access.nearest.station!.distance_m).toBeGreaterThan(1000);
    // Served as the lists serve it: with the RER line its GTFS twin publishes.
    expect(data.access.nearest.station!.lines).toEqual(['A']);
  });

  it('France: school, health and shop counts and the nearest school as a brute-force haversine over the BPE file', async () => {
    const res = await get('/api/v1/fr/report?lat=48.8597&lng=2.36745&include=places,access');
    const data = ReportResponse.parse(res.json()).data as { places: Places; access: Access };
    const bpe = bpePlaces().map((p) => ({ ...p, d: haversine(48.8597, 2.36745, p.lat, p.lng) }));
    for (const g of ['health', 'shop'] as const) {
      expect(data.places.counts[g], g).toBe(bpe.filter((p) => p.category.startsWith(`${g}.`) && p.d <= 1000).length);
    }
    // Schools: the BPE's and the directory's, a directory school within 50 m of a BPE row of its category served once with its name.
    const directory = schoolsFile().map((p) => ({ ...p, d: haversine(48.8597, 2.36745, p.lat, p.lng) }));
    const bpeSchools = bpe.filter((p) => p.category.startsWith('school.'));
    const twins = directory.filter((s) => bpeSchools.some((b) => b.category === s.category && haversine(b.lat, b.lng, s.lat, s.lng) <= 50));
    expect(twins.map((t) => t.name).sort()).toEqual(['Collège Béranger', 'Ecole primaire Abzac', 'Ecole élémentaire Vertbois']);
    expect(data.places.counts.school).toBe([...bpeSchools, ...directory].filter((p) => p.d <= 1000).length - twins.filter((t) => t.d <= 1000).length);
    const school = [...bpeSchools, ...directory].sort((a, b) => a.d - b.d)[0]!;
    expect(data.access.nearest.school).toMatchObject({ category: school.category, distance_m: Math.round(school.d) });
    expect(data.access.nearest.school!.name).toBe(twins.find((t) => t.category === school.category && haversine(t.lat, t.lng, school.lat, school.lng) <= 50)?.name ?? null);
    // Fuel and charging stations within the radius, nearest first, as the files say.
    const charging = chargingNear(48.8597, 2.36745), fuel = fuelNear(48.8597, 2.36745);
    expect(data.access.charging_stations.map((p) => p.distance_m)).toEqual(charging.map(Math.round));
    expect(data.access.fuel_stations.map((p) => p.distance_m)).toEqual(fuel.map(Math.round));
    expect(fuel.length).toBeGreaterThan(0);
    expect(data.places.status).toBe('ok');
  });

  it('France: Paris Gare de Lyon, in SNCF\'s list and in the GTFS feed 90 m apart, is served once', async () => {
    const res = await get('/api/v1/fr/report?lat=48.8448&lng=2.3740&include=places,access&radius=500');
    const data = ReportResponse.parse(res.json()).data as { places: Places; access: Access };
    const lyon = data.places.items.filter((i) => /gare de lyon/i.test(i.name ?? ''));
    expect(lyon).toHaveLength(1);
    expect(data.access.stations.filter((i) => /gare de lyon/i.test(i.name ?? ''))).toHaveLength(1);
    // The RER line of the feed stays with the place kept.
    expect(lyon[0]!.lines).toEqual(['A']);
  });

  it('Quebec: two feeds (STM and exo) add up', async () => {
    const res = await get('/api/v1/ca/report?lat=45.52&lng=-73.58&include=places,access&radius=2000');
    expect(res.statusCode, res.body).toBe(200);
    const data = ReportResponse.parse(res.json()).data as { places: Places; access: Access };
    const brute = feedPlaces('ca', ['stm', 'exo']).map((p) => ({ ...p, d: haversine(45.52, -73.58, p.lat, p.lng) })).filter((p) => p.d <= 2000);
    expect(data.places.counts.transport).toBe(brute.length);
    expect(data.access.nearest.station!.name).toMatch(/^Gare /);
    // Schools: the ministry's layer, one place per school and building teaching a level, by brute force.
    const schools = (JSON.parse(readFileSync(join(REPO_ROOT, 'datasets/ca/schools/pps_public_ecole.geojson'), 'utf8')) as { features: { properties: Record<string, unknown>; geometry: { coordinates: [number, number] } }[] }).features
      .filter((f) => caSchoolCategory(f.properties) !== null).map((f) => ({ name: f.properties.NOM_OFFCL_ORGNS as string, d: haversine(45.52, -73.58, f.geometry.coordinates[1], f.geometry.coordinates[0]) }))
      .sort((a, b) => a.d - b.d);
    expect(data.places.counts.school).toBe(schools.filter((x) => x.d <= 2000).length);
    expect(data.access.nearest.school).toMatchObject({ name: schools[0]!.name, distance_m: Math.round(schools[0]!.d) });
  });
});

describe('Quebec: the MSSS installations, hospitals and CLSCs', () => {
  /** The sample's places as the file says them: an installation whose missions include CHSGS or CHPSY (hospital), else CLSC. */
  const installations = () => {
    const [head, ...lines] = readFileSync(join(REPO_ROOT, 'datasets/ca/health/installationscsv.csv'), 'utf8').trim().split('\n');
    const cols = head!.split(',');
    return lines.map((l) => Object.fromEntries((l.match(/"[^"]*"|[^,]+/g) ?? []).map((v, i) => [cols[i]!, v.replace(/^"|"$/g, '')])) as Record<string, string>)
      .map((r) => ({ name: r.INSTAL_NOM!, lat: Number(r.LATITUDE), lng: Number(r.LONGITUDE), category: r.CHSGS === 'Oui' || r.CHPSY === 'Oui' ? 'health.hospital' : r.CLSC === 'Oui' ? 'health.clinic' : null }))
      .filter((r) => r.category !== null);
  };
  it.each([[45.52, -73.58, 1000], [45.52, -73.58, 2000], [45.465, -75.745, 1000]])('(%f, %f) within %i m: the health count and the health items, nearest first, as a brute-force haversine over the file', async (lat, lng, radius) => {
    const res = await get(`/api/v1/ca/report?lat=${lat}&lng=${lng}&include=places&radius=${radius}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = ReportResponse.parse(res.json());
    const places = (body.data as { places: Places }).places;
    const brute = installations().map((p) => ({ ...p, d: haversine(lat, lng, p.lat, p.lng) })).filter((p) => p.d <= radius).sort((a, b) => a.d - b.d);
    expect(places.counts.health).toBe(brute.length);
    expect(places.missing['counts.health']).toBeUndefined();
    // The report's first page (nearest first, every group): the health places on it are the file's nearest ones up to its last distance.
    const reach = places.pagination.total > places.items.length ? places.items.at(-1)!.distance_m : Infinity;
    const shown = places.items.filter((i) => i.category.startsWith('health.')).map((i) => [i.name, i.category, i.distance_m]);
    expect(shown).toEqual(brute.filter((p) => Math.round(p.d) <= reach).map((p) => [p.name, p.category, Math.round(p.d)]));
    expect(shown.length).toBeGreaterThan(0);
    expect(body.meta.warnings.map((w) => w.message).join('\n')).not.toMatch(/counts\.[a-z, .]*health/);
  });
});

describe('access: the nearest airport in the three countries', () => {
  // The documented rule read independently (DuckDB's CSV reader over the published files):
  // large and medium airports with scheduled service, of the country's ISO codes.
  const airports = async (cc: string, iso: string[]) => duckRows<{ name: string; lat: number; lng: number }>(
    `SELECT name, latitude_deg AS lat, longitude_deg AS lng FROM read_csv('${join(REPO_ROOT, `datasets/${cc}/airports/airports.csv`)}', header = true)
     WHERE type IN ('large_airport', 'medium_airport') AND scheduled_service = 'yes' AND iso_country IN (${iso.map((c) => `'${c}'`).join(', ')})`);
  it.each([
    ['fr', 48.8597, 2.36745, ['FR', 'RE'], 'Paris-Orly Airport'],
    ['fr', 45.0136, -0.1291, ['FR', 'RE'], 'Bordeaux-Mérignac Airport'],
    ['fr', -20.88, 55.45, ['FR', 'RE'], 'Roland Garros Airport'],
    ['ca', 45.52, -73.58, ['CA'], 'Montréal / Saint-Hubert Longueuil Airport'],
    // Gatineau: the nearest airport is across the Ottawa river, in Ontario (Canada's airports count).
    ['ca', 45.5, -75.75, ['CA'], 'Ottawa Macdonald-Cartier International Airport'],
    ['be', GRAND_PLACE.lat, GRAND_PLACE.lng, ['BE'], 'Brussels Airport'],
  ])('%s (%f, %f): the nearest as a brute-force haversine over the file', async (cc, lat, lng, iso, name) => {
    const brute = (await airports(cc, iso)).map((a) => ({ ...a, d: haversine(lat, lng, a.lat, a.lng) })).sort((a, b) => a.d - b.d);
    expect(brute[0]!.name).toBe(name);
    const res = await get(`/api/v1/${cc}/report?lat=${lat}&lng=${lng}&include=access`);
    expect(res.statusCode, res.body).toBe(200);
    const access = (ReportResponse.parse(res.json()).data as { access: Access }).access;
    expect(access.nearest.airport).toMatchObject({ name, category: 'transport.airport', distance_m: Math.round(brute[0]!.d) });
    expect(access.airports.map((a) => a.name)).toEqual(brute.filter((a) => a.d <= 1000).map((a) => a.name));
  });
});

describe('access: the nearest motorway access in the three countries', () => {
  /** The accesses as the samples' XML says them: a junction node, unless one with the same ref and name within 1 km has a smaller id. */
  const accesses = (cc: string) => {
    const nodes = readFileSync(join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm`), 'utf8').split('\n').filter((l) => l.includes('v="motorway_junction"')).map((l) => ({
      id: Number(/ id="(\d+)"/.exec(l)![1]), lat: Number(/lat="([-\d.]+)"/.exec(l)![1]), lng: Number(/lon="([-\d.]+)"/.exec(l)![1]),
      ref: /k="ref" v="([^"]*)"/.exec(l)?.[1] ?? null, name: /k="name" v="([^"]*)"/.exec(l)?.[1] ?? null,
    }));
    return nodes.filter((n) => !nodes.some((o) => o.id < n.id && n.ref !== null && o.ref === n.ref && o.name === n.name && haversine(o.lat, o.lng, n.lat, n.lng) <= 1000));
  };
  it.each([
    // A4 exit 1, which OSM names only by its number: name null.
    ['fr', 48.8597, 2.36745, null],
    ['fr', 45.0136, -0.1291, 'Coutras'],
    ['ca', 45.52, -73.58, 'Rue Saint-Urbain'],
    ['be', GRAND_PLACE.lat, GRAND_PLACE.lng, 'Anderlecht'],
  ])('%s (%f, %f): the nearest as a brute-force haversine over the extract', async (cc, lat, lng, name) => {
    const brute = accesses(cc).map((a) => ({ ...a, d: haversine(lat, lng, a.lat, a.lng) })).sort((a, b) => a.d - b.d);
    expect(brute[0]!.name).toBe(name);
    const res = await get(`/api/v1/${cc}/report?lat=${lat}&lng=${lng}&include=access&radius=2000`);
    expect(res.statusCode, res.body).toBe(200);
    const access = (ReportResponse.parse(res.json()).data as { access: Access }).access;
    expect(access.nearest.highway_access).toMatchObject({ name, category: 'transport.highway_access', distance_m: Math.round(brute[0]!.d), lines: null });
    expect(access.highway_accesses.map((a) => a.distance_m)).toEqual(brute.filter((a) => a.d <= 2000).map((a) => Math.round(a.d)));
    expect(access.missing['nearest.highway_access']).toBeUndefined();
  });
});

describe('Belgium: the schools of both Communities (FWB register, Flemish onderwijsaanbod), complete in the three regions', () => {
  /** The sample's places as the file says them: one per site and stage with a position, primary over kindergarten. */
  const fwbSchools = () => {
    const [head, ...lines] = readFileSync(join(REPO_ROOT, 'datasets/be/schools/signaletique-fase.csv'), 'utf8').trim().split('\n');
    const cols = head!.split(';');
    const rows = lines.map((l) => Object.fromEntries(l.split(';').map((v, i) => [cols[i]!, v])) as Record<string, string>).filter((r) => r.geolocalisation);
    const stage = (t: string) => (/^(Maternel|Primaire)/.test(t) ? 'f' : /^Secondaire/.test(t) ? 's' : /^Promotion sociale/.test(t) ? 'p' : /^(Université|Haute École|École supérieure des Arts)$/.test(t) ? 'u' : null);
    const out = new Map<string, { name: string; lat: number; lng: number }>();
    for (const r of rows) {
      const st = stage(r.type_d_enseignement!);
      if (!st) continue;
      const [lat, lng] = r.geolocalisation!.split(',').map(Number);
      out.set(`${r.ndeg_fase_de_l_implantation}.${st}`, { name: r.nom_de_l_etablissement!, lat: lat!, lng: lng! });
    }
    return [...out.values()];
  };
  /** The Flemish sample's places as the file says them: CR-separated quoted records, schools with a Lambert 72 position. */
  const vlSchools = () => {
    const [head, ...lines] = readFileSync(join(REPO_ROOT, 'datasets/be/schools-vl/vestigingsplaatsen-van-scholen.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r').filter((l) => l);
    const cells = (l: string) => l.split(';').map((v) => v.replace(/^"|"$/g, ''));
    const cols = cells(head!);
    return lines.map((l) => Object.fromEntries(cells(l).map((v, i) => [cols[i]!, v])) as Record<string, string>)
      .filter((r) => r['soort instelling'] === 'Onderwijsinstelling' && vlCategory(r.instellingstype!) !== null && !(r.lx === '0' && r.ly === '0'))
      .map((r) => { const [lng, lat] = toWgs84('EPSG:31370')([Number(r.lx), Number(r.ly)]); return { name: r.naam!, lat: lat!, lng: lng! }; });
  };
  it('Tubize (Walloon Region): the school count and the nearest school as a brute-force haversine over the file', async () => {
    const [lat, lng] = [50.6905, 4.2045];
    const res = await get(`/api/v1/be/report?lat=${lat}&lng=${lng}&include=places,access`);
    expect(res.statusCode, res.body).toBe(200);
    const data = ReportResponse.parse(res.json()).data as { places: Places; access: Access };
    const brute = fwbSchools().map((s) => ({ ...s, d: haversine(lat, lng, s.lat, s.lng) })).sort((a, b) => a.d - b.d);
    expect(data.places.counts.school).toBe(brute.filter((s) => s.d <= 1000).length);
    expect(data.places.counts.school).toBeGreaterThan(0);
    expect(data.access.nearest.school).toMatchObject({ name: brute[0]!.name, distance_m: Math.round(brute[0]!.d) });
    expect(data.places.missing['counts.school']).toBeUndefined();
  });
  it.each([['Brussels (Grand-Place)', 50.8466, 4.3524, 5], ['Brussels (Ixelles)', 50.8125, 4.382, 0], ['Machelen (Flemish Region)', 50.911, 4.44, 1], ['Halle (Flemish Region)', 50.7352, 4.2395, 2]])('%s: the school count and the nearest school as a brute-force haversine over both files', async (_, lat, lng, vlNear) => {
    const res = await get(`/api/v1/be/report?lat=${lat}&lng=${lng}&include=places,access`);
    expect(res.statusCode, res.body).toBe(200);
    const body = ReportResponse.parse(res.json());
    const data = body.data as { places: Places; access: Access };
    const vl = vlSchools().map((s) => ({ ...s, d: haversine(lat, lng, s.lat, s.lng) }));
    const brute = [...fwbSchools().map((s) => ({ ...s, d: haversine(lat, lng, s.lat, s.lng) })), ...vl].sort((a, b) => a.d - b.d);
    expect(vl.filter((s) => s.d <= 1000).length).toBe(vlNear);
    expect(data.places.counts.school).toBe(brute.filter((s) => s.d <= 1000).length);
    expect(data.places.missing['counts.school']).toBeUndefined();
    expect(data.access.nearest.school).toMatchObject({ name: brute[0]!.name, distance_m: Math.round(brute[0]!.d) });
    expect(data.access.missing['nearest.school']).toBeUndefined();
    expect(body.meta.warnings.map((w) => w.message).join('\n')).not.toMatch(/counts\.school/);
  });
});

describe('Belgium: the AFMPS pharmacies', () => {
  it.each([['Brussels (Grand-Place)', 50.8466, 4.3524], ['Tubize', 50.6905, 4.2045], ['Machelen', 50.911, 4.44]])('%s: the health count and the nearest pharmacies as a brute-force haversine over the workbook', async (_, lat, lng) => {
    const sheet = await readXlsxRows(join(REPO_ROOT, 'datasets/be/health/Lst_Pharmacies_pub_Extended.xlsx'));
    const open = sheet.slice(2).filter((r) => /^\d+$/.test(r.cells[0] ?? '') && (r.cells[5] ?? '') === '').map((r) => {
      const [plng, plat] = toWgs84('EPSG:3812')([Number(r.cells[8]), Number(r.cells[9])]);
      return { name: r.cells[1]!, d: haversine(lat, lng, plat!, plng!) };
    }).filter((p) => p.d <= 1000).sort((a, b) => a.d - b.d);
    expect(open.length).toBeGreaterThan(0);
    const res = await get(`/api/v1/be/places?lat=${lat}&lng=${lng}&category=health&per_page=100`);
    expect(res.statusCode, res.body).toBe(200);
    const places = PlacesResponse.parse(res.json()).data.places;
    expect(places.counts.health).toBe(open.length);
    expect(places.missing['counts.health']).toBeUndefined();
    expect(places.items.map((i) => [i.name, i.category, i.distance_m])).toEqual(open.map((p) => [p.name, 'health.pharmacy', Math.round(p.d)]));
  });
});

describe('/catalog/categories', () => {
  it('serves the same taxonomy in the three countries, with the sources feeding each code there', async () => {
    const codes: string[][] = [];
    for (const c of ['fr', 'ca', 'be']) {
      const res = await get(`/api/v1/${c}/catalog/categories?locale=en`);
      expect(res.statusCode, res.body).toBe(200);
      const data = CatalogCategoriesResponse.parse(res.json()).data;
      codes.push(data.categories.map((x) => x.code));
      expect(data.categories.map((x) => x.code)).toEqual(PLACE_CATEGORY_CODES);
      if (c === 'be') {
        expect(data.categories.find((x) => x.code === 'transport.bus')!.sources).toEqual(['be.gtfs.1', 'be.gtfs.dl']);
        expect(data.groups.find((x) => x.code === 'transport')!.sources).toEqual(['be.airports', 'be.gtfs.1', 'be.gtfs.dl', 'be.gtfs.nmbs-sncb', 'be.osm']);
        expect(data.categories.find((x) => x.code === 'transport.airport')!.sources).toEqual(['be.airports']);
        expect(data.categories.find((x) => x.code === 'school.primary')).toMatchObject({ label: 'Primary school', sources: ['be.schools-fwb', 'be.schools-vl'] });
      }
    }
    expect(codes[1]).toEqual(codes[0]);
    expect(codes[2]).toEqual(codes[0]);
  });
});
