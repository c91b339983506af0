/**
 * Streams a text file as decoded string chunks, whatever its size: optional gzip
 * (path ending in `.gz` or gzip magic bytes 1F 8B), then charset decoding, UTF-8 BOM removed.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createDecoder, normalizeEncoding } from './encoding.ts';

const READ_CHUNK = 1 << 20;

/** True when the path ends in `.gz` or the file starts with the gzip magic bytes. */
export async function isGzipFile(path: string): Promise<boolean> {
  if (path.toLowerCase().endsWith('.gz')) return true;
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * Raw byte stream of the file, gunzipped when needed. The caller must destroy it.
 * For gzip, `onBytes` receives the number of bytes read from disk (compressed bytes for gzip), so
 * that progress can be compared with the file size.
 */
export async function openByteStream(
  path: string,
  onBytes?: (n: number) => void,
): Promise<{ stream: Readable; gzip: boolean }> {
  const gz = await isGzipFile(path);
  const file = createReadStream(path, { highWaterMark: READ_CHUNK });
  if (!gz) return { stream: file, gzip: false }; // the consumer counts what it reads
  // the file stream is piped (flowing): counting its 'data' events is safe
  if (onBytes) file.on('data', (b: string | Buffer) => onBytes(b.length));
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  file.on('error', (err) => gunzip.destroy(err));
  gunzip.on('close', () => file.destroy());
  return { stream: file.pipe(gunzip), gzip: true };
}

/**
 * Decoded text chunks of a file (`encoding` label as in `normalizeEncoding`, default
 * UTF-8). Stops reading and releases the file when the consumer stops early.
 */
export async function* readTextChunks(
  path: string,
  encoding?: string,
  onBytes?: (n: number) => void,
): AsyncGenerator<string> {
  const enc = normalizeEncoding(encoding); // validate before opening
  const decoder = createDecoder(enc);
  const { stream: source, gzip } = await openByteStream(path, onBytes);
  const countRead = gzip ? undefined : onBytes;
  let atStart = enc === 'utf-8';
  try {
    for await (const buf of source as AsyncIterable<Buffer>) {
      countRead?.(buf.length);
      let text = decoder.write(buf);
      if (atStart && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        atStart = false;
      }
      if (text.length > 0) yield text;
    }
    const tail = decoder.end();
    if (tail.length > 0) yield tail;
  } finally {
    source.destroy();
  }
}
