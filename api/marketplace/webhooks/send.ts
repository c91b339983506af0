/**
 * One webhook POST over node:http(s). Unless private networks are allowed, the receiver's
 * address is checked when the connection is made (in the socket's DNS lookup, so a name that
 * resolves to a public address when checked cannot connect to an internal one afterwards):
 * loopback, private, link-local, carrier-grade NAT, multicast and unspecified addresses are
 * refused, so a partner's URL cannot make the server call its own network (SSRF).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface SendResult { status: number }
export type Send = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<SendResult>;

const blocked = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** True for addresses a webhook must not reach (IPv4-mapped IPv6 judged as IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class RefusedAddress extends Error {
  constructor(address: string) {
    super(`refused: ${address} is an internal address`);
    this.name = 'RefusedAddress';
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 4);
    const bad = addresses.find((a) => isInternalAddress(a.address));
    if (bad) return callback(new RefusedAddress(bad.address), '', 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

export function createSender(opts: { allowPrivateNetworks: boolean }): Send {
  return (url, headers, body, timeoutMs) =>
    new Promise<SendResult>((resolve, reject) => {
      const u = new URL(url);
      const host = u.hostname.replace(/^\[|\]$/g, '');
      if (!opts.allowPrivateNetworks && isIP(host) !== 0 && isInternalAddress(host)) return reject(new RefusedAddress(host));
      const client = u.protocol === 'https:' ? https : http;
      const req = client.request(
        u,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: opts.allowPrivateNetworks ? undefined : guardedLookup,
        },
        (res) => {
          res.resume(); // the answer's body is not used
          res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0 }); });
          res.on('error', reject);
        },
      );
      // One limit for the whole exchange, so a receiver trickling bytes cannot hold a worker.
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (err) => { clearTimeout(timer); reject(err); });
      req.end(body);
    });
}
