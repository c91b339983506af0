/**
 * Test helpers: a minimal ESRI shapefile writer (.shp/.shx/.dbf/.prj/.cpg; Point and
 * Polygon) and a minimal zip writer (deflate via zlib.deflateRawSync).
 */
import { writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import iconv from 'iconv-lite';

export type ShpPoint = { type: 'Point'; coordinates: [number, number] };
/** Rings as given (shapefile convention: outer rings clockwise, holes counter-clockwise). */
export type ShpPolygon = { type: 'Polygon'; coordinates: [number, number][][] };
export type ShpGeometry = ShpPoint | ShpPolygon;

export type DbfFieldSpec = { name: string; type: 'C' | 'N'; length: number; decimals?: number };

export type ShapefileSpec = {
  /** Path without extension. */
  base: string;
  geometries: ShpGeometry[];
  fields: DbfFieldSpec[];
  rows: (string | number | null)[][];
  /** Encoding of the DBF text (iconv-lite name), default utf-8. */
  encoding?: string;
  /** DBF language driver byte (header offset 29), default 0. */
  ldid?: number;
  prj?: string;
  cpg?: string;
  /** Extension case for the files, default lower. */
  upperExt?: boolean;
};

function bbox(points: [number, number][]): [number, number, number, number] {
  let [xmin, ymin, xmax, ymax] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    xmin = Math.min(xmin, x);
    ymin = Math.min(ymin, y);
    xmax = Math.max(xmax, x);
    ymax = Math.max(ymax, y);
  }
  return [xmin, ymin, xmax, ymax];
}

function allPoints(g: ShpGeometry): [number, number][] {
  return g.type === 'Point' ? [g.coordinates] : g.coordinates.flat();
}

function recordContent(g: ShpGeometry): Buffer {
  if (g.type === 'Point') {
    const b = Buffer.alloc(20);
    b.writeInt32LE(1, 0);
    b.writeDoubleLE(g.coordinates[0], 4);
    b.writeDoubleLE(g.coordinates[1], 12);
    return b;
  }
  const pts = g.coordinates.flat();
  const nParts = g.coordinates.length;
  const b = Buffer.alloc(44 + 4 * nParts + 16 * pts.length);
  b.writeInt32LE(5, 0);
  bbox(pts).forEach((v, k) => b.writeDoubleLE(v, 4 + 8 * k));
  b.writeInt32LE(nParts, 36);
  b.writeInt32LE(pts.length, 40);
  let start = 0;
  g.coordinates.forEach((ring, k) => {
    b.writeInt32LE(start, 44 + 4 * k);
    start += ring.length;
  });
  pts.forEach(([x, y], k) => {
    b.writeDoubleLE(x, 44 + 4 * nParts + 16 * k);
    b.writeDoubleLE(y, 44 + 4 * nParts + 16 * k + 8);
  });
  return b;
}

function mainHeader(shapeType: number, fileBytes: number, box: [number, number, number, number]): Buffer {
  const h = Buffer.alloc(100);
  h.writeInt32BE(9994, 0);
  h.writeInt32BE(fileBytes / 2, 24);
  h.writeInt32LE(1000, 28);
  h.writeInt32LE(shapeType, 32);
  box.forEach((v, k) => h.writeDoubleLE(v, 36 + 8 * k));
  return h;
}

export function buildDbf(fields: DbfFieldSpec[], rows: (string | number | null)[][], encoding = 'utf-8', ldid = 0): Buffer {
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + fields.reduce((s, f) => s + f.length, 0);
  const head = Buffer.alloc(headerLength);
  head[0] = 0x03;
  head[1] = 124;
  head[2] = 1;
  head[3] = 1;
  head.writeUInt32LE(rows.length, 4);
  head.writeUInt16LE(headerLength, 8);
  head.writeUInt16LE(recordLength, 10);
  head[29] = ldid;
  fields.forEach((f, k) => {
    const p = 32 + 32 * k;
    head.write(f.name.slice(0, 10), p, 'latin1');
    head[p + 11] = f.type.charCodeAt(0);
    head[p + 16] = f.length;
    head[p + 17] = f.decimals ?? 0;
  });
  head[headerLength - 1] = 0x0d;
  const records = rows.map((row) => {
    const r = Buffer.alloc(recordLength, 0x20);
    let off = 1;
    fields.forEach((f, k) => {
      const v = row[k];
      if (v !== null && v !== undefined) {
        const bytes =
          f.type === 'N'
            ? Buffer.from(String(typeof v === 'number' ? v.toFixed(f.decimals ?? 0) : v).padStart(f.length, ' '), 'latin1')
            : iconv.encode(String(v), encoding);
        bytes.copy(r, off, 0, Math.min(bytes.length, f.length));
      }
      off += f.length;
    });
    return r;
  });
  return Buffer.concat([head, ...records, Buffer.from([0x1a])]);
}

/** Writes base.shp/.shx/.dbf (+ .prj/.cpg when given). All geometries must share one type. */
export function writeShapefile(spec: ShapefileSpec): void {
  const shapeType = spec.geometries[0]?.type === 'Polygon' ? 5 : 1;
  const contents = spec.geometries.map(recordContent);
  const box = bbox(spec.geometries.flatMap(allPoints));
  const shpLen = 100 + contents.reduce((s, c) => s + 8 + c.length, 0);
  const shp: Buffer[] = [mainHeader(shapeType, shpLen, box)];
  const shx: Buffer[] = [mainHeader(shapeType, 100 + 8 * contents.length, box)];
  let offset = 100;
  contents.forEach((c, k) => {
    const rh = Buffer.alloc(8);
    rh.writeInt32BE(k + 1, 0);
    rh.writeInt32BE(c.length / 2, 4);
    shp.push(rh, c);
    const ix = Buffer.alloc(8);
    ix.writeInt32BE(offset / 2, 0);
    ix.writeInt32BE(c.length / 2, 4);
    shx.push(ix);
    offset += 8 + c.length;
  });
  const ext = (e: string) => `${spec.base}.${spec.upperExt ? e.toUpperCase() : e}`;
  writeFileSync(ext('shp'), Buffer.concat(shp));
  writeFileSync(ext('shx'), Buffer.concat(shx));
  writeFileSync(ext('dbf'), buildDbf(spec.fields, spec.rows, spec.encoding, spec.ldid));
  if (spec.prj !== undefined) writeFileSync(ext('prj'), spec.prj);
  if (spec.cpg !== undefined) writeFileSync(ext('cpg'), spec.cpg);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Writes a zip archive (deflate) of `entries` (member name -> content). */
export function writeZip(path: string, entries: Record<string, Buffer | string>): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const nameBuf = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, cd, end]));
}
