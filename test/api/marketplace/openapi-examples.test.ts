import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asExample } from '../../../api/core/openapi.ts';
import { MARKETPLACE_EXAMPLES_FILE, marketplaceExamples } from '../../../api/marketplace/openapi-examples.ts';
import { purchase } from '../../../api/marketplace/purchases.ts';
import { createDeliveryWorker } from '../../../api/marketplace/webhooks/worker.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { closeMarket, openMarket, type MarketFixture } from './fixture.ts';

const BASE = '/stores/maison/fr/api/v1';
let db: Isolated;
let f: MarketFixture;
const answered: Record<string, { status: number; body: unknown }> = {};

/** What changes between runs fixed: the receiver's port, an attempt's duration, the profile's update time (the database's clock). */
const stable = (body: unknown) => JSON.parse(JSON.stringify(asExample(body)), (key, value) => {
  if (key === 'url' && typeof value === 'string') return value.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'https://partner.example');
  if (key === 'duration_ms' && typeof value === 'number') return 120;
  if (key === 'updated_at' && typeof value === 'string') return '2026-11-20T10:00:00+00:00';
  return value;
}) as unknown;

/**
 * The script each operation's example is recorded from, in a fresh store of the test fixture:
 * Julie buys 100 tours with the HD option, the owner debits 3 of them, reads the delivery log
 * after the worker's round, and sends itself a test event.
 */
beforeAll(async () => {
  ({ db, f } = await openMarket(backends[0]!));
  const worker = createDeliveryWorker({ sql: db.sql, clock: f.clock, allowPrivateNetworks: true });
  const p = await purchase(db.sql, f.catalog, { store: 'maison', user: 'julie@example.ca', plan: 'ACME-TOURS-T100', options: ['hd'] }, f.clock);
  const call = async (operation: string, method: 'GET' | 'POST', url: string) => {
    const res = await f.app.inject({ method, url, headers: { ...f.headers('OWNER'), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, ...(method === 'POST' ? { payload: '{}' } : {}) });
    answered[operation] = { status: res.statusCode, body: stable(res.json()) };
  };
  await call('get /stores/{store}/fr/api/v1/services', 'GET', `${BASE}/services?email=julie@example.ca`);
  await call('post /stores/{store}/fr/api/v1/services/debit/{authorizationId}/{quantityToDebit}', 'POST', `${BASE}/services/debit/${p.authorizationId}/3?email=julie@example.ca`);
  await worker.runOnce();
  await call('get /stores/{store}/fr/api/v1/webhooks/deliveries', 'GET', `${BASE}/webhooks/deliveries?limit=2`);
  await call('post /stores/{store}/fr/api/v1/webhooks/test', 'POST', `${BASE}/webhooks/test`);
  if (process.env.REGEN === '1' || Object.keys(marketplaceExamples).length === 0 || !existsSync(MARKETPLACE_EXAMPLES_FILE)) {
    writeFileSync(MARKETPLACE_EXAMPLES_FILE, JSON.stringify(Object.fromEntries(Object.entries(answered).map(([k, v]) => [k, v.body])), null, 1) + '\n');
  }
});
afterAll(async () => { await closeMarket(db, f); });

describe('OpenAPI examples of the marketplace', () => {
  it('records every operation of the document, each a success the server still answers', async () => {
    const doc = (await f.app.inject('/stores/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    expect(operations.sort()).toEqual(Object.keys(answered).sort());
    for (const operation of operations) {
      expect(answered[operation]!.status, operation).toBe(200);
      expect(marketplaceExamples[operation], `no example for ${operation}: run with REGEN=1`).toEqual(answered[operation]!.body);
    }
  });
});
