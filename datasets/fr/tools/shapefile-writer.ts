/**
 * Minimal ESRI shapefile writer for polygon layers (shape type 5, Polygon).
 *
 * Writes the four usual members of a shapefile "layer" plus a code page file:
 *   <base>.shp  geometry records (big-endian file header, little-endian record contents)
 *   <base>.shx  index: offset/length (in 16-bit words) of every record of the .shp
 *   <base>.dbf  dBASE III attribute table, one record per shape, C (text) and N (numeric) fields
 *   <base>.prj  the coordinate system as ESRI WKT (given by the caller)
 *   <base>.cpg  the text encoding of the .dbf ("UTF-8")
 *
 * Geometry input is GeoJSON-like: an array of polygons, each an array of rings, each ring an array
 * of [x, y] positions (closed or not). Whatever the input orientation, rings are written the way the
 * shapefile specification wants them: outer rings clockwise, holes counter-clockwise, every ring
 * closed (first vertex repeated at the end). A MultiPolygon is simply a Polygon record with several
 * outer rings.
 *
 * Text values are encoded in UTF-8 and truncated on a character boundary so that they fit in the
 * field width measured in bytes (dBASE widths are byte counts).
 */
import { writeFileSync } from 'node:fs';

export type Position = [number, number];
export type Ring = Position[];
export type PolygonCoords = Ring[];
export type MultiPolygonCoords = PolygonCoords[];

export interface DbfField {
  /** at most 10 ASCII characters */
  name: string;
  type: 'C' | 'N';
  /** width in bytes (C: 1..254, N: 1..20) */
  length: number;
  /** N only: digits after the decimal point */
  decimals?: number;
}

export type DbfValue = string | number | null | undefined;

export interface ShapeFeature {
  geometry: MultiPolygonCoords;
  properties: Record<string, DbfValue>;
}

const SHAPE_POLYGON = 5;
const FILE_CODE = 9994;
const VERSION = 1000;

/** Twice the signed area (shoelace); > 0 for counter-clockwise rings in a y-up system. */
export function signedArea2(ring: Ring): number {
  let s = 0;
  for (let i = 0, n = ring.length; i < n; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % n];
    s += x1 * y2 - x2 * y1;
  }
  return s;
}

function closeRing(ring: Ring): Ring {
  const r = ring.slice();
  const first = r[0];
  const last = r[r.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) r.push([first[0], first[1]]);
  return r;
}

/** Outer rings clockwise, holes counter-clockwise, closed. */
export function orientForShapefile(geom: MultiPolygonCoords): Ring[] {
  const parts: Ring[] = [];
  for (const polygon of geom) {
    polygon.forEach((ring, i) => {
      let r = closeRing(ring);
      const ccw = signedArea2(r) > 0;
      const wantCw = i === 0;
      if ((wantCw && ccw) || (!wantCw && !ccw)) r = r.slice().reverse();
      parts.push(r);
    });
  }
  return parts;
}

interface Bbox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

function bboxOf(parts: Ring[]): Bbox {
  const b = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  for (const r of parts) {
    for (const [x, y] of r) {
      if (x < b.xmin) b.xmin = x;
      if (y < b.ymin) b.ymin = y;
      if (x > b.xmax) b.xmax = x;
      if (y > b.ymax) b.ymax = y;
    }
  }
  return b;
}

function mergeBbox(a: Bbox | null, b: Bbox): Bbox {
  if (!a) return { ...b };
  return {
    xmin: Math.min(a.xmin, b.xmin),
    ymin: Math.min(a.ymin, b.ymin),
    xmax: Math.max(a.xmax, b.xmax),
    ymax: Math.max(a.ymax, b.ymax),
  };
}

function writeMainHeader(buf: Buffer, fileLengthBytes: number, bbox: Bbox): void {
  buf.writeInt32BE(FILE_CODE, 0);
  // bytes 4..23 unused (zero)
  buf.writeInt32BE(fileLengthBytes / 2, 24);
  buf.writeInt32LE(VERSION, 28);
  buf.writeInt32LE(SHAPE_POLYGON, 32);
  buf.writeDoubleLE(bbox.xmin, 36);
  buf.writeDoubleLE(bbox.ymin, 44);
  buf.writeDoubleLE(bbox.xmax, 52);
  buf.writeDoubleLE(bbox.ymax, 60);
  // Z and M ranges (bytes 68..99) left at 0
}

/** Record content (without the 8-byte record header) of one polygon shape. */
function polygonRecord(parts: Ring[]): { content: Buffer; bbox: Bbox } {
  const numParts = parts.length;
  const numPoints = parts.reduce((n, r) => n + r.length, 0);
  const content = Buffer.alloc(44 + 4 * numParts + 16 * numPoints);
  const bbox = bboxOf(parts);
  content.writeInt32LE(SHAPE_POLYGON, 0);
  content.writeDoubleLE(bbox.xmin, 4);
  content.writeDoubleLE(bbox.ymin, 12);
  content.writeDoubleLE(bbox.xmax, 20);
  content.writeDoubleLE(bbox.ymax, 28);
  content.writeInt32LE(numParts, 36);
  content.writeInt32LE(numPoints, 40);
  let off = 44;
  let start = 0;
  for (const r of parts) {
    content.writeInt32LE(start, off);
    off += 4;
    start += r.length;
  }
  for (const r of parts) {
    for (const [x, y] of r) {
      content.writeDoubleLE(x, off);
      content.writeDoubleLE(y, off + 8);
      off += 16;
    }
  }
  return { content, bbox };
}

function fitUtf8(value: string, maxBytes: number): Buffer {
  let buf = Buffer.from(value, 'utf8');
  if (buf.length <= maxBytes) return buf;
  // cut on a character boundary
  let s = value;
  while (Buffer.byteLength(s, 'utf8') > maxBytes) s = s.slice(0, -1);
  buf = Buffer.from(s, 'utf8');
  return buf;
}

function formatNumber(value: DbfValue, field: DbfField): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw new Error(`field ${field.name}: not a number: ${value}`);
  const s = n.toFixed(field.decimals ?? 0);
  if (s.length > field.length) throw new Error(`field ${field.name}: ${s} wider than ${field.length}`);
  return s;
}

export function buildDbf(
  fields: DbfField[],
  rows: Record<string, DbfValue>[],
  date: Date = new Date(),
): Buffer {
  for (const f of fields) {
    if (!/^[A-Za-z0-9_]{1,10}$/.test(f.name)) throw new Error(`bad dBASE field name ${f.name}`);
  }
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + fields.reduce((n, f) => n + f.length, 0);
  const buf = Buffer.alloc(headerLength + recordLength * rows.length + 1, 0);
  const now = date;
  buf.writeUInt8(0x03, 0); // dBASE III without memo
  buf.writeUInt8(now.getUTCFullYear() - 1900, 1);
  buf.writeUInt8(now.getUTCMonth() + 1, 2);
  buf.writeUInt8(now.getUTCDate(), 3);
  buf.writeUInt32LE(rows.length, 4);
  buf.writeUInt16LE(headerLength, 8);
  buf.writeUInt16LE(recordLength, 10);
  // byte 29: language driver; 0 = none, the .cpg file tells the encoding
  fields.forEach((f, i) => {
    const off = 32 + 32 * i;
    buf.write(f.name, off, 'ascii');
    buf.write(f.type, off + 11, 'ascii');
    buf.writeUInt8(f.length, off + 16);
    buf.writeUInt8(f.type === 'N' ? (f.decimals ?? 0) : 0, off + 17);
  });
  buf.writeUInt8(0x0d, headerLength - 1);
  rows.forEach((row, r) => {
    let off = headerLength + r * recordLength;
    buf.write(' ', off, 'ascii'); // not deleted
    off += 1;
    for (const f of fields) {
      const cell = Buffer.alloc(f.length, 0x20);
      const v = row[f.name];
      if (f.type === 'C') {
        fitUtf8(v === null || v === undefined ? '' : String(v), f.length).copy(cell, 0);
      } else {
        const s = formatNumber(v, f);
        cell.write(s, f.length - s.length, 'ascii'); // right-aligned
      }
      cell.copy(buf, off);
      off += f.length;
    }
  });
  buf.writeUInt8(0x1a, buf.length - 1); // end of file
  return buf;
}

export interface WriteOptions {
  fields: DbfField[];
  /** ESRI WKT written to <base>.prj */
  prj: string;
  /** written to <base>.cpg; default 'UTF-8' */
  codePage?: string;
  /** date of last update stored in the .dbf header (fix it for reproducible output) */
  date?: Date;
}

/** Writes <base>.shp/.shx/.dbf/.prj/.cpg. */
export function writePolygonShapefile(base: string, features: ShapeFeature[], opts: WriteOptions): void {
  const records = features.map((f) => polygonRecord(orientForShapefile(f.geometry)));
  let total: Bbox | null = null;
  for (const r of records) total = mergeBbox(total, r.bbox);
  const bbox = total ?? { xmin: 0, ymin: 0, xmax: 0, ymax: 0 };

  const shpLength = 100 + records.reduce((n, r) => n + 8 + r.content.length, 0);
  const shp = Buffer.alloc(shpLength);
  const shx = Buffer.alloc(100 + 8 * records.length);
  writeMainHeader(shp, shpLength, bbox);
  writeMainHeader(shx, shx.length, bbox);
  let off = 100;
  records.forEach((r, i) => {
    shx.writeInt32BE(off / 2, 100 + 8 * i);
    shx.writeInt32BE(r.content.length / 2, 104 + 8 * i);
    shp.writeInt32BE(i + 1, off); // record numbers start at 1
    shp.writeInt32BE(r.content.length / 2, off + 4);
    r.content.copy(shp, off + 8);
    off += 8 + r.content.length;
  });

  writeFileSync(`${base}.shp`, shp);
  writeFileSync(`${base}.shx`, shx);
  writeFileSync(`${base}.dbf`, buildDbf(opts.fields, features.map((f) => f.properties), opts.date));
  writeFileSync(`${base}.prj`, opts.prj);
  writeFileSync(`${base}.cpg`, opts.codePage ?? 'UTF-8');
}
