import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../ingest/core/define-job.ts';
import { readTaggedNodes, type OsmNode } from '../../../../ingest/core/readers/osm-pbf.ts';
import { osmPbf, type PbfNode, type PbfOptions } from '../../../helpers/osm-pbf.ts';

const JUNCTION = { key: 'highway', value: 'motorway_junction' };
const read = async (path: string, tag = JUNCTION) => { const out: OsmNode[] = []; for await (const n of readTaggedNodes(path, tag)) out.push(n); return out; };
async function file(o: PbfOptions | Buffer): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lds-osm-pbf-')), 'x.osm.pbf');
  writeFileSync(path, Buffer.isBuffer(o) ? o : osmPbf(o));
  return path;
}

/** The XML the sample was written from (by osmium), read independently. */
function xmlJunctions(cc: string): OsmNode[] {
  type XNode = { '@_id': string; '@_lat': string; '@_lon': string; tag?: { '@_k': string; '@_v': string }[] };
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'node' || name === 'tag' })
    .parse(readFileSync(join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm`), 'utf8')) as { osm: { node: XNode[] } };
  return doc.osm.node.map((n) => ({ id: Number(n['@_id']), lat: Number(n['@_lat']), lng: Number(n['@_lon']), tags: Object.fromEntries((n.tag ?? []).map((t) => [t['@_k'], t['@_v']])) }))
    .filter((n) => n.tags.highway === 'motorway_junction');
}

describe('readTaggedNodes (.osm.pbf)', () => {
  it.each(['fr', 'ca', 'be'])('%s: reads the junctions of the osmium-written sample as the XML it was written from says them', async (cc) => {
    const expected = xmlJunctions(cc);
    expect(expected.length).toBeGreaterThan(3);
    expect(await read(join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm.pbf`))).toEqual(expected);
  });

  it('reads dense and plain nodes, raw and zlib blobs, ids beyond 2^32, a granularity and offsets, UTF-8 tags', async () => {
    const nodes: PbfNode[] = [
      { id: 1, lat: 48.8566, lng: 2.3522 },
      { id: 5_000_000_000, lat: -20.8871, lng: 55.5103, tags: { highway: 'motorway_junction', name: 'Échangeur Sainte-Marie', ref: '3' } },
      { id: 5_000_000_002, lat: 45.52, lng: -73.58, tags: { highway: 'traffic_signals' } },
      { id: 5_000_000_003, lat: 50.8466, lng: 4.3524, tags: { highway: 'motorway_junction', 'name:nl': 'Brussel' } },
    ];
    const want = [nodes[1], nodes[3]];
    for (const compression of ['zlib', 'raw'] as const) {
      for (const dense of [true, false]) {
        expect(await read(await file({ blocks: [{ nodes, dense }], compression }))).toEqual(want);
      }
    }
    const shifted = await read(await file({ blocks: [{ nodes }], granularity: 1000, latOffset: 1_000_000_000, lonOffset: 2_000_000_000 }));
    expect(shifted.map((n) => n.id)).toEqual([5_000_000_000, 5_000_000_003]);
    for (const [i, n] of shifted.entries()) { expect(n.lat).toBeCloseTo(want[i]!.lat, 6); expect(n.lng).toBeCloseTo(want[i]!.lng, 6); }
  });

  it('leaves a file sorted by type then id at its first block of ways; reads on without that declaration', async () => {
    const late = { id: 99, lat: 1, lng: 1, tags: { highway: 'motorway_junction' } };
    const blocks = [{ nodes: [{ id: 1, lat: 0, lng: 0, tags: { highway: 'motorway_junction' } }] }, { ways: [{ id: 7, refs: [1, 99] }] }, { nodes: [late] }];
    expect((await read(await file({ blocks, optional: ['Sort.Type_then_ID'] }))).map((n) => n.id)).toEqual([1]);
    expect((await read(await file({ blocks }))).map((n) => n.id)).toEqual([1, 99]);
  });

  it('refuses what it cannot read, naming why', async () => {
    const blocks = [{ nodes: [{ id: 1, lat: 0, lng: 0 }] }];
    await expect(read(await file({ blocks, compression: 'lzma' }))).rejects.toThrow(/compressed with lzma: only zlib and raw blobs are read/);
    await expect(read(await file({ blocks, required: ['OsmSchema-V0.6', 'HistoricalInformation'] }))).rejects.toThrow(/requires features this reader does not know: HistoricalInformation/);
    await expect(read(await file(Buffer.from('<?xml version="1.0"?><osm></osm>')))).rejects.toThrow(/is not an .osm.pbf file/);
    const whole = osmPbf({ blocks });
    await expect(read(await file(whole.subarray(0, whole.length - 5)))).rejects.toThrow(/truncated/);
  });
});
