import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asExample, readExamples } from '../../../api/core/openapi.ts';
import { LISTING_EXAMPLES_FILE, LISTING_REQUEST_EXAMPLES_FILE, listingExamples } from '../../../api/listing/openapi-examples.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { condoPayload, listingFixture, PREFIX, type ListingFixture } from './fixtures.ts';

let db: Isolated;
let f: ListingFixture;
const answered: Record<string, { status: number; body: unknown }> = {};
const sent: Record<string, unknown> = {};
let readOperations: string[] = [];
let writeOperations: string[] = [];
type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> };
let doc: Doc;

/** What changes between runs fixed: the database's clock on created and updated times, generated user uids. */
const stable = (body: unknown) => JSON.parse(JSON.stringify(asExample(body)), (key, value) => {
  if (/^(created|updated|modified|inserted)(_at|_on|At|On)?$/.test(key) && typeof value === 'string') return '2026-11-20T10:00:00Z';
  if (key === 'uid' && typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value)) return '3f1e9a52-7c4b-4d2e-9b8a-1f2e3d4c5b6a';
  return value;
}) as unknown;

const RESOURCES = ['properties', 'agencies', 'users', 'gateways'] as const;
type Resource = typeof RESOURCES[number];

/**
 * The script: on board gmtl, a condo of the fixture's agency and broker and a gateway are created
 * through 3.2; then every read operation of the document, in each version, is called with the
 * ids of those records. Then, version by version, each resource is created, updated and deleted
 * with the bodies below (the write operations: their request bodies and answers are recorded).
 */
beforeAll(async () => {
  db = await backends[0]!.open();
  f = await listingFixture(db.sql);
  const post = async (path: string, payload: object) => {
    const res = await f.t.app.inject({ method: 'POST', url: `${PREFIX['3.2']}${path}?mls_board=gmtl`, headers: f.auth, payload });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id?: number; data?: { id: number } });
  };
  const idOf = (b: { id?: number; data?: { id: number } }) => b.data?.id ?? b.id!;
  const property = idOf(await post('/properties', condoPayload(f.agencyId, f.userId)));
  const gateway = idOf(await post('/gateways', { code: 'realtor', name: 'Realtor.ca', kind: 'portal', format: 'xml', endpoint_url: 'https://ddf.example.ca/feed' }));
  const ids: Record<string, number> = { properties: property, agencies: f.agencyId, users: f.userId, gateways: gateway };
  doc = (await f.t.app.inject('/openapi.json')).json() as Doc;
  const listing = Object.entries(doc.paths).filter(([path]) => path.startsWith('/{locale}/api/v3'));
  const operations = (methods: string[]) => listing.flatMap(([path, ms]) => Object.keys(ms).filter((m) => methods.includes(m)).map((m) => `${m} ${path}`));
  readOperations = operations(['get']);
  writeOperations = operations(['post', 'patch', 'delete']);
  for (const operation of readOperations) {
    const path = operation.slice('get '.length);
    const resource = /\/api\/v3[.\d]*\/(\w+)/.exec(path)![1]!;
    const url = `${path.replace('{locale}', 'fr-CA').replace('{id}', String(ids[resource]))}?mls_board=gmtl`;
    const res = await f.t.app.inject({ method: 'GET', url, headers: f.auth });
    answered[operation] = { status: res.statusCode, body: stable(res.json()) };
  }

  // The writes, after the reads (so the read examples show only the first records).
  // A deleted user keeps their e-mail address taken: each version creates its own broker.
  const bodies = (v: string): Record<Resource, { create: object; update: object }> => ({
    properties: {
      create: condoPayload(f.agencyId, f.userId, {
        price: 615000, bedrooms: 3, year_built: 1912, description: 'Plex converti en condo, rez-de-chaussée avec cour, à deux pas du métro Laurier.',
        address: { street_number: '5010', street_name: 'Rue Saint-Denis', unit_number: '1', city: 'Montréal', region: 'QC', postal_code: 'H2J 2L8', country: 'CA', latitude: 45.5291, longitude: -73.5861 },
        photos: [{ url: 'https://photos.example.ca/5010-st-denis/1.jpg', caption: 'Cour arrière' }],
      }),
      update: { price: 599000, status: 'active', description: 'Prix révisé. Plex converti en condo, rez-de-chaussée avec cour, à deux pas du métro Laurier.' },
    },
    agencies: {
      create: { name: 'Agence du Mile End', country: 'CA', phone: '+1 514 555 0100', email: 'info@mileend.example.ca', website: 'https://mileend.example.ca', license_number: 'AG-20431' },
      update: { phone: '+1 514 555 0199', website: 'https://www.mileend.example.ca' },
    },
    users: {
      create: { agency_id: f.agencyId, email: `lea.roy.${v.replace('.', '')}@example.ca`, first_name: 'Léa', last_name: 'Roy', languages: ['fr'], phone: '+1 514 555 0142', title: 'Courtière immobilière résidentielle', license_number: 'H-7731' },
      update: { languages: ['fr', 'en'], title: 'Courtière immobilière résidentielle et commerciale' },
    },
    gateways: {
      create: { code: 'centris', name: 'Centris', kind: 'portal', format: 'json', endpoint_url: 'https://feeds.example.ca/centris', active: true },
      update: { active: false },
    },
  });
  const versions = [...new Set(writeOperations.map((o) => /\/api\/(v3[.\d]*)\//.exec(o)![1]!))];
  for (const v of versions) {
    const prefix = `/fr-CA/api/${v}`, key = (method: string, path: string) => `${method} /{locale}/api/${v}${path}`;
    for (const r of RESOURCES) {
      const call = async (operation: string, method: 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) => {
        const res = await f.t.app.inject({ method, url: `${prefix}${path}?mls_board=gmtl`, headers: f.auth, ...(payload ? { payload } : {}) });
        if (payload) sent[operation] = payload;
        answered[operation] = { status: res.statusCode, body: res.statusCode === 204 ? null : stable(res.json()) };
        return res;
      };
      const created = await call(key('post', `/${r}`), 'POST', `/${r}`, bodies(v)[r].create);
      expect(created.statusCode, created.body).toBe(201);
      const id = idOf(created.json());
      await call(key('patch', `/${r}/{id}`), 'PATCH', `/${r}/${id}`, bodies(v)[r].update);
      await call(key('delete', `/${r}/{id}`), 'DELETE', `/${r}/${id}`);
    }
  }
  if (process.env.REGEN === '1' || Object.keys(listingExamples).length === 0 || !existsSync(LISTING_EXAMPLES_FILE) || !existsSync(LISTING_REQUEST_EXAMPLES_FILE)) {
    const responses = Object.fromEntries([...readOperations, ...writeOperations].filter((o) => answered[o]?.body != null).map((o) => [o, answered[o]!.body]));
    writeFileSync(LISTING_EXAMPLES_FILE, JSON.stringify(responses, null, 1) + '\n');
    writeFileSync(LISTING_REQUEST_EXAMPLES_FILE, JSON.stringify(Object.fromEntries(writeOperations.filter((o) => o in sent).map((o) => [o, sent[o]])), null, 1) + '\n');
  }
});
afterAll(async () => { await f?.close(); await db?.cleanup(); });

describe('OpenAPI examples of the listing API', () => {
  it('records every read operation of the three versions, each a success the server still answers', () => {
    const recorded = readExamples(LISTING_EXAMPLES_FILE);
    expect(readOperations.length).toBe(27);
    for (const operation of readOperations) {
      expect(answered[operation]!.status, operation).toBe(200);
      expect(recorded[operation], `no example for ${operation}: run with REGEN=1`).toEqual(answered[operation]!.body);
    }
  });

  it('records the request body and the answer of every write operation (create, update, delete) of the three versions', () => {
    const recorded = readExamples(LISTING_EXAMPLES_FILE), requests = readExamples(LISTING_REQUEST_EXAMPLES_FILE);
    // Four resources (properties, agencies, users, gateways) x create, update, delete x three versions.
    expect(writeOperations.length).toBe(36);
    for (const operation of writeOperations) {
      const method = operation.split(' ')[0]!;
      expect(answered[operation]?.status, `${operation}: ${JSON.stringify(answered[operation]?.body)}`).toBe({ post: 201, patch: 200, delete: 204 }[method]);
      if (method === 'delete') {
        // 204: no body to show, and none sent.
        expect(recorded[operation], operation).toBeUndefined();
        expect(requests[operation], operation).toBeUndefined();
        continue;
      }
      expect(requests[operation], `no request example for ${operation}: run with REGEN=1`).toEqual(sent[operation]);
      expect(recorded[operation], `no example for ${operation}: run with REGEN=1`).toEqual(answered[operation]!.body);
    }
    // Only operations of the document are recorded.
    expect(Object.keys(recorded).filter((o) => !readOperations.includes(o) && !writeOperations.includes(o))).toEqual([]);
    expect(Object.keys(requests).filter((o) => !writeOperations.includes(o))).toEqual([]);
  });

  it('shows them in /openapi.json: the request body example and the success response example of each operation', () => {
    if (process.env.REGEN === '1') return; // the document was built from the files before they were recorded
    const recorded = readExamples(LISTING_EXAMPLES_FILE), requests = readExamples(LISTING_REQUEST_EXAMPLES_FILE);
    for (const operation of [...readOperations, ...writeOperations]) {
      const [method, path] = operation.split(' ') as [string, string];
      const op = doc.paths[path]![method]!;
      const status = { get: '200', post: '201', patch: '200', delete: '204' }[method]!;
      expect(op.responses[status]?.content?.['application/json']?.example, operation).toEqual(recorded[operation]);
      expect(op.requestBody?.content['application/json']?.example, operation).toEqual(requests[operation]);
    }
  });
});
