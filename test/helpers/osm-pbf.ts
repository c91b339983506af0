import { deflateSync } from 'node:zlib';

/**
 * A small .osm.pbf writer (wiki.openstreetmap.org/wiki/PBF_Format) for tests and the bench: the
 * reader's cases a hand-written sample cannot cover (plain nodes, raw blobs, offsets, sorting,
 * refused compressions), and large generated files. The committed samples are written by osmium.
 */
export interface PbfNode { id: number; lat: number; lng: number; tags?: Record<string, string> }
export interface PbfWay { id: number; refs: number[]; tags?: Record<string, string> }
export interface PbfBlock { nodes?: PbfNode[]; ways?: PbfWay[]; dense?: boolean }
export interface PbfOptions {
  blocks: PbfBlock[];
  compression?: 'zlib' | 'raw' | 'lzma';
  granularity?: number;
  latOffset?: number;
  lonOffset?: number;
  required?: string[];
  optional?: string[];
}

class Writer {
  out: number[] = [];
  varint(v: number): this {
    while (v >= 128) { this.out.push((v % 128) | 128); v = Math.floor(v / 128); }
    this.out.push(v);
    return this;
  }
  svarint(v: number): this { return this.varint(v < 0 ? -2 * v - 1 : 2 * v); }
  tag(field: number, wire: number): this { return this.varint(field * 8 + wire); }
  uint(field: number, v: number): this { return this.tag(field, 0).varint(v); }
  sint(field: number, v: number): this { return this.tag(field, 0).svarint(v); }
  bytes(field: number, b: Uint8Array | number[]): this { this.tag(field, 2).varint(b.length); for (const x of b) this.out.push(x); return this; }
  string(field: number, s: string): this { return this.bytes(field, new TextEncoder().encode(s)); }
  packed(field: number, vs: number[], zigzag: boolean): this {
    const w = new Writer();
    for (const v of vs) (zigzag ? w.svarint(v) : w.varint(v));
    return this.bytes(field, w.out);
  }
  get buf(): Uint8Array { return Uint8Array.from(this.out); }
}

function block(b: PbfBlock, o: PbfOptions): Uint8Array {
  const granularity = o.granularity ?? 100, latOffset = o.latOffset ?? 0, lonOffset = o.lonOffset ?? 0;
  const strings = [''];
  const sid = (s: string) => { let i = strings.indexOf(s); if (i < 0) { i = strings.length; strings.push(s); } return i; };
  const raw = (deg: number, offset: number) => Math.round((deg * 1e9 - offset) / granularity);
  const group = new Writer();
  const nodes = b.nodes ?? [];
  if (nodes.length > 0 && b.dense !== false) {
    const d = new Writer();
    const delta = (vs: number[]) => vs.map((v, i) => v - (i === 0 ? 0 : vs[i - 1]!));
    const kv: number[] = [];
    for (const n of nodes) { for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(sid(k), sid(v)); kv.push(0); }
    d.packed(1, delta(nodes.map((n) => n.id)), true).packed(8, delta(nodes.map((n) => raw(n.lat, latOffset))), true).packed(9, delta(nodes.map((n) => raw(n.lng, lonOffset))), true);
    if (kv.some((x) => x !== 0)) d.packed(10, kv, false);
    group.bytes(2, d.out);
  } else {
    for (const n of nodes) {
      const w = new Writer().sint(1, n.id);
      const tags = Object.entries(n.tags ?? {});
      if (tags.length > 0) w.packed(2, tags.map(([k]) => sid(k)), false).packed(3, tags.map(([, v]) => sid(v)), false);
      w.sint(8, raw(n.lat, latOffset)).sint(9, raw(n.lng, lonOffset));
      group.bytes(1, w.out);
    }
  }
  for (const way of b.ways ?? []) {
    const w = new Writer().uint(1, way.id);
    const tags = Object.entries(way.tags ?? {});
    if (tags.length > 0) w.packed(2, tags.map(([k]) => sid(k)), false).packed(3, tags.map(([, v]) => sid(v)), false);
    w.packed(8, way.refs.map((r, i) => r - (i === 0 ? 0 : way.refs[i - 1]!)), true);
    group.bytes(3, w.out);
  }
  const st = new Writer();
  for (const s of strings) st.string(1, s);
  const pb = new Writer().bytes(1, st.out).bytes(2, group.out);
  if (granularity !== 100) pb.uint(17, granularity);
  if (latOffset !== 0) pb.uint(19, latOffset);
  if (lonOffset !== 0) pb.uint(20, lonOffset);
  return pb.buf;
}

function blob(type: string, data: Uint8Array, compression: PbfOptions['compression']): Buffer {
  const b = new Writer();
  if (compression === 'raw') b.bytes(1, data);
  else b.uint(2, data.length).bytes(compression === 'lzma' ? 4 : 3, compression === 'lzma' ? data : deflateSync(data));
  const header = new Writer().string(1, type).uint(3, b.out.length);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.out.length);
  return Buffer.concat([len, Buffer.from(header.buf), Buffer.from(b.buf)]);
}

/** The whole file: an OSMHeader blob, then one OSMData blob per block. */
export function osmPbf(o: PbfOptions): Buffer {
  const h = new Writer();
  for (const f of o.required ?? ['OsmSchema-V0.6', 'DenseNodes']) h.string(4, f);
  for (const f of o.optional ?? []) h.string(5, f);
  h.string(16, 'test/helpers/osm-pbf.ts');
  return Buffer.concat([blob('OSMHeader', h.buf, o.compression === 'lzma' ? 'zlib' : o.compression), ...o.blocks.map((b) => blob('OSMData', block(b, o), o.compression))]);
}
