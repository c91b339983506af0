import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { quotedString, type DuckDBConnection } from '@duckdb/node-api';

/**
 * A key-sorted file of rows read by key without holding the rows in memory: the rows of a query
 * written by DuckDB as newline-delimited JSON (`{"k":<key>,"v":[<columns>]}`, ordered by key then
 * by the query's own order), and, in memory, the first key and offset of every block of
 * BLOCK_BYTES. A lookup binary-searches the blocks and reads the file from the block where the
 * key may start until a greater key: one or two reads of 32 kB from the page cache.
 *
 * Why: reads by a key the Parquet tables are not sorted by (a building's diagnoses by BAN address,
 * its sales by parcel, a property's deeds by id) scan every partition at national counts, and an
 * in-memory map of those rows takes gigabytes.
 */
export interface KeyedStore {
  /** The rows of each key asked (each key once), in the file's order: by key, then the writing query's order. */
  get(keys: readonly string[]): unknown[][];
  /** Bytes of the file, blocks held in memory. */
  readonly bytes: number;
  readonly blocks: number;
  close(): void;
}

export const BLOCK_BYTES = 32 * 1024;

/**
 * Writes `select` (a query with columns `k`, the key, and `v`, a JSON array of the row) ordered by
 * `order` (`k` first) to `path` as newline-delimited JSON. Rows whose key is null are left out.
 */
export async function writeKeyedStore(connection: DuckDBConnection, select: string, order: string, path: string): Promise<void> {
  await connection.run(`COPY (SELECT k, v FROM (${select}) WHERE k IS NOT NULL ORDER BY ${order}) TO ${quotedString(path)} (FORMAT json)`);
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

/** Opens a file written by writeKeyedStore: reads one line per block to index it. */
export function openKeyedStore(path: string): KeyedStore {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const offsets: number[] = [], keys: string[] = [];
  const buf = Buffer.allocUnsafe(BLOCK_BYTES);
  /** The first line starting after byte `after` (-1: the file's first line): its offset and key, null past the end. */
  const lineAfter = (after: number): { offset: number; key: string } | null => {
    let start = after + 1;
    if (after >= 0) {
      start = -1;
      for (let at = after; at < size && start < 0;) {
        const n = readSync(fd, buf, 0, Math.min(BLOCK_BYTES, size - at), at);
        if (n <= 0) return null;
        const nl = buf.subarray(0, n).indexOf(10);
        if (nl >= 0) start = at + nl + 1; else at += n;
      }
      if (start < 0) return null;
    }
    if (start >= size) return null;
    // A key is a short id: its line's first kilobyte holds it.
    const n = readSync(fd, buf, 0, Math.min(1024, size - start), start);
    return { offset: start, key: keyOf(buf.toString('utf8', 0, n)).key };
  };
  for (let b = 0; b * BLOCK_BYTES < size; b++) {
    // From the byte before the block: a line starting exactly at the block's first byte counts.
    const hit = lineAfter(b * BLOCK_BYTES - 1);
    if (!hit) break;
    if (offsets.length > 0 && offsets[offsets.length - 1]! >= hit.offset) continue; // a line longer than a block
    // A copy of the key: a slice of the kilobyte decoded would keep it alive (V8 sliced strings), 590 MB
    // for the 650,000 blocks of the national stores.
    offsets.push(hit.offset); keys.push(Buffer.from(hit.key, 'utf8').toString('utf8'));
  }
  const rowsOf = (key: string): unknown[] => {
    // The last block whose first key is below the key: the key's rows start in it or at the next block.
    let lo = 0, hi = keys.length;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (compareKeys(keys[m]!, key) < 0) lo = m + 1; else hi = m; }
    let at = lo === 0 ? 0 : offsets[lo - 1]!;
    const out: unknown[] = [];
    let pending = Buffer.alloc(0);
    while (at < size) {
      const n = readSync(fd, buf, 0, Math.min(BLOCK_BYTES, size - at), at);
      if (n <= 0) break;
      at += n;
      const data = pending.length > 0 ? Buffer.concat([pending, buf.subarray(0, n)]) : buf.subarray(0, n);
      let from = 0;
      for (let nl = data.indexOf(10, from); nl >= 0; from = nl + 1, nl = data.indexOf(10, from)) {
        const line = data.toString('utf8', from, nl);
        const { key: k, rest } = keyOf(line);
        const c = compareKeys(k, key);
        if (c > 0) return out;
        if (c === 0) out.push(rowOf(line, rest));
      }
      pending = Buffer.from(data.subarray(from));
    }
    if (pending.length > 0) {
      const line = pending.toString('utf8');
      const { key: k, rest } = keyOf(line);
      if (k === key) out.push(rowOf(line, rest));
    }
    return out;
  };
  return {
    bytes: size,
    blocks: offsets.length,
    get: (asked) => [...new Set(asked)].flatMap((k) => rowsOf(k) as unknown[][]),
    close: () => closeSync(fd),
  };
}
