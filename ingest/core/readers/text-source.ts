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

/** Raw byte stream of the file, gunzipped when needed. The caller must destroy it. */
export async function openByteStream(path: string): Promise<Readable> {
  const gz = await isGzipFile(path);
  const file = createReadStream(path, { highWaterMark: READ_CHUNK });
  if (!gz) return file;
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  file.on('error', (err) => gunzip.destroy(err));
  gunzip.on('close', () => file.destroy());
  return file.pipe(gunzip);
}

/**
 * Decoded text chunks of a file (`encoding` label as in `normalizeEncoding`, default
 * UTF-8). Stops reading and releases the file when the consumer stops early.
 */
export async function* readTextChunks(path: string, encoding?: string): AsyncGenerator<string> {
  const enc = normalizeEncoding(encoding); // validate before opening
  const decoder = createDecoder(enc);
  const source = await openByteStream(path);
  let atStart = enc === 'utf-8';
  try {
    for await (const buf of source as AsyncIterable<Buffer>) {
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
