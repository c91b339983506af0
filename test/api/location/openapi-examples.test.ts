import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asExample } from '../../../api/core/openapi.ts';
import { EXAMPLES_FILE, locationExamples } from '../../../api/location/openapi-examples.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { samplesDataDir } from '../../helpers/samples.ts';

/** The request recorded as each main operation's example, on the committed samples. */
const EXAMPLE_URLS: Record<string, string> = {
  'GET /api/v1/fr/location': '/api/v1/fr/location?address=18+rue+de+Bretagne+75003+Paris',
  'GET /api/v1/fr/report': '/api/v1/fr/report?lat=48.8597&lng=2.36745&include=market,risks&locale=en',
  'GET /api/v1/fr/market': '/api/v1/fr/market?lat=45.0136&lng=-0.1291',
  'GET /api/v1/fr/market/sales': '/api/v1/fr/market/sales?lat=45.0136&lng=-0.1291&per_page=3',
  'GET /api/v1/fr/zones/{level}/{code}': '/api/v1/fr/zones/locality/75056',
  'GET /api/v1/fr/zones/{level}/{code}/children': '/api/v1/fr/zones/locality/75056/children',
  'GET /api/v1/fr/catalog/fields': '/api/v1/fr/catalog/fields?locale=en',
  'GET /api/v1/ca/location': '/api/v1/ca/location?address=4115+rue+Saint-Denis,+Montr%C3%A9al',
  'GET /api/v1/ca/report': '/api/v1/ca/report?lat=45.52&lng=-73.58&locale=en',
  'GET /api/v1/be/location': '/api/v1/be/location?address=Grote+Markt+1,+1000+Brussel',
  'GET /api/v1/be/report': '/api/v1/be/report?lat=50.8466&lng=4.3524',
  'GET /api/v1/be/places': '/api/v1/be/places?lat=50.8466&lng=4.3524',
  'GET /api/v1/be/access': '/api/v1/be/access?lat=50.8466&lng=4.3524',
  'GET /api/v1/be/residents': '/api/v1/be/residents?lat=50.8466&lng=4.3524',
  'GET /api/v1/location': '/api/v1/location?address=4115+rue+Saint-Denis,+Montr%C3%A9al',
  'GET /api/v1/report': '/api/v1/report?lat=50.8466&lng=4.3524&include=amenities,transport&locale=en',
  'GET /api/v1/catalog/coverage': '/api/v1/catalog/coverage',
};

let t: TestApp;
const answered: Record<string, { status: number; body: unknown }> = {};

beforeAll(async () => {
  const { dataDir } = await samplesDataDir('lds-examples-');
  t = await buildTestApp(dataDir);
  for (const [operation, url] of Object.entries(EXAMPLE_URLS)) {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
    answered[operation] = { status: res.statusCode, body: asExample(res.json()) };
  }
  if (process.env.REGEN === '1' || !existsSync(EXAMPLES_FILE)) {
    writeFileSync(EXAMPLES_FILE, JSON.stringify(Object.fromEntries(Object.entries(answered).map(([k, v]) => [k, v.body])), null, 1) + '\n');
  }
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t?.close(); });

describe('OpenAPI examples from the samples', () => {
  it.each(Object.keys(EXAMPLE_URLS))('%s: a success the server still answers on the samples', (operation) => {
    expect(answered[operation]!.status).toBe(200);
    expect(locationExamples[operation], `no example for ${operation}: run with REGEN=1`).toEqual(answered[operation]!.body);
  });

  it('the document shows each example on its operation\'s success response', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> };
    for (const operation of Object.keys(EXAMPLE_URLS)) {
      const [method, path] = operation.split(' ') as [string, string];
      expect(doc.paths[path]![method.toLowerCase()]!.responses['200']!.content!['application/json']!.example, operation).toEqual(locationExamples[operation]);
    }
  });
});
