import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  t = await buildTestApp(await buildFixtureData(), { logger: { level: 'info', stream, redact: ['req.headers.authorization'] } });
});
afterAll(async () => { await t.close(); });

describe('logs', () => {
  it('carry the request id and never the key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/fr/location?lat=48.86&lng=2.36', headers: { authorization: `Bearer ${t.key}`, 'x-request-id': 'log-check-1' } });
    expect(res.statusCode).toBe(200);
    const all = lines.join('');
    expect(all).toContain('log-check-1');
    expect(all).not.toContain(t.key);
    expect(all).not.toContain(t.key.slice(9));
  });
});
