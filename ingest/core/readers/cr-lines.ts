import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

/** Does the file end its lines with a lone CR (old Mac style): a CR in its first 64 KiB and no LF? */
export async function hasCrOnlyLines(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(1 << 16);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const b = head.subarray(0, bytesRead);
    return b.includes(0x0d) && !b.includes(0x0a);
  } finally {
    await fh.close();
  }
}

/**
 * A producer file with CR-only line ends, as the CSV reader (LF or CRLF records) reads it: a copy
 * with every CR turned into LF, under the same file name in a temporary folder (a CR inside a
 * quoted field becomes an LF there, still inside its field). Byte-for-byte otherwise; `done`
 * removes the copy. A file with LF line ends is returned as it is.
 */
export async function withLfLines(path: string): Promise<{ path: string; converted: boolean; done: () => Promise<void> }> {
  if (!(await hasCrOnlyLines(path))) return { path, converted: false, done: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'lds-cr-'));
  const out = join(dir, basename(path));
  const cr = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const copy = Buffer.from(chunk);
      for (let i = 0; i < copy.length; i++) if (copy[i] === 0x0d) copy[i] = 0x0a;
      cb(null, copy);
    },
  });
  try {
    await pipeline(createReadStream(path), cr, createWriteStream(out));
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return { path: out, converted: true, done: () => rm(dir, { recursive: true, force: true }) };
}
