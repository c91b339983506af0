import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createProgress } from '../core/progress.ts';
import { OSM_SOURCES } from '../../datasets/osm/source.ts';
import type { Country } from '../../schemas/common.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { pointsCsvSummary } from '../core/points-csv.ts';
import { readTaggedNodes, type OsmNode } from '../core/readers/osm-pbf.ts';
import { Rejects } from '../core/rejects.ts';

/**
 * The motorway accesses of an OpenStreetMap extract (.osm.pbf): nodes tagged
 * highway=motorway_junction (wiki.openstreetmap.org/wiki/Tag:highway=motorway_junction, the point
 * where an exit leaves the motorway) -> <country>/places as transport.highway_access, partition
 * `<cc>.osm-motorway-junctions`, source `<cc>.osm` (ODbL: share-alike).
 *
 * One exit is mapped once per carriageway: junction nodes with the same `ref` (exit number) and the
 * same `name` (or none), each within JUNCTION_GROUP_M of another of them, are one access, placed at
 * the node with the smallest id (a published position, not a midpoint), the ids of all in
 * `osm_node_ids`. A node without `ref` is an access alone. Name as published (null when OSM names
 * none: the exit number is in `ref`).
 */
export const JUNCTION_GROUP_M = 1000;
export const motorwayJunctionsPartition = (country: Country) => `${country}.osm-motorway-junctions`;

export interface MotorwayAccess { id: number; lat: number; lng: number; name: string | null; ref: string | null; exitTo: string | null; nodeIds: number[] }

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin((lat2 - lat1) * r / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin((lng2 - lng1) * r / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/** The junction nodes as accesses: the carriageways of one exit grouped (rule above). */
export function groupJunctions(nodes: readonly OsmNode[]): MotorwayAccess[] {
  const text = (v: string | undefined) => v?.trim() || null;
  const byKey = new Map<string, OsmNode[]>();
  const out: MotorwayAccess[] = [];
  const single = (n: OsmNode): MotorwayAccess => ({ id: n.id, lat: n.lat, lng: n.lng, name: text(n.tags.name), ref: text(n.tags.ref), exitTo: text(n.tags.exit_to), nodeIds: [n.id] });
  for (const n of nodes) {
    const ref = text(n.tags.ref);
    if (ref === null) { out.push(single(n)); continue; }
    const key = `${ref}\u0000${text(n.tags.name) ?? ''}`;
    byKey.set(key, [...(byKey.get(key) ?? []), n]);
  }
  for (const same of byKey.values()) {
    // Single linkage within JUNCTION_GROUP_M (a few nodes per key: quadratic is fine).
    const group = same.map((_, i) => i);
    const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
    for (let i = 0; i < same.length; i++) {
      for (let j = i + 1; j < same.length; j++) {
        if (haversine(same[i]!.lat, same[i]!.lng, same[j]!.lat, same[j]!.lng) <= JUNCTION_GROUP_M) group[find(j)] = find(i);
      }
    }
    const groups = new Map<number, OsmNode[]>();
    same.forEach((n, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), n]));
    for (const g of groups.values()) {
      const head = g.reduce((a, b) => (b.id < a.id ? b : a));
      out.push({ ...single(head), exitTo: g.map((n) => text(n.tags.exit_to)).find((e) => e !== null) ?? null, nodeIds: g.map((n) => n.id).sort((a, b) => a - b) });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

export async function ingestMotorwayJunctions(ctx: JobContext, country: Country, input: JobInput): Promise<PartitionSummary[]> {
  const source = OSM_SOURCES[country];
  const partition = motorwayJunctionsPartition(country);
  const nodes: OsmNode[] = [];
  // The reader stops at the first block of ways of a sorted file: done says the rest was not needed.
  const progress = createProgress(`osm-motorway-junctions ${basename(input.path)}`, (await stat(input.path)).size, ctx.progressOut);
  for await (const n of readTaggedNodes(input.path, { key: 'highway', value: 'motorway_junction', onBytes: (at) => progress.tick(nodes.length, at) })) nodes.push(n);
  progress.done();
  const rejects = new Rejects(ctx.dataDir, country, 'places', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, country, 'places', partition, source.id);
  try {
    const accesses = groupJunctions(nodes);
    for (const a of accesses) {
      const why = writer.add({
        id: `${source.id}.node.${a.id}`, latitude: a.lat, longitude: a.lng, category: 'transport.highway_access', name: a.name,
        attributes: { ref: a.ref, exit_to: a.exitTo, osm_node_ids: a.nodeIds },
      });
      // The rejects file's "line" is the OSM node id: a binary file has no lines.
      if (why) rejects.add(a.id, why, { id: String(a.id), lat: String(a.lat), lon: String(a.lng) });
    }
    rejects.check(accesses.length);
    await rejects.close();
    const published = await publish(ctx, country, 'osm-motorway-junctions', source, input, partition, await writer.prepare(), rejects);
    ctx.log(`${pointsCsvSummary('osm-motorway-junctions', nodes.length, writer.count, rejects.count, new Map())} (junction nodes read; the carriageways of one exit are one access)`);
    return published;
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
