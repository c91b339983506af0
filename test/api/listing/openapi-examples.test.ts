import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asExample } from '../../../api/core/openapi.ts';
import { LISTING_EXAMPLES_FILE, listingExamples } from '../../../api/listing/openapi-examples.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { condoPayload, listingFixture, PREFIX, type ListingFixture } from './fixtures.ts';

let db: Isolated;
let f: ListingFixture;
const answered: Record<string, { status: number; body: unknown }> = {};
let readOperations: string[] = [];

/** What changes between runs fixed: the database's clock on created and updated times, generated user uids. */
const stable = (body: unknown) => JSON.parse(JSON.stringify(asExample(body)), (key, value) => {
  if (/^(created|updated|modified|inserted)(_at|_on|At|On)?$/.test(key) && typeof value === 'string') return '2026-11-20T10:00:00Z';
  if (key === 'uid' && typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(value)) return '3f1e9a52-7c4b-4d2e-9b8a-1f2e3d4c5b6a';
  return value;
}) as unknown;

/**
 * The script: on board gmtl, a condo of the fixture's agency and broker and a gateway are created
 * through 3.2; then every read operation of the document, in each version, is called with the
 * ids of those records.
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
  const doc = (await f.t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  readOperations = Object.entries(doc.paths).filter(([path]) => path.startsWith('/{locale}/api/v3')).flatMap(([path, methods]) => Object.keys(methods).filter((m) => m === 'get').map((m) => `${m} ${path}`));
  for (const operation of readOperations) {
    const path = operation.slice('get '.length);
    const resource = /\/api\/v3[.\d]*\/(\w+)/.exec(path)![1]!;
    const url = `${path.replace('{locale}', 'fr-CA').replace('{id}', String(ids[resource]))}?mls_board=gmtl`;
    const res = await f.t.app.inject({ method: 'GET', url, headers: f.auth });
    answered[operation] = { status: res.statusCode, body: stable(res.json()) };
  }
  if (process.env.REGEN === '1' || Object.keys(listingExamples).length === 0 || !existsSync(LISTING_EXAMPLES_FILE)) {
    writeFileSync(LISTING_EXAMPLES_FILE, JSON.stringify(Object.fromEntries(Object.entries(answered).map(([k, v]) => [k, v.body])), null, 1) + '\n');
  }
});
afterAll(async () => { await f?.close(); await db?.cleanup(); });

describe('OpenAPI examples of the listing API', () => {
  it('records every read operation of the three versions, each a success the server still answers', () => {
    expect(readOperations.length).toBe(27);
    for (const operation of readOperations) {
      expect(answered[operation]!.status, operation).toBe(200);
      expect(listingExamples[operation], `no example for ${operation}: run with REGEN=1`).toEqual(answered[operation]!.body);
    }
  });
});
