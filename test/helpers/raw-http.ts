/**
 * One HTTP/1.1 request written byte for byte on a socket (what fetch and inject refuse to send:
 * an unknown method, a malformed Host, a head over 16 kB), and the response as received.
 */
import { connect } from 'node:net';

export interface RawResponse { status: number; headers: Record<string, string>; body: string; closed: boolean }

export function rawRequest(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      const all = Buffer.concat(chunks).toString('utf8');
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = all.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const body = all.slice(end + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (!closed && !(Buffer.byteLength(body) >= length)) return;
      settled = true;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, closed });
    };
    socket.on('data', (d: Buffer) => { chunks.push(d); finish(false); });
    socket.on('end', () => finish(true));
    socket.on('close', () => { finish(true); if (!settled) reject(new Error(`no response: ${Buffer.concat(chunks).toString('utf8')}`)); });
    socket.on('error', () => undefined);
    socket.write(text);
  });
}
