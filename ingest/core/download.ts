import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileSha256 } from './table-writer.ts';

/** `publishedAt`: the producer's Last-Modified date (YYYY-MM-DD) when its server sends one. */
export interface Downloaded { path: string; sha256: string; url: string; bytes: number; resumed: boolean; publishedAt: string | null }

/**
 * Fetches a producer's file into `dir`, resuming a partial `.part` file with an HTTP Range
 * request when the server allows it. The file appears under its final name only once complete.
 */
export async function download(url: string, dir: string, fetchImpl: typeof fetch = fetch): Promise<Downloaded> {
  await mkdir(dir, { recursive: true });
  const name = basename(new URL(url).pathname) || 'download';
  const path = join(dir, name);
  const part = `${path}.part`;
  const have = await stat(part).then((s) => s.size, () => 0);
  const res = await fetchImpl(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {} });
  if (res.status === 416) {
    // Already complete: the server has nothing past what we hold.
  } else if (!res.ok || !res.body) {
    throw new Error(`download of ${url} failed: HTTP ${res.status}`);
  }
  const resumed = res.status === 206;
  if (res.status !== 416) {
    const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), out);
  }
  await rename(part, path);
  const bytes = (await stat(path)).size;
  const modified = Date.parse(res.headers.get('last-modified') ?? '');
  const publishedAt = Number.isNaN(modified) ? null : new Date(modified).toISOString().slice(0, 10);
  return { path, sha256: await fileSha256(path), url, bytes, resumed, publishedAt };
}
