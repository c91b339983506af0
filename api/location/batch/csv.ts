import { CsvParser } from '../../../ingest/core/readers/csv-parser.ts';

/** What a batch accepts at most: the body's size and its data rows (each costs one quota unit). */
export const BATCH_MAX_BYTES = 2 * 2 ** 20;
export const BATCH_MAX_ROWS = 5_000;

export interface CsvTable { separator: string; header: string[]; rows: string[][] }

/** A batch body refused, with what to tell the caller (spec 7: invalid_parameter on `body` or a column parameter). */
export class BatchInputError extends Error {
  constructor(readonly parameter: string, message: string) { super(message); }
}

/**
 * The body of a batch as a table: header first, separator sniffed among ; , tab | (as API Adresse's
 * /search/csv/ does), every row with the header's number of fields. A broken row refuses the whole
 * batch naming its line: nothing is geocoded from a file read wrong.
 */
export function parseBatchCsv(text: string, maxRows = BATCH_MAX_ROWS): CsvTable {
  if (text.trim() === '') throw new BatchInputError('body', 'the CSV is empty: send a header line and at least one row');
  const parser = new CsvParser({ maxRecordLines: 50 });
  parser.push(text);
  parser.end();
  const rows: string[][] = [];
  for (let r = parser.next(); r !== null; r = parser.next()) {
    if (r.error) throw new BatchInputError('body', `line ${r.line}: ${r.error}`);
    if (rows.length >= maxRows) throw new BatchInputError('body', `more than ${maxRows} rows: split the file`);
    rows.push(parser.header!.map((h) => r.record[h] ?? ''));
  }
  if (!parser.header) throw new BatchInputError('body', 'the CSV has no header line');
  if (rows.length === 0) throw new BatchInputError('body', 'the CSV has a header but no row');
  return { separator: parser.separator!, header: parser.header, rows };
}

/** Indexes of the columns a parameter names (comma-separated), each of which must be in the header. */
export function columnsOf(table: CsvTable, parameter: string, names: string[]): number[] {
  return names.map((n) => {
    const i = table.header.indexOf(n);
    if (i < 0) throw new BatchInputError(parameter, `${parameter}: no column ${JSON.stringify(n)} in the CSV header (${table.header.map((h) => JSON.stringify(h)).join(', ')})`);
    return i;
  });
}

/** One CSV line in the input's separator, fields quoted when they hold it, a quote or a line break. */
export function csvLine(fields: readonly (string | number | null)[], separator: string): string {
  return `${fields.map((f) => {
    const s = f === null ? '' : String(f);
    return s.includes(separator) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  }).join(separator)}\r\n`;
}
