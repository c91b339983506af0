import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import { createProgress } from '../progress.ts';

/**
 * A worksheet of an Office Open XML workbook (.xlsx) read as published: the zip's parts
 * (xl/workbook.xml, its relationships, xl/sharedStrings.xml, the sheet), cells as the text Excel
 * stores (shared and inline strings, numbers as written in <v>, booleans 0/1), by their A1
 * reference (an empty cell is ''). For the small lists producers publish as workbooks (thousands of
 * rows): the file is read whole. No dependency beyond the zip and XML readers the platform has.
 */
export interface XlsxRow { /** 1-based row number of the sheet (the `r` of <row>). */ row: number; cells: string[] }

async function zipParts(path: string, wanted: (name: string) => boolean): Promise<Map<string, Buffer>> {
  const buf = await readFile(path);
  if (!(buf[0] === 0x50 && buf[1] === 0x4b)) throw new Error(`${path} is not an .xlsx workbook (not a zip file)`);
  const zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (!wanted(e.fileName)) { zip.readEntry(); return; }
      zip.openReadStreamPromise(e).then((s) => {
        const parts: Buffer[] = [];
        s.on('data', (c: Buffer) => parts.push(c));
        s.on('end', () => { out.set(e.fileName, Buffer.concat(parts)); zip.readEntry(); });
        s.on('error', reject);
      }, reject);
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
/** The text of an <si> or <is>: its <t>, or its rich-text runs' <t> put together. */
function richText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  const o = v as { t?: unknown; r?: unknown };
  if (o.t !== undefined) return textOf(o.t);
  return asArray(o.r as { t?: unknown }[]).map((r) => textOf(r.t)).join('');
}
function textOf(t: unknown): string {
  if (t === undefined || t === null) return '';
  if (typeof t === 'string' || typeof t === 'number') return String(t);
  return String((t as { '#text'?: unknown })['#text'] ?? '');
}

/** Column index (0-based) of an A1 reference: "C7" -> 2. */
export function columnIndex(ref: string): number {
  const letters = /^([A-Z]+)/.exec(ref)?.[1];
  if (!letters) throw new Error(`cell reference ${JSON.stringify(ref)} has no column`);
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The rows of the workbook's first sheet (or the sheet named `sheet`), in order. */
export async function readXlsxRows(path: string, opts: { sheet?: string; progress?: { label: string; out?: NodeJS.WriteStream } } = {}): Promise<XlsxRow[]> {
  const parts = await zipParts(path, (n) => n === 'xl/workbook.xml' || n === 'xl/_rels/workbook.xml.rels' || n === 'xl/sharedStrings.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(n));
  const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, parseAttributeValue: false, trimValues: false, removeNSPrefix: true });
  const workbook = parts.get('xl/workbook.xml');
  if (!workbook) throw new Error(`${path} is not an .xlsx workbook: no xl/workbook.xml`);
  const sheets = asArray(parser.parse(workbook.toString('utf8'))?.workbook?.sheets?.sheet as { '@_name': string; '@_id': string }[]);
  const sheet = opts.sheet === undefined ? sheets[0] : sheets.find((s) => s['@_name'] === opts.sheet);
  if (!sheet) throw new Error(`${path}: no sheet ${opts.sheet === undefined ? 'at all' : JSON.stringify(opts.sheet)} (sheets: ${sheets.map((s) => s['@_name']).join(', ')})`);
  const rels = asArray(parser.parse(parts.get('xl/_rels/workbook.xml.rels')?.toString('utf8') ?? '')?.Relationships?.Relationship as { '@_Id': string; '@_Target': string }[]);
  const target = rels.find((r) => r['@_Id'] === sheet['@_id'])?.['@_Target'];
  const sheetPath = target === undefined ? undefined : target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const sheetXml = sheetPath === undefined ? undefined : parts.get(sheetPath);
  if (!sheetXml) throw new Error(`${path}: the part of sheet ${sheet['@_name']} (${sheetPath ?? 'no relationship'}) is missing`);
  const shared = asArray(parser.parse(parts.get('xl/sharedStrings.xml')?.toString('utf8') ?? '')?.sst?.si).map(richText);
  type Cell = { '@_r'?: string; '@_t'?: string; v?: unknown; is?: unknown };
  const rows = asArray(parser.parse(sheetXml.toString('utf8'))?.worksheet?.sheetData?.row as { '@_r'?: string; c?: Cell | Cell[] }[]);
  const progress = opts.progress ? createProgress(opts.progress.label, rows.length, opts.progress.out) : null;
  const out: XlsxRow[] = [];
  let previous = 0;
  for (const r of rows) {
    const number = r['@_r'] !== undefined ? Number(r['@_r']) : previous + 1;
    previous = number;
    const cells: string[] = [];
    let col = -1;
    for (const c of asArray(r.c)) {
      col = c['@_r'] !== undefined ? columnIndex(c['@_r']) : col + 1;
      const v = textOf(c.v);
      const value = c['@_t'] === 's' ? (shared[Number(v)] ?? '') : c['@_t'] === 'inlineStr' ? richText(c.is) : v;
      while (cells.length < col) cells.push('');
      cells[col] = value;
    }
    out.push({ row: number, cells });
    progress?.tick(out.length, out.length);
  }
  progress?.done();
  return out;
}
