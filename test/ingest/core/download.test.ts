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

describe('download failures', () => {
  const noWait = { wait: async () => {} };

  it('says the connection was refused, after trying again', async () => {
    // A port nothing listens on: a server opened then closed.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const lines: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'lds-dl-'));
    const err = await download(`http://127.0.0.1:${port}/adresses-75.csv.gz`, dir, fetch, { ...noWait, attempts: 3, log: (l) => lines.push(l) }).catch((e: Error) => e);
    expect((err as Error).message).toBe(`download of http://127.0.0.1:${port}/adresses-75.csv.gz failed after 3 attempts: connection to 127.0.0.1:${port} refused (ECONNREFUSED): nothing listens there, or a firewall refuses`);
    expect(lines).toEqual([
      expect.stringMatching(/refused \(ECONNREFUSED\).*; attempt 2 of 3 in 2 s$/),
      expect.stringMatching(/; attempt 3 of 3 in 4 s$/),
    ]);
  });

  it('says a host name did not resolve (offline or wrong name), not "fetch failed"', async () => {
    // .invalid never resolves (RFC 2606): offline, the lookup fails the same way.
    const dir = await mkdtemp(join(tmpdir(), 'lds-dl-'));
    const err = await download('http://adresse.example.invalid/adresses-75.csv.gz', dir, fetch, { ...noWait, attempts: 1 }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^download of http:\/\/adresse\.example\.invalid\/adresses-75\.csv\.gz failed: DNS lookup of adresse\.example\.invalid (found no address \(ENOTFOUND\)|failed \(EAI_AGAIN\))/);
    expect((err as Error).message).not.toMatch(/fetch failed/);
  });

  it('says a timeout is one', async () => {
    const timeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    const failing = (async () => { throw new TypeError('fetch failed', { cause: timeout }); }) as typeof fetch;
    const err = await download('http://files.example/adresses-75.csv.gz', await mkdtemp(join(tmpdir(), 'lds-dl-')), failing, { ...noWait, attempts: 2 }).catch((e: Error) => e);
    expect((err as Error).message).toBe('download of http://files.example/adresses-75.csv.gz failed after 2 attempts: connection to files.example timed out (UND_ERR_CONNECT_TIMEOUT): no answer from the server');
  });

  it('tries a busy server again and gets the file; an HTTP 404 is not tried again', async () => {
    let calls = 0;
    const busy = createServer((req, res) => {
      calls++;
      if (req.url === '/gone.csv') { res.writeHead(404).end(); return; }
      if (calls <= 2) { res.writeHead(503).end(); return; }
      res.writeHead(200).end(payload);
    });
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const at = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
    try {
      const lines: string[] = [];
      const d = await download(`${at}/adresses-75.csv.gz`, await mkdtemp(join(tmpdir(), 'lds-dl-')), fetch, { ...noWait, log: (l) => lines.push(l) });
      expect(d.sha256).toBe(createHash('sha256').update(payload).digest('hex'));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/HTTP 503 Service Unavailable; attempt 2 of 4/);
      calls = 0;
      const err = await download(`${at}/gone.csv`, await mkdtemp(join(tmpdir(), 'lds-dl-')), fetch, noWait).catch((e: Error) => e);
      expect((err as Error).message).toBe(`download of ${at}/gone.csv failed: HTTP 404 Not Found`);
      expect(calls).toBe(1);
    } finally { busy.close(); }
  });

  it('resumes where a cut transfer stopped', async () => {
    let first = true;
    const asked: (string | undefined)[] = [];
    const cutting = createServer((req, res) => {
      asked.push(req.headers.range);
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      if (m) { res.writeHead(206).end(payload.subarray(Number(m[1]))); return; }
      res.writeHead(200, { 'content-length': payload.length });
      // Cut after the client has had time to read the first bytes: a stream that errors drops the chunks still queued in it.
      if (first) { first = false; res.write(payload.subarray(0, 10_000), () => setTimeout(() => res.destroy(), 200)); return; }
      res.end(payload);
    });
    await new Promise<void>((r) => cutting.listen(0, '127.0.0.1', () => r()));
    try {
      const d = await download(`http://127.0.0.1:${(cutting.address() as AddressInfo).port}/adresses-33.csv.gz`, await mkdtemp(join(tmpdir(), 'lds-dl-')), fetch, noWait);
      expect(asked).toEqual([undefined, expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
      expect(d.resumed).toBe(true);
      expect(await readFile(d.path)).toEqual(payload);
    } finally { cutting.close(); }
  });
});
