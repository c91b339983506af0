import { mkdir, open, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileSha256 } from './table-writer.ts';

/** `publishedAt`: the producer's Last-Modified date (YYYY-MM-DD) when its server sends one. */
export interface Downloaded { path: string; sha256: string; url: string; bytes: number; resumed: boolean; publishedAt: string | null }

export interface DownloadOptions {
  /** Attempts in all (first try included). */
  attempts?: number;
  /** Wait before the second attempt; doubled for each next one. */
  backoffMs?: number;
  log?: (line: string) => void;
  /** Injected in tests (no real waiting). */
  wait?: (ms: number) => Promise<unknown>;
}

/** A download failure with its cause said in words, and whether trying again may help. */
export class DownloadError extends Error {
  constructor(message: string, readonly retryable: boolean) { super(message); }
}

interface NodeCause { code?: string; message?: string; hostname?: string; address?: string; port?: number; cause?: NodeCause }

/**
 * What went wrong, from the error `fetch` throws: Node's fetch says only "fetch failed" and keeps
 * the reason (DNS, refused connection, timeout, TLS) in `cause`.
 */
export function describeFetchError(url: string, err: unknown): DownloadError {
  const host = new URL(url).host;
  let c = (err as { cause?: NodeCause }).cause ?? (err as NodeCause);
  // undici wraps some causes once more (a connect error inside an AggregateError...).
  while (c && !c.code && c.cause) c = c.cause;
  const code = c?.code ?? (err as Error).name;
  const detail = c?.message ?? String(err);
  switch (code) {
    case 'ENOTFOUND':
      return new DownloadError(`DNS lookup of ${host} found no address (ENOTFOUND): no network, or the host name is wrong`, true);
    case 'EAI_AGAIN':
      return new DownloadError(`DNS lookup of ${host} failed (EAI_AGAIN): the name server cannot be reached (offline?)`, true);
    case 'ECONNREFUSED':
      return new DownloadError(`connection to ${host} refused (ECONNREFUSED): nothing listens there, or a firewall refuses`, true);
    case 'ECONNRESET': case 'UND_ERR_SOCKET':
      return new DownloadError(`connection to ${host} reset (${code}) during the transfer`, true);
    case 'ETIMEDOUT': case 'UND_ERR_CONNECT_TIMEOUT':
      return new DownloadError(`connection to ${host} timed out (${code}): no answer from the server`, true);
    case 'UND_ERR_HEADERS_TIMEOUT': case 'UND_ERR_BODY_TIMEOUT': case 'TimeoutError':
      return new DownloadError(`${host} stopped answering (${code})`, true);
    case 'ENETUNREACH': case 'EHOSTUNREACH':
      return new DownloadError(`${host} is unreachable (${code}): no route to it (offline?)`, true);
    default:
      if (/CERT|SSL|TLS/i.test(code ?? '')) return new DownloadError(`TLS with ${host} failed (${code}): ${detail}`, false);
      return new DownloadError(`${host}: ${code ? `${code}: ` : ''}${detail}`, true);
  }
}

/** HTTP statuses worth another attempt: the server is busy or failed, not the request. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

async function attempt(url: string, path: string, fetchImpl: typeof fetch): Promise<{ resumed: boolean; lastModified: string | null }> {
  const part = `${path}.part`;
  const have = await stat(part).then((s) => s.size, () => 0);
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {} });
  } catch (e) {
    throw describeFetchError(url, e);
  }
  if (res.status === 416) {
    // Already complete: the server has nothing past what we hold.
  } else if (!res.ok || !res.body) {
    throw new DownloadError(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, RETRYABLE_STATUS.has(res.status));
  }
  const resumed = res.status === 206;
  if (res.status !== 416) {
    // Each chunk is written before the next is read: when the transfer is cut, what arrived stays
    // in .part and the next attempt resumes from it (a piped stream drops its pending writes).
    const out = await open(part, resumed ? 'a' : 'w');
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) await out.write(chunk);
    } catch (e) {
      throw describeFetchError(url, e);
    } finally {
      await out.close();
    }
  }
  await rename(part, path);
  return { resumed, lastModified: res.headers.get('last-modified') };
}

/**
 * Fetches a producer's file into `dir`, resuming a partial `.part` file with an HTTP Range
 * request when the server allows it. The file appears under its final name only once complete.
 * A network failure, a cut transfer or a busy server (408, 429, 5xx) is tried again after 2 s,
 * 4 s, 8 s (4 attempts by default); the error says the cause (DNS, refused, timeout, TLS, HTTP
 * status) and the attempts made.
 */
export async function download(url: string, dir: string, fetchImpl: typeof fetch = fetch, options: DownloadOptions = {}): Promise<Downloaded> {
  const attempts = options.attempts ?? 4;
  const backoff = options.backoffMs ?? 2000;
  const wait = options.wait ?? sleep;
  await mkdir(dir, { recursive: true });
  const name = basename(new URL(url).pathname) || 'download';
  const path = join(dir, name);
  for (let n = 1; ; n++) {
    try {
      const { resumed, lastModified } = await attempt(url, path, fetchImpl);
      const bytes = (await stat(path)).size;
      const modified = Date.parse(lastModified ?? '');
      const publishedAt = Number.isNaN(modified) ? null : new Date(modified).toISOString().slice(0, 10);
      return { path, sha256: await fileSha256(path), url, bytes, resumed, publishedAt };
    } catch (e) {
      const err = e instanceof DownloadError ? e : new DownloadError((e as Error).message, false);
      if (!err.retryable || n >= attempts) {
        throw new DownloadError(`download of ${url} failed${n > 1 ? ` after ${n} attempts` : ''}: ${err.message}`, false);
      }
      const delay = backoff * 2 ** (n - 1);
      options.log?.(`download of ${url}: ${err.message}; attempt ${n + 1} of ${attempts} in ${Math.round(delay / 1000)} s`);
      await wait(delay);
    }
  }
}
