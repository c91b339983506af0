import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';

/**
 * OpenStreetMap's .osm.pbf (wiki.openstreetmap.org/wiki/PBF_Format, osmformat.proto/fileformat.proto):
 * a sequence of [4-byte big-endian BlobHeader length][BlobHeader][Blob], each Blob a zlib-compressed
 * (or raw) OSMHeader or OSMData PrimitiveBlock. Only what jobs here need is decoded: the nodes
 * carrying one tag (`key=value`), with all their tags. Written for the job, not a general library:
 * the npm readers were not well kept (docs/places.md), and the format's protobuf subset is small.
 *
 * Speed: a block whose string table lacks the key or the value holds no such node and its groups are
 * not decoded; blobs are inflated on libuv's threads a few ahead of the one decoded; a file whose
 * header declares `Sort.Type_then_ID` is left at its first block of ways or relations (no node after).
 */

export interface OsmNode { id: number; lat: number; lng: number; tags: Record<string, string> }
export interface OsmPbfOptions {
  /** The tag the nodes must carry. */
  key: string;
  value: string;
  /** Progress: bytes of the file read so far. */
  onBytes?: (n: number) => void;
}

const inflateAsync = promisify(inflate);
/** Features this reader understands (a file requiring another is refused, as the format asks). */
const KNOWN_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);
const AHEAD = 4;
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

/** A protobuf wire reader over one message (varints up to 2^53, enough for OSM ids and coordinates). */
class Proto {
  pos: number;
  constructor(readonly buf: Uint8Array, start = 0, readonly end = buf.length) { this.pos = start; }
  get more(): boolean { return this.pos < this.end; }
  varint(): number {
    const b = this.buf;
    let v = 0, mul = 1, byte: number;
    do {
      if (this.pos >= this.end) throw new Error('truncated varint');
      byte = b[this.pos++]!;
      v += (byte & 0x7f) * mul;
      mul *= 128;
    } while (byte & 0x80);
    return v;
  }
  /** sint64 (zigzag) as a number. */
  svarint(): number { const v = this.varint(); return v % 2 === 1 ? -(v + 1) / 2 : v / 2; }
  /** A length-delimited field's [start, end). */
  bytes(): [number, number] {
    const len = this.varint(), start = this.pos;
    if (start + len > this.end) throw new Error('length-delimited field beyond its message');
    this.pos += len;
    return [start, start + len];
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

/** A packed repeated varint field as numbers (sint when `zigzag`); `delta` accumulates them. */
function packed(buf: Uint8Array, [start, end]: [number, number], zigzag: boolean, delta: boolean): number[] {
  const p = new Proto(buf, start, end);
  const out: number[] = [];
  let acc = 0;
  while (p.more) {
    const v = zigzag ? p.svarint() : p.varint();
    acc = delta ? acc + v : v;
    out.push(acc);
  }
  return out;
}

const utf8 = new TextDecoder('utf-8');

/** Reads one blob's block: raw or zlib (the other compressions are refused by name). */
async function blobData(blob: Uint8Array): Promise<Uint8Array> {
  const p = new Proto(blob);
  while (p.more) {
    const tag = p.varint(), field = tag >>> 3, wire = tag & 7;
    if (field === 1 && wire === 2) { const [s, e] = p.bytes(); return blob.subarray(s, e); }
    if (field === 3 && wire === 2) { const [s, e] = p.bytes(); return new Uint8Array(await inflateAsync(blob.subarray(s, e))); }
    const other: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };
    if (other[field]) throw new Error(`blob compressed with ${other[field]}: only zlib and raw blobs are read (osmium cat -o out.osm.pbf -f pbf,pbf_compression=zlib rewrites it)`);
    p.skip(wire);
  }
  throw new Error('blob without data');
}

interface Header { features: string[]; sorted: boolean }

function readHeaderBlock(b: Uint8Array): Header {
  const p = new Proto(b);
  const required: string[] = [], optional: string[] = [];
  while (p.more) {
    const tag = p.varint(), field = tag >>> 3, wire = tag & 7;
    if ((field === 4 || field === 5) && wire === 2) { const [s, e] = p.bytes(); (field === 4 ? required : optional).push(utf8.decode(b.subarray(s, e))); } else p.skip(wire);
  }
  const unknown = required.filter((f) => !KNOWN_FEATURES.has(f));
  if (unknown.length > 0) throw new Error(`the file requires features this reader does not know: ${unknown.join(', ')}`);
  return { features: required, sorted: optional.includes('Sort.Type_then_ID') };
}

const sameBytes = (buf: Uint8Array, [s, e]: [number, number], target: Uint8Array) => {
  if (e - s !== target.length) return false;
  for (let i = 0; i < target.length; i++) if (buf[s + i] !== target[i]) return false;
  return true;
};

/** The matching nodes of one PrimitiveBlock, and whether it holds ways or relations. */
export function blockNodes(b: Uint8Array, key: Uint8Array, value: Uint8Array): { nodes: OsmNode[]; waysOrRelations: boolean } {
  const p = new Proto(b);
  const strings: [number, number][] = [];
  const groups: [number, number][] = [];
  let granularity = 100, latOffset = 0, lonOffset = 0;
  while (p.more) {
    const tag = p.varint(), field = tag >>> 3, wire = tag & 7;
    if (field === 1 && wire === 2) {
      const [s, e] = p.bytes();
      const st = new Proto(b, s, e);
      while (st.more) { const t = st.varint(); if (t >>> 3 === 1 && (t & 7) === 2) strings.push(st.bytes()); else st.skip(t & 7); }
    } else if (field === 2 && wire === 2) groups.push(p.bytes());
    else if (field === 17 && wire === 0) granularity = p.varint();
    else if (field === 19 && wire === 0) latOffset = p.varint();
    else if (field === 20 && wire === 0) lonOffset = p.varint();
    else p.skip(wire);
  }
  const keyIdx = strings.findIndex((r) => sameBytes(b, r, key));
  const valueIdx = strings.findIndex((r) => sameBytes(b, r, value));
  const str = (i: number) => { const r = strings[i]; if (!r) throw new Error(`string index ${i} beyond the block's string table`); return utf8.decode(b.subarray(r[0], r[1])); };
  // int64 offsets are plain varints (two's complement); offsets are 0 in the files written today.
  const coord = (offset: number, raw: number) => (offset + granularity * raw) / 1e9;
  const nodes: OsmNode[] = [];
  let waysOrRelations = false;
  for (const [gs, ge] of groups) {
    const g = new Proto(b, gs, ge);
    while (g.more) {
      const tag = g.varint(), field = tag >>> 3, wire = tag & 7;
      if (field === 3 || field === 4) { waysOrRelations = true; g.skip(wire); continue; }
      if (keyIdx < 0 || valueIdx < 0 || wire !== 2) { g.skip(wire); continue; }
      if (field === 2) nodes.push(...denseNodes(b, g.bytes(), keyIdx, valueIdx, str, coord, latOffset, lonOffset));
      else if (field === 1) { const n = plainNode(b, g.bytes(), keyIdx, valueIdx, str, coord, latOffset, lonOffset); if (n) nodes.push(n); }
      else g.skip(wire);
    }
  }
  return { nodes, waysOrRelations };
}

type Coord = (offset: number, raw: number) => number;

function denseNodes(b: Uint8Array, range: [number, number], keyIdx: number, valueIdx: number, str: (i: number) => string, coord: Coord, latOffset: number, lonOffset: number): OsmNode[] {
  const p = new Proto(b, range[0], range[1]);
  let ids: [number, number] | null = null, lats: [number, number] | null = null, lons: [number, number] | null = null, kv: [number, number] | null = null;
  while (p.more) {
    const tag = p.varint(), field = tag >>> 3, wire = tag & 7;
    if (wire !== 2) { p.skip(wire); continue; }
    const r = p.bytes();
    if (field === 1) ids = r; else if (field === 8) lats = r; else if (field === 9) lons = r; else if (field === 10) kv = r;
  }
  if (!kv || !ids || !lats || !lons) return [];
  // keys_vals: for each node, (key, value) string indexes, then 0.
  const pairs = packed(b, kv, false, false);
  const hits: { index: number; tags: Record<string, string> }[] = [];
  let node = 0, i = 0;
  while (i < pairs.length) {
    let match = false;
    const start = i;
    while (i < pairs.length && pairs[i] !== 0) { if (pairs[i] === keyIdx && pairs[i + 1] === valueIdx) match = true; i += 2; }
    if (match) {
      const tags: Record<string, string> = {};
      for (let j = start; j < i; j += 2) tags[str(pairs[j]!)] = str(pairs[j + 1]!);
      hits.push({ index: node, tags });
    }
    i++;
    node++;
  }
  if (hits.length === 0) return [];
  const id = packed(b, ids, true, true), lat = packed(b, lats, true, true), lon = packed(b, lons, true, true);
  if (lat.length !== id.length || lon.length !== id.length || node !== id.length) throw new Error(`dense nodes with ${id.length} ids, ${lat.length} latitudes, ${lon.length} longitudes and ${node} tag lists`);
  return hits.map((h) => ({ id: id[h.index]!, lat: coord(latOffset, lat[h.index]!), lng: coord(lonOffset, lon[h.index]!), tags: h.tags }));
}

function plainNode(b: Uint8Array, range: [number, number], keyIdx: number, valueIdx: number, str: (i: number) => string, coord: Coord, latOffset: number, lonOffset: number): OsmNode | null {
  const p = new Proto(b, range[0], range[1]);
  let id = 0, lat = 0, lng = 0, keys: number[] = [], vals: number[] = [];
  while (p.more) {
    const tag = p.varint(), field = tag >>> 3, wire = tag & 7;
    if (field === 1 && wire === 0) id = p.svarint();
    else if (field === 8 && wire === 0) lat = p.svarint();
    else if (field === 9 && wire === 0) lng = p.svarint();
    else if (field === 2 && wire === 2) keys = packed(b, p.bytes(), false, false);
    else if (field === 3 && wire === 2) vals = packed(b, p.bytes(), false, false);
    else p.skip(wire);
  }
  if (!keys.some((k, i) => k === keyIdx && vals[i] === valueIdx)) return null;
  return { id, lat: coord(latOffset, lat), lng: coord(lonOffset, lng), tags: Object.fromEntries(keys.map((k, i) => [str(k), str(vals[i]!)])) };
}

/** The nodes tagged `key=value` of a .osm.pbf file, in file order. */
export async function* readTaggedNodes(path: string, opts: OsmPbfOptions): AsyncGenerator<OsmNode> {
  const key = new TextEncoder().encode(opts.key), value = new TextEncoder().encode(opts.value);
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    let pos = 0;
    const readAt = async (n: number): Promise<Uint8Array> => {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await fh.read(buf, 0, n, pos);
      if (bytesRead !== n) throw new Error(`${path}: truncated at byte ${pos} (a blob announces ${n} bytes)`);
      pos += n;
      opts.onBytes?.(pos);
      return buf;
    };
    /** The next blob: its type and its block, inflating on the thread pool. */
    const nextBlob = async (): Promise<{ type: string; data: Promise<Uint8Array> } | null> => {
      if (pos >= size) return null;
      const len = new DataView((await readAt(4)).buffer).getUint32(0, false);
      if (len > MAX_HEADER) throw new Error(`${path} is not an .osm.pbf file: a blob header of ${len} bytes at byte ${pos - 4}`);
      const header = await readAt(len);
      const hp = new Proto(header);
      let type = '', datasize = -1;
      while (hp.more) {
        const tag = hp.varint(), field = tag >>> 3, wire = tag & 7;
        if (field === 1 && wire === 2) { const [s, e] = hp.bytes(); type = utf8.decode(header.subarray(s, e)); } else if (field === 3 && wire === 0) datasize = hp.varint(); else hp.skip(wire);
      }
      if (datasize < 0 || datasize > MAX_BLOB) throw new Error(`${path} is not an .osm.pbf file: blob size ${datasize} at byte ${pos}`);
      const blob = await readAt(datasize);
      const data = blobData(blob);
      data.catch(() => {}); // awaited in order below; a failure there is the one reported
      return { type, data };
    };
    const first = await nextBlob();
    if (!first || first.type !== 'OSMHeader') throw new Error(`${path} is not an .osm.pbf file: it does not start with an OSMHeader blob`);
    const header = readHeaderBlock(await first.data);
    const queue: { type: string; data: Promise<Uint8Array> }[] = [];
    for (;;) {
      while (queue.length < AHEAD) { const n = await nextBlob(); if (!n) break; queue.push(n); }
      const blob = queue.shift();
      if (!blob) break;
      if (blob.type !== 'OSMData') { await blob.data; continue; } // unknown blob types are skipped, as the format asks
      const { nodes, waysOrRelations } = blockNodes(await blob.data, key, value);
      yield* nodes;
      if (waysOrRelations && header.sorted) break;
    }
  } finally {
    await fh.close();
  }
}
