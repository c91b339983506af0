/**
 * Streaming dBASE (.dbf) reader for shapefile attributes, decoding text with iconv-lite
 * (the `shapefile` package decodes with a TextDecoder polyfill that knows neither cp850
 * nor cp437, which Quebec and older French/Belgian files use).
 *
 * Values: C -> string (trimmed; empty -> null), N/F -> number (blank or `***` -> null),
 * L -> boolean (? or blank -> null), D -> 'YYYY-MM-DD' string (blank -> null),
 * I -> int32, O/B(8 bytes) -> double, anything else -> trimmed string.
 *
 * Encoding resolution (`resolveDbfEncoding`): explicit option, else the .cpg sidecar,
 * else the language driver id (byte 29 of the header, table LDID_ENCODINGS), else UTF-8.
 * In the last case ("utf-8 by default", nothing declared) a field that is not valid UTF-8
 * is decoded as windows-1252 instead, the usual encoding of undeclared legacy files.
 */
import { open, type FileHandle } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { normalizeEncoding, tryNormalizeEncoding } from './encoding.ts';

/**
 * DBF language driver id -> encoding (values from the dBASE / Visual FoxPro / ESRI code
 * page table). 0x00 means "not set".
 */
export const LDID_ENCODINGS: Readonly<Record<number, string>> = {
  0x01: 'cp437', // US MS-DOS
  0x02: 'cp850', // International MS-DOS
  0x03: 'windows-1252', // Windows ANSI
  0x08: 'cp865', // Danish OEM
  0x09: 'cp437', // Dutch OEM
  0x0a: 'cp850', // Dutch OEM*
  0x0b: 'cp437', // Finnish OEM
  0x0d: 'cp437', // French OEM
  0x0e: 'cp850', // French OEM*
  0x0f: 'cp437', // German OEM
  0x10: 'cp850', // German OEM*
  0x11: 'cp437', // Italian OEM
  0x12: 'cp850', // Italian OEM*
  0x13: 'cp932', // Japanese Shift-JIS
  0x14: 'cp850', // Spanish OEM*
  0x15: 'cp437', // Swedish OEM
  0x16: 'cp850', // Swedish OEM*
  0x17: 'cp865', // Norwegian OEM
  0x18: 'cp437', // Spanish OEM
  0x19: 'cp437', // English OEM (Britain)
  0x1a: 'cp850', // English OEM (Britain)*
  0x1b: 'cp437', // English OEM (US)
  0x1c: 'cp863', // French OEM (Canada)
  0x1d: 'cp850', // French OEM*
  0x1f: 'cp852', // Czech OEM
  0x22: 'cp852', // Hungarian OEM
  0x23: 'cp852', // Polish OEM
  0x24: 'cp860', // Portuguese OEM
  0x25: 'cp850', // Portuguese OEM*
  0x26: 'cp866', // Russian OEM
  0x37: 'cp850', // English OEM (US)*
  0x40: 'cp852', // Romanian OEM
  0x4d: 'cp936', // Chinese GBK
  0x4e: 'cp949', // Korean
  0x4f: 'cp950', // Chinese Big5
  0x50: 'cp874', // Thai
  0x57: 'windows-1252', // "ANSI" (current Windows code page; cp1252 in Western Europe / Americas)
  0x58: 'windows-1252', // Western European ANSI
  0x59: 'windows-1252', // Spanish ANSI
  0x64: 'cp852', // Eastern European MS-DOS
  0x65: 'cp866', // Russian MS-DOS
  0x66: 'cp865', // Nordic MS-DOS
  0x67: 'cp861', // Icelandic MS-DOS
  0x6a: 'cp737', // Greek MS-DOS
  0x6b: 'cp857', // Turkish MS-DOS
  0x78: 'cp950', // Chinese (Hong Kong / Taiwan) Windows
  0x79: 'cp949', // Korean Windows
  0x7a: 'cp936', // Chinese (PRC) Windows
  0x7b: 'cp932', // Japanese Windows
  0x7c: 'cp874', // Thai Windows
  0x7d: 'windows-1255', // Hebrew Windows
  0x7e: 'windows-1256', // Arabic Windows
  0x86: 'cp737', // Greek OEM
  0x87: 'cp852', // Slovenian OEM
  0x88: 'cp857', // Turkish OEM
  0xc8: 'windows-1250', // Eastern European Windows
  0xc9: 'windows-1251', // Russian Windows
  0xca: 'windows-1254', // Turkish Windows
  0xcb: 'windows-1253', // Greek Windows
  0xcc: 'windows-1257', // Baltic Windows
};

export type DbfEncodingSource = 'option' | 'cpg' | 'ldid' | 'default';

export type DbfEncoding = { encoding: string; source: DbfEncodingSource };

/** See the module comment. `cpg` is the raw .cpg content (null when absent). */
export function resolveDbfEncoding(explicit: string | undefined, cpg: string | null, ldid: number): DbfEncoding {
  if (explicit) return { encoding: normalizeEncoding(explicit), source: 'option' };
  if (cpg !== null) {
    const fromCpg = tryNormalizeEncoding(cpg.trim());
    if (fromCpg) return { encoding: fromCpg, source: 'cpg' };
  }
  const fromLdid = LDID_ENCODINGS[ldid];
  if (fromLdid) return { encoding: fromLdid, source: 'ldid' };
  return { encoding: 'utf-8', source: 'default' };
}

export type DbfField = { name: string; type: string; length: number; decimals: number; offset: number };

export type DbfRecord = { deleted: boolean; properties: Record<string, unknown> };

/** Buffered sequential reads on a file handle (constant memory). */
class BlockReader {
  private buf = Buffer.alloc(0);
  private off = 0;
  private eof = false;
  constructor(
    private readonly fh: FileHandle,
    private pos: number,
    private readonly blockSize = 1 << 20,
  ) {}

  /** Exactly `n` bytes, or fewer at end of file (empty buffer when nothing is left). */
  async read(n: number): Promise<Buffer> {
    while (this.buf.length - this.off < n && !this.eof) {
      const rest = this.buf.subarray(this.off);
      const block = Buffer.allocUnsafe(Math.max(this.blockSize, n));
      const { bytesRead } = await this.fh.read(block, 0, block.length, this.pos);
      this.pos += bytesRead;
      if (bytesRead === 0) this.eof = true;
      this.buf = Buffer.concat([rest, block.subarray(0, bytesRead)]);
      this.off = 0;
    }
    const end = Math.min(this.off + n, this.buf.length);
    const out = this.buf.subarray(this.off, end);
    this.off = end;
    return out;
  }
}

export class DbfReader {
  private constructor(
    private readonly fh: FileHandle,
    private readonly reader: BlockReader,
    readonly fields: DbfField[],
    readonly recordCount: number,
    readonly recordLength: number,
    readonly ldid: number,
    private encoding: DbfEncoding,
  ) {}
  private index = 0;

  /**
   * Opens a .dbf. `pickEncoding` receives the language driver id and returns the encoding
   * to use (see `resolveDbfEncoding`).
   */
  static async open(path: string, pickEncoding: (ldid: number) => DbfEncoding): Promise<DbfReader> {
    const fh = await open(path, 'r');
    try {
      const head = Buffer.alloc(32);
      await fh.read(head, 0, 32, 0);
      const recordCount = head.readUInt32LE(4);
      const headerLength = head.readUInt16LE(8);
      const recordLength = head.readUInt16LE(10);
      const ldid = head[29];
      const encoding = pickEncoding(ldid);
      const desc = Buffer.alloc(Math.max(0, headerLength - 32));
      await fh.read(desc, 0, desc.length, 32);
      const fields: DbfField[] = [];
      let offset = 1; // byte 0 of a record is the deletion flag
      for (let p = 0; p + 32 <= desc.length && desc[p] !== 0x0d; p += 32) {
        const rawName = desc.subarray(p, p + 11);
        const nul = rawName.indexOf(0);
        const name = decodeText(rawName.subarray(0, nul === -1 ? 11 : nul), encoding).trim();
        const field = { name, type: String.fromCharCode(desc[p + 11]), length: desc[p + 16], decimals: desc[p + 17], offset };
        fields.push(field);
        offset += field.length;
      }
      return new DbfReader(fh, new BlockReader(fh, headerLength), fields, recordCount, recordLength, ldid, encoding);
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  get encodingUsed(): DbfEncoding {
    return this.encoding;
  }

  /** Next record, or null at the end (record count reached, EOF marker or truncated file). */
  async next(): Promise<DbfRecord | null> {
    if (this.index >= this.recordCount) return null;
    const rec = await this.reader.read(this.recordLength);
    if (rec.length < this.recordLength || rec[0] === 0x1a) return null;
    this.index++;
    const properties: Record<string, unknown> = {};
    for (const f of this.fields) {
      properties[f.name] = this.decodeValue(rec, f);
    }
    return { deleted: rec[0] === 0x2a, properties };
  }

  async close(): Promise<void> {
    await this.fh.close();
  }

  private decodeValue(rec: Buffer, f: DbfField): unknown {
    const start = f.offset;
    const end = start + f.length;
    switch (f.type) {
      case 'C': {
        const s = decodeText(rec.subarray(start, end), this.encoding).replace(/\0+$/, '').trim();
        return s === '' ? null : s;
      }
      case 'N':
      case 'F': {
        const s = rec.toString('latin1', start, end).trim();
        if (s === '' || s[0] === '*') return null;
        const v = Number(s);
        return Number.isNaN(v) ? null : v;
      }
      case 'L': {
        const c = rec[start];
        if (c === 0x59 || c === 0x79 || c === 0x54 || c === 0x74) return true; // Y y T t
        if (c === 0x4e || c === 0x6e || c === 0x46 || c === 0x66) return false; // N n F f
        return null;
      }
      case 'D': {
        const s = rec.toString('latin1', start, end).trim();
        if (!/^\d{8}$/.test(s) || s === '00000000') return null;
        return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
      }
      case 'I':
        return f.length === 4 ? rec.readInt32LE(start) : null;
      case 'O':
        return f.length === 8 ? rec.readDoubleLE(start) : null;
      case 'B':
        if (f.length === 8) return rec.readDoubleLE(start);
      // falls through (dBASE memo block number stored as text)
      default: {
        const s = decodeText(rec.subarray(start, end), this.encoding).replace(/\0+$/, '').trim();
        return s === '' ? null : s;
      }
    }
  }
}

function isAscii(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] > 0x7f) return false;
  return true;
}

function decodeText(b: Buffer, enc: DbfEncoding): string {
  if (isAscii(b)) return b.toString('latin1');
  if (enc.encoding === 'utf-8') {
    const s = b.toString('utf8');
    if (enc.source === 'default' && s.includes('\uFFFD')) return iconv.decode(b, 'windows-1252');
    return s;
  }
  return iconv.decode(b, enc.encoding);
}
