import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../../ingest/core/download.ts';

// A producer's server on loopback that honours Range requests, as data.gouv.fr's does.
const payload = Buffer.from('id;numero\n'.repeat(5000));
let server: Server;
let base: string;
const ranges: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    ranges.push(req.headers.range);
    if (req.url === '/missing.csv') { res.writeHead(404).end(); return; }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      const from = Number(m[1]);
      if (from >= payload.length) { res.writeHead(416).end(); return; }
      res.writeHead(206, { 'content-range': `bytes ${from}-${payload.length - 1}/${payload.length}` }).end(payload.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-length': payload.length }).end(payload);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => { server.close(); });

describe('download', () => {
  const sha = createHash('sha256').update(payload).digest('hex');

  it('fetches a file and records its checksum', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-dl-'));
    const d = await download(`${base}/adresses-75.csv.gz`, dir);
    expect(d).toMatchObject({ bytes: payload.length, sha256: sha, resumed: false, path: join(dir, 'adresses-75.csv.gz') });
  });

  it('resumes a partial download with a Range request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-dl-'));
    await writeFile(join(dir, 'adresses-33.csv.gz.part'), payload.subarray(0, 12_345));
    ranges.length = 0;
    const d = await download(`${base}/adresses-33.csv.gz`, dir);
    expect(ranges).toEqual(['bytes=12345-']);
    expect(d.resumed).toBe(true);
    expect(d.sha256).toBe(sha);
    expect(await readFile(d.path)).toEqual(payload);
  });

  it('fails clearly on an HTTP error and publishes no file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-dl-'));
    await expect(download(`${base}/missing.csv`, dir)).rejects.toThrow(/HTTP 404/);
  });
});

describe('fr.ban --download', () => {
  it('downloads the department file from a mirror, ingests it and records the checksum and address in the manifest', async () => {
    const { gzipSync } = await import('node:zlib');
    const { BAN_HEADER, BAN_ROWS, banLine } = await import('../../helpers/fixture-data.ts');
    const gz = gzipSync(`${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
    const mirror = createServer((req, res) => {
      if (req.url === '/ban/adresses-75.csv.gz') res.writeHead(200, { 'last-modified': 'Tue, 17 Nov 2026 06:12:00 GMT' }).end(gz); else res.writeHead(404).end();
    });
    await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/ban`;
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-dl-')), 'data');
    try {
      const { jobById } = await import('../../../ingest/jobs.ts');
      const { silentContext } = await import('../../helpers/fixture-data.ts');
      const summary = await jobById('fr.ban')!.run(silentContext(dataDir), ['--download', '--part', '75', '--url', url]);
      // The fixture holds addresses of Paris and of Gironde: one partition each.
      expect(summary.map((s) => s.partition)).toEqual(['adresses-33', 'adresses-75']);
      expect(summary.reduce((n, s) => n + s.rows, 0)).toBe(BAN_ROWS.length);
      const manifest = JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8'));
      expect(manifest.partitions[0].sources[0]).toMatchObject({
        downloaded_from: `${url}/adresses-75.csv.gz`, input: 'adresses-75.csv.gz', published_at: '2026-11-17', input_sha256: createHash('sha256').update(gz).digest('hex'),
      });
    } finally { mirror.close(); }
  });
});
