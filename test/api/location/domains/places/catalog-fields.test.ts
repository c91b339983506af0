import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCategoriesResponse, CatalogFieldsResponse } from '../../../../../api/location/catalog.ts';
import { PLACE_GROUP_CODES } from '../../../../../schemas/categories.ts';
import { Access, Places } from '../../../../../schemas/places.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// /catalog/fields of places and access on the committed samples: every field of the contract is
// defined, and its sources are those whose rows the country's places table holds.
let t: TestApp;

beforeAll(async () => {
  const { dataDir } = await samplesDataDir('lds-places-fields-');
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const fieldsOf = async (country: string, locale: string) => CatalogFieldsResponse.parse(await get(`/api/v1/${country}/catalog/fields?locale=${locale}`)).data.fields;

/** The contract's paths: counts.<group>, items; nearest.<kind> and the five lists. */
const PLACES_PATHS = [...Object.keys(Places.shape.counts.shape).map((g) => `places.counts.${g}`), 'places.items'];
const ACCESS_PATHS = [
  ...Object.keys(Access.shape.nearest.shape).map((k) => `access.nearest.${k}`),
  ...Object.keys(Access.shape).filter((k) => !['status', 'radius_m', 'nearest', 'missing'].includes(k)).map((k) => `access.${k}`),
];

describe('/catalog/fields: places and access in the three countries', () => {
  it.each(['fr', 'ca', 'be'])('%s: every field of the contract, defined in French and English, with its unit', async (country) => {
    const [fr, en] = [await fieldsOf(country, 'fr'), await fieldsOf(country, 'en')];
    for (const fields of [fr, en]) {
      const ids = fields.filter((f) => f.domain === 'places' || f.domain === 'access').map((f) => f.id);
      expect(ids.sort()).toEqual([...PLACES_PATHS, ...ACCESS_PATHS].sort());
    }
    for (const id of [...PLACES_PATHS, ...ACCESS_PATHS]) {
      const f = fr.find((x) => x.id === id)!, e = en.find((x) => x.id === id)!;
      expect(f.definition.length, id).toBeGreaterThan(80);
      expect(e.definition.length, id).toBeGreaterThan(80);
      expect(f.definition, id).not.toBe(e.definition);
      expect(f.label, id).not.toBe('');
      expect(f.unit, id).toBe(id.startsWith('places.counts.') ? 'count' : null);
    }
    expect(en.find((f) => f.id === 'places.items')!.definition).toContain('80 m per minute');
    expect(fr.find((f) => f.id === 'places.items')!.definition).toContain('80 m par minute');
  });

  it.each(['fr', 'ca', 'be'])('%s: a group count names the sources the places table holds under that group (/catalog/categories)', async (country) => {
    const fields = await fieldsOf(country, 'en');
    const { groups } = CatalogCategoriesResponse.parse(await get(`/api/v1/${country}/catalog/categories`)).data;
    for (const g of PLACE_GROUP_CODES) {
      const held = groups.find((x) => x.code === g)!.sources;
      const field = fields.find((f) => f.id === `places.counts.${g}`)!;
      expect(field.sources.sort(), `${country} ${g}`).toEqual(held);
      expect(field.coverage.status, `${country} ${g}`).toBe(held.length === 0 ? 'not_ingested' : country === 'be' && g === 'school' ? 'partial' : 'available');
    }
    // Every source of the table feeds the list.
    expect(fields.find((f) => f.id === 'places.items')!.sources.sort()).toEqual([...new Set(groups.flatMap((x) => x.sources))].sort());
  });

  it('names the GTFS feeds ingested (sources named at ingest from their agencies), the station list and the school registers\' territories', async () => {
    const be = await fieldsOf('be', 'en');
    expect(be.find((f) => f.id === 'places.counts.transport')!.sources).toEqual(['be.airports', 'be.osm', 'be.gtfs.1', 'be.gtfs.dl', 'be.gtfs.nmbs-sncb']);
    expect(be.find((f) => f.id === 'access.nearest.school')!.coverage).toMatchObject({ status: 'partial', territories: ['Flemish Region', 'Brussels-Capital Region', 'Walloon Region except the German-speaking Community'] });
    expect(be.find((f) => f.id === 'places.counts.school')!.definition).toContain('German-speaking Community');
    expect(be.find((f) => f.id === 'access.fuel_stations')!.coverage.status).toBe('not_ingested');
    const fr = await fieldsOf('fr', 'en');
    const station = fr.find((f) => f.id === 'access.nearest.station')!;
    expect(station.sources[0]).toBe('fr.stations');
    expect(station.sources.slice(1).every((s) => s.startsWith('fr.gtfs.'))).toBe(true);
    expect(station.sources.length).toBeGreaterThan(1);
    expect(station.coverage).toMatchObject({ status: 'available', territories: null });
    expect(fr.find((f) => f.id === 'access.charging_stations')).toMatchObject({ sources: ['fr.charging'], coverage: { status: 'available' } });
    expect(fr.find((f) => f.id === 'access.airports')!.update_frequency).toBe('daily');
    const { categories } = CatalogCategoriesResponse.parse(await get('/api/v1/fr/catalog/categories')).data;
    // The station fields name every source the table holds train stations from.
    expect(station.sources).toEqual(expect.arrayContaining(categories.find((c) => c.code === 'transport.train_station')!.sources));
  });
});
