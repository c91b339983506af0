import { closeSync, createReadStream, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { quotedString, type DuckDBConnection } from '@duckdb/node-api';

/**
 * A key-sorted file of rows read by key without holding the rows in memory: the rows of a query
 * as newline-delimited JSON (`{"k":<key>,"v":[<columns>]}`, ordered by key then by the query's own
 * order), in blocks of whole lines of about BLOCK_BYTES each compressed alone (raw deflate), then
 * the first key and offset of every block, then a trailer. Opening reads the block index into
 * memory; a lookup binary-searches it and inflates the block where the key may start, and the
 * next ones until a greater key: one or two blocks.
 *
 * Why: reads by a key the Parquet tables are not sorted by (a building's diagnoses by BAN address,
 * its sales by parcel, a property's deeds by id) scan every partition at national counts, and an
 * in-memory map of those rows takes gigabytes. Compressed, the national stores take a fraction of
 * their JSON text (20.4 GB uncompressed, 5.4 times the Parquet; docs/benchmarks.md).
 */
export interface KeyedStore {
  /** The rows of each key asked (each key once), in the file's order: by key, then the writing query's order. */
  get(keys: readonly string[]): unknown[][];
  /** Bytes of the file, blocks held in memory. */
  readonly bytes: number;
  readonly blocks: number;
  close(): void;
}

/** Uncompressed bytes of a block (at least: a block ends at the end of a line). */
export const BLOCK_BYTES = 32 * 1024;
/** The file's last bytes: the magic, then the index's offset and length (two little-endian doubles). */
const MAGIC = Buffer.from('KSTORE1\n');
const TRAILER = MAGIC.length + 16;

/**
 * Writes `select` (a query with columns `k`, the key, and `v`, a JSON array of the row) ordered by
 * `order` (`k` first) to `path`: DuckDB writes the lines, then they are packed into compressed
 * blocks with their index. Rows whose key is null are left out.
 */
export async function writeKeyedStore(connection: DuckDBConnection, select: string, order: string, path: string): Promise<void> {
  const lines = `${path}.lines`;
  try {
    await connection.run(`COPY (SELECT k, v FROM (${select}) WHERE k IS NOT NULL ORDER BY ${order}) TO ${quotedString(lines)} (FORMAT json)`);
    await packBlocks(lines, path);
  } finally { rmSync(lines, { force: true }); }
}

/** Packs a file of keyed lines into compressed blocks of whole lines, then the index of their first keys and offsets. */
async function packBlocks(lines: string, path: string): Promise<void> {
  const fd = openSync(path, 'w');
  try {
    const keys: string[] = [], offsets: number[] = [];
    let at = 0, parts: Buffer[] = [], size = 0;
    const flush = () => {
      if (size === 0) return;
      const raw = Buffer.concat(parts, size);
      const end = raw.indexOf(10);
      keys.push(keyOf(raw.toString('utf8', 0, end < 0 ? raw.length : Math.min(end, 1024))).key);
      offsets.push(at);
      const packed = deflateRawSync(raw, { level: 1 });
      writeSync(fd, packed);
      at += packed.length;
      parts = []; size = 0;
    };
    let rest: Buffer = Buffer.alloc(0);
    for await (const chunk of createReadStream(lines, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      // Whole lines only: a block never splits one.
      for (let nl = data.indexOf(10, from); nl >= 0; from = nl + 1, nl = data.indexOf(10, from)) {
        parts.push(data.subarray(from, nl + 1)); size += nl + 1 - from;
        if (size >= BLOCK_BYTES) flush();
      }
      rest = Buffer.from(data.subarray(from));
    }
    if (rest.length > 0) { parts.push(rest, Buffer.from('\n')); size += rest.length + 1; }
    flush();
    const index = Buffer.from(JSON.stringify({ keys, offsets }));
    writeSync(fd, index);
    const trailer = Buffer.alloc(TRAILER);
    MAGIC.copy(trailer, 0);
    trailer.writeDoubleLE(at, MAGIC.length);
    trailer.writeDoubleLE(index.length, MAGIC.length + 8);
    writeSync(fd, trailer);
  } finally { closeSync(fd); }
}

/** Strings in code point order (DuckDB orders VARCHAR by UTF-8 bytes, which keep code point order). */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x !== y) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

const PREFIX = '{"k":';

/** The key of a line `{"k":"...","v":...}`, and where its row starts. */
function keyOf(line: string): { key: string; rest: number } {
  if (!line.startsWith(PREFIX) || line.charCodeAt(PREFIX.length) !== 34) throw new Error(`keyed store: not a keyed row: ${line.slice(0, 60)}`);
  let i = PREFIX.length + 1, escaped = false;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92) { escaped = true; i++; continue; }
    if (c === 34) break;
  }
  const raw = line.slice(PREFIX.length, i + 1);
  return { key: escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1), rest: i + 1 };
}

/** The row of a line (its `v` array). */
const rowOf = (line: string, rest: number): unknown[] => (JSON.parse(`{"v"${line.slice(rest + 4)}`) as { v: unknown[] }).v;

/** Opens a file written by writeKeyedStore: reads its block index. */
export function openKeyedStore(path: string): KeyedStore {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = Buffer.alloc(TRAILER);
    if (size < TRAILER || readSync(fd, trailer, 0, TRAILER, size - TRAILER) !== TRAILER || !trailer.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`keyed store: ${path} is not a keyed store (no trailer)`);
    const dataEnd = trailer.readDoubleLE(MAGIC.length), indexLength = trailer.readDoubleLE(MAGIC.length + 8);
    const index = Buffer.alloc(indexLength);
    readSync(fd, index, 0, indexLength, dataEnd);
    const { keys, offsets } = JSON.parse(index.toString('utf8')) as { keys: string[]; offsets: number[] };
    const ends = Float64Array.from(offsets.slice(1).concat(dataEnd));
    const block = (b: number): Buffer => {
      const packed = Buffer.allocUnsafe(ends[b]! - offsets[b]!);
      readSync(fd, packed, 0, packed.length, offsets[b]!);
      return inflateRawSync(packed);
    };
    const rowsOf = (key: string): unknown[] => {
      // The last block whose first key is below the key: the key's rows start in it or at the next block.
      let lo = 0, hi = keys.length;
      while (lo < hi) { const m = (lo + hi) >>> 1; if (compareKeys(keys[m]!, key) < 0) lo = m + 1; else hi = m; }
      const out: unknown[] = [];
      for (let b = Math.max(0, lo - 1); b < keys.length; b++) {
        const data = block(b);
        for (let from = 0, nl = data.indexOf(10); nl >= 0; from = nl + 1, nl = data.indexOf(10, from)) {
          const line = data.toString('utf8', from, nl);
          const { key: k, rest } = keyOf(line);
          const c = compareKeys(k, key);
          if (c > 0) return out;
          if (c === 0) out.push(rowOf(line, rest));
        }
      }
      return out;
    };
    return {
      bytes: size,
      blocks: keys.length,
      get: (asked) => [...new Set(asked)].flatMap((k) => rowsOf(k) as unknown[][]),
      close: () => closeSync(fd),
    };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}
