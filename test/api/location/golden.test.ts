import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { samplesDataDir } from '../../helpers/samples.ts';

/**
 * Golden responses of the location routes on the committed samples, recorded before the domain
 * registry restructuring (issue 13) so that moving code never changes a byte of what partners
 * read. Regenerate deliberately with `REGEN=1 npx vitest run test/api/location/golden.test.ts`
 * and review the diff: a change here is a change of the contract.
 */
const GOLDEN = join(import.meta.dirname, 'golden', 'responses.json');

const URLS = [
  // France: location, report, market, catalog, zones
  '/api/v1/fr/location?address=18+rue+de+Bretagne+75003+Paris',
  '/api/v1/fr/location?lat=48.8597&lng=2.36745&locale=en',
  '/api/v1/fr/report?lat=48.8597&lng=2.36745',
  '/api/v1/fr/report?lat=48.8597&lng=2.36745&include=market,risks&locale=en',
  '/api/v1/fr/report?lat=45.0136&lng=-0.1291&include=market&property_type=house',
  '/api/v1/fr/report?lat=45.0136&lng=-0.1291&include=market.price_trend,residents&radius=1000',
  '/api/v1/fr/market?lat=45.0136&lng=-0.1291',
  '/api/v1/fr/market?lat=45.0136&lng=-0.1291&property_type=apartment&radius=2000&locale=en',
  '/api/v1/fr/market/sales?lat=45.0136&lng=-0.1291&per_page=5&page=2',
  '/api/v1/fr/market?lat=48.5734&lng=7.7521',
  '/api/v1/fr/catalog/fields',
  '/api/v1/fr/catalog/fields?locale=en',
  '/api/v1/fr/zones/locality/75056',
  '/api/v1/fr/zones/sublocality_level1/75103?geometry=true',
  '/api/v1/fr/zones/locality/75056/children',
  '/api/v1/fr/zones/locality/00000',
  '/api/v1/fr/location?lat=45.0136&lng=-200',
  '/api/v1/fr/location?lat=40.7&lng=-74',
  '/api/v1/fr/location?lat=48.85&lng=2.35&address=Paris',
  '/api/v1/fr/report?lat=48.8597&lng=2.36745&include=weather',
  // Quebec
  '/api/v1/ca/location?address=4115+rue+Saint-Denis,+Montr%C3%A9al',
  '/api/v1/ca/location?lat=45.52&lng=-73.58',
  '/api/v1/ca/report?lat=45.52&lng=-73.58&locale=en',
  '/api/v1/ca/catalog/fields?locale=en',
  '/api/v1/ca/zones/administrative_area_level2/06',
  // Belgium
  '/api/v1/be/location?address=Grote+Markt+1,+1000+Brussel',
  '/api/v1/be/location?lat=50.8466&lng=4.3524',
  '/api/v1/be/report?lat=50.8466&lng=4.3524',
  '/api/v1/be/report?lat=50.8466&lng=4.3524&include=building',
  '/api/v1/be/catalog/fields',
  '/api/v1/be/catalog/domains?locale=en',
  '/api/v1/be/zones/locality/21004/children',
  // Multi-country variant
  '/api/v1/location?address=4115+rue+Saint-Denis,+Montr%C3%A9al',
  '/api/v1/location?lat=50.8466&lng=4.3524&locale=en',
  '/api/v1/location?address=Laval',
  '/api/v1/catalog/coverage',
];

/** Drops what changes between runs: ids and clocks of the request, import dates of the samples. */
function normalise(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => {
    if (key === 'request_id') return '<request_id>';
    if (key === 'imported_at' || key === 'generated_at') return '<time>';
    return value;
  });
}

let t: TestApp;
const responses: Record<string, { status: number; body: unknown }> = {};

beforeAll(async () => {
  const { dataDir } = await samplesDataDir('lds-golden-');
  t = await buildTestApp(dataDir);
  for (const url of URLS) {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
    responses[url] = { status: res.statusCode, body: normalise(res.json()) };
  }
  if (process.env.REGEN === '1' || !existsSync(GOLDEN)) writeFileSync(GOLDEN, JSON.stringify(responses, null, 1) + '\n');
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t?.close(); });

describe('golden responses on the samples', () => {
  const golden = existsSync(GOLDEN) ? JSON.parse(readFileSync(GOLDEN, 'utf8')) as typeof responses : {};
  it.each(URLS)('%s answers as recorded', (url) => {
    expect(golden[url], `no golden response for ${url}: run with REGEN=1`).toBeDefined();
    expect(responses[url]).toEqual(golden[url]);
  });
});
