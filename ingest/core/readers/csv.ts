/**
 * Streaming CSV reader: constant memory whatever the file size (1 MiB read chunks; only
 * the record being parsed is buffered across chunks).
 *
 * - separator: `opts.separator`, else sniffed from the header line among `;` `,` `\t` `|`
 *   (most frequent outside quotes; ties in that order).
 * - encoding: `opts.encoding` label (see ./encoding.ts), default UTF-8; UTF-8 BOM stripped.
 * - gzip: path ending in `.gz`, or gzip magic bytes, is decompressed on the fly.
 * - rows: `{ line, record }` with `line` the 1-based physical line where the record starts
 *   (header = line 1) and `record` column -> raw string. Malformed rows (field count
 *   different from the header, unterminated quote) are yielded with `error` set and a
 *   partial record, so the caller can reject them; reading continues.
 * - header names are trimmed; empty names become `column_N`, duplicates `name_2`...
 * Parsing rules: see ./csv-parser.ts.
 */
import { CsvParser, type CsvRow } from './csv-parser.ts';
import { stat } from 'node:fs/promises';
import { createProgress } from '../progress.ts';
import { readTextChunks } from './text-source.ts';

export type { CsvRow } from './csv-parser.ts';

export type CsvReadOptions = {
  /** One character; sniffed from the header line when absent. */
  separator?: string;
  /** Encoding label, default 'utf-8' (e.g. 'latin1', 'windows-1252', 'cp850'). */
  encoding?: string;
  /** Progress: called with the number of bytes read from disk (compressed bytes for .gz). */
  onBytes?: (n: number) => void;
  /** Shows the job's progress (rows, percentage of the file's bytes, remaining time) under this label. */
  progress?: { label: string; out?: NodeJS.WriteStream };
};

export async function* readCsv(path: string, opts: CsvReadOptions = {}): AsyncGenerator<CsvRow> {
  const parser = new CsvParser({ separator: opts.separator });
  let bytes = 0;
  let rows = 0;
  const progress = opts.progress ? createProgress(opts.progress.label, (await stat(path)).size, opts.progress.out) : null;
  const onBytes = (n: number) => { bytes += n; opts.onBytes?.(n); };
  for await (const chunk of readTextChunks(path, opts.encoding, onBytes)) {
    parser.push(chunk);
    for (let row = parser.next(); row !== null; row = parser.next()) { rows++; yield row; }
    progress?.tick(rows, bytes);
  }
  parser.end();
  for (let row = parser.next(); row !== null; row = parser.next()) { rows++; yield row; }
  progress?.tick(rows, bytes);
  progress?.done();
}

/** Separator (given or sniffed) and column names, reading only the header record. */
export async function inspectCsv(
  path: string,
  opts: CsvReadOptions = {},
): Promise<{ separator: string; columns: string[] }> {
  const parser = new CsvParser({ separator: opts.separator, headerOnly: true });
  for await (const chunk of readTextChunks(path, opts.encoding)) {
    parser.push(chunk);
    parser.next();
    if (parser.header !== null) break;
  }
  if (parser.header === null) {
    parser.end();
    parser.next();
  }
  return { separator: parser.separator ?? ',', columns: parser.header ?? [] };
}

/** Column names of the header line ([] for an empty file). */
export async function readCsvHeader(path: string, opts: CsvReadOptions = {}): Promise<string[]> {
  return (await inspectCsv(path, opts)).columns;
}
