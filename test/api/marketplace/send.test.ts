import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, isInternalAddress } from '../../../api/marketplace/webhooks/send.ts';

describe('webhook sender', () => {
  let server: Server;
  let port: number;
  const seen: { headers: Record<string, unknown>; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/slow') return; // never answers
        res.writeHead(req.url === '/moved' ? 302 : 200, { location: 'http://127.0.0.1:1/' }).end('ignored');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

  it('classifies internal addresses, IPv4-mapped IPv6 included', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) expect(isInternalAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses internal receivers by literal address and by name unless private networks are allowed', async () => {
    const guarded = createSender({ allowPrivateNetworks: false });
    await expect(guarded(`http://127.0.0.1:${port}/`, {}, '{}', 2000)).rejects.toThrow(/127\.0\.0\.1 is an internal address/);
    await expect(guarded(`http://localhost:${port}/`, {}, '{}', 2000)).rejects.toThrow(/is an internal address/);
    expect(seen).toHaveLength(0);
    const open = createSender({ allowPrivateNetworks: true });
    expect(await open(`http://127.0.0.1:${port}/`, { 'webhook-id': 'msg_1' }, '{"a":1}', 2000)).toEqual({ status: 200 });
    expect(seen[0]).toMatchObject({ body: '{"a":1}', headers: { 'webhook-id': 'msg_1', 'content-length': '7' } });
  });

  it('does not follow redirects and gives up on a silent receiver', async () => {
    const open = createSender({ allowPrivateNetworks: true });
    expect(await open(`http://127.0.0.1:${port}/moved`, {}, '{}', 2000)).toEqual({ status: 302 });
    await expect(open(`http://127.0.0.1:${port}/slow`, {}, '{}', 200)).rejects.toThrow(/no answer within 200 ms/);
  });
});
