import { open, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { readTaggedNodes } from '../ingest/core/readers/osm-pbf.ts';
import { osmPbf, type PbfBlock } from '../test/helpers/osm-pbf.ts';
import { rng } from './generate.ts';

/**
 * The .osm.pbf reader (osm-motorway-junctions) on a generated extract: `nodes` dense nodes in blocks of
 * 8,000 (about 1 in 12 tagged, as in France's extract; 1 in 40,000 a motorway junction), then ways.
 * Baseline in the same run: inflating every blob of the file and nothing else, the floor of any
 * reader of the format. Rounds alternate baseline and reader; medians.
 */
export async function benchOsmPbf(nodes: number, rounds: number) {
  const root = await mkdtemp(join(tmpdir(), 'bench-osm-pbf-'));
  const file = join(root, 'extract.osm.pbf');
  try {
    const random = rng(16);
    const COMMON = [['highway', 'crossing'], ['highway', 'bus_stop'], ['barrier', 'gate'], ['natural', 'tree'], ['amenity', 'bench'], ['power', 'pole']];
    const started = Date.now();
    const blocks: PbfBlock[] = [];
    let junctions = 0;
    for (let id = 1; id <= nodes; id += 8000) {
      const block = [];
      for (let k = id; k < Math.min(id + 8000, nodes + 1); k++) {
        const r = random();
        const tags = r < 1 / 40_000 ? { highway: 'motorway_junction', ref: String(k % 90), name: `Sortie ${k}` } : r < 1 / 12 ? Object.fromEntries([COMMON[Math.floor(random() * COMMON.length)]!]) : undefined;
        if (tags?.highway === 'motorway_junction') junctions++;
        block.push({ id: k * 3, lat: 42 + random() * 9, lng: -4.5 + random() * 12, tags });
      }
      blocks.push({ nodes: block });
    }
    for (let w = 0; w < nodes / 10; w += 8000) blocks.push({ ways: Array.from({ length: 8000 }, (_, i) => ({ id: w + i + 1, refs: [3, 6, 9, 12, 15].map((x) => x + (w + i) * 3), tags: { highway: 'residential' } })) });
    await writeFile(file, osmPbf({ blocks }));
    const generate_s = (Date.now() - started) / 1000;
    const bytes = (await stat(file)).size;
    const baseline = async () => {
      const fh = await open(file, 'r');
      const buf = await fh.readFile();
      await fh.close();
      // Walks the blobs as the reader does, inflating each (field 3 of the Blob is its zlib data).
      let pos = 0;
      while (pos < buf.length) {
        const hl = buf.readUInt32BE(pos); pos += 4;
        const header = buf.subarray(pos, pos + hl); pos += hl;
        const size = decodeSize(header);
        const blob = buf.subarray(pos, pos + size); pos += size;
        inflateSync(zlibPart(blob));
      }
    };
    const reader = async () => { let n = 0; for await (const _ of readTaggedNodes(file, { key: 'highway', value: 'motorway_junction' })) n++; return n; };
    const runs: { baseline_s: number; reader_s: number }[] = [];
    let found = 0;
    for (let r = 0; r < rounds; r++) {
      let t = performance.now(); await baseline(); const b = (performance.now() - t) / 1000;
      t = performance.now(); found = await reader(); const j = (performance.now() - t) / 1000;
      runs.push({ baseline_s: b, reader_s: j });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const reader_s = median(runs.map((r) => r.reader_s)), baseline_s = median(runs.map((r) => r.baseline_s));
    return {
      nodes, junctions, found, file_mb: +(bytes / 1e6).toFixed(1), generate_s, rounds: runs,
      reader_s: +reader_s.toFixed(3), baseline_inflate_s: +baseline_s.toFixed(3), ratio_to_inflate: +(reader_s / baseline_s).toFixed(2),
      reader_mb_s: +(bytes / 1e6 / reader_s).toFixed(1), reader_nodes_per_s: Math.round(nodes / reader_s),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** BlobHeader.datasize (field 3, varint) read plainly. */
function decodeSize(h: Uint8Array): number {
  let i = 0;
  while (i < h.length) {
    const tag = h[i++]!;
    if (tag === 0x18) { let v = 0, m = 1, b: number; do { b = h[i++]!; v += (b & 0x7f) * m; m *= 128; } while (b & 0x80); return v; }
    if ((tag & 7) === 2) { let v = 0, m = 1, b: number; do { b = h[i++]!; v += (b & 0x7f) * m; m *= 128; } while (b & 0x80); i += v; } else throw new Error('unexpected blob header field');
  }
  throw new Error('blob header without datasize');
}

/** A Blob's zlib_data (field 3) as written by test/helpers/osm-pbf.ts: raw_size (field 2) first. */
function zlibPart(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length) {
    const tag = b[i++]!;
    let v = 0, m = 1, x: number;
    do { x = b[i++]!; v += (x & 0x7f) * m; m *= 128; } while (x & 0x80);
    if ((tag & 7) === 2) { if (tag >>> 3 === 3) return b.subarray(i, i + v); i += v; }
  }
  throw new Error('blob without zlib data');
}
