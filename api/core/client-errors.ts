/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a head over 16 kB, an unknown
 * method, a malformed request line): answered in the error body of the module owning the path,
 * with X-Request-Id (and X-Api-Version where the module sets it), and `Connection: close`
 * since the connection cannot carry another request. The path is read from the bytes received
 * (Node keeps them on the error as `rawPacket`); without one, the location API's body answers.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

export interface RawAnswer { headers: Record<string, string>; body: string }

/** A module's answer for a refused request on a path it owns; null when the path is not its. */
export type ClientErrorAnswerer = (e: { path: string; status: number; message: string; requestId: string }) => RawAnswer | null;

/** Status and message of a parser error. */
export function classify(err: { code?: string }): { status: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': return { status: 431, message: 'the request head (request line and headers) is over 16 kB' };
    case 'HPE_INVALID_METHOD': return { status: 405, message: 'unknown HTTP method' };
    case 'ERR_HTTP_REQUEST_TIMEOUT': return { status: 408, message: 'the request was not received in time' };
    default: return { status: 400, message: 'the request cannot be read as HTTP/1.1' };
  }
}

/** The path of the request line at the start of `raw`, or '' when it cannot be read. */
export function pathOfRawRequest(raw: unknown): string {
  if (!Buffer.isBuffer(raw)) return '';
  const line = raw.subarray(0, 8192).toString('latin1').split('\r\n', 1)[0] ?? '';
  const m = /^\S+ (\/\S*)/.exec(line);
  return m ? m[1]!.split(/[?#]/, 1)[0]! : '';
}

export function clientErrorHandler(answerers: ClientErrorAnswerer[], fallback: (e: { status: number; message: string; requestId: string }) => RawAnswer) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = classify(err);
    const requestId = randomUUID();
    const path = pathOfRawRequest(err.rawPacket);
    let answer: RawAnswer | null = null;
    for (const a of answerers) if (!answer && path) answer = a({ path, status, message, requestId });
    answer ??= fallback({ status, message, requestId });
    const body = Buffer.from(answer.body, 'utf8');
    const headers = { ...answer.headers, 'X-Request-Id': requestId, 'Content-Length': String(body.length), Connection: 'close' };
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    // Closed once written: the parser cannot read another request on this connection.
    if (socket.writable) socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => socket.destroy());
    else socket.destroy(err);
  };
}
