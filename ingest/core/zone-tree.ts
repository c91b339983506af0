import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import { ZONE_LEVEL_ORDER, type ZoneLevel } from '../../schemas/zone.ts';
import type { Source } from '../../datasets/source.ts';
import { dissolve } from './dissolve.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from './job.ts';
import type { Rejects } from './rejects.ts';
import { ZonesWriter } from './write-zones.ts';
import { coverUnion, coverZone, type CoveredPart, type ZoneCover } from './zone-cover.ts';

export interface TreeZone { level: ZoneLevel; code: string; name: string | null; parent_level: ZoneLevel | null; parent_code: string | null }

/**
 * Zones of several levels built from the finest one a producer publishes with outlines: each
 * feature brings its chain of zones (widest to finest, from its attributes or a code list) and
 * its outline; a wider zone's outline is the union of its children's, level by level, and its H3
 * cover is derived from its children's covers (coverUnion) instead of covering the union again.
 */
export class ZoneTree {
  /** parts: the zone's own published outlines; children: its children's outlines with their covers. */
  private zones = new Map<string, TreeZone & { parts: (Polygon | MultiPolygon)[]; children: CoveredPart[] }>();

  /** Adds a feature: its chain of zones, widest first; the outline belongs to the last one. */
  add(chain: TreeZone[], geometry: Polygon | MultiPolygon): void {
    for (const z of chain) {
      const key = `${z.level}:${z.code}`;
      if (!this.zones.has(key)) this.zones.set(key, { ...z, parts: [], children: [] });
    }
    const finest = chain.at(-1)!;
    this.zones.get(`${finest.level}:${finest.code}`)!.parts.push(geometry);
  }

  get size(): number { return this.zones.size; }

  /** Dissolves finest level first, so each union works on a few already merged outlines. */
  *build(): Generator<TreeZone & { geometry: Polygon | MultiPolygon; cover: ZoneCover }> {
    const levels = [...ZONE_LEVEL_ORDER].reverse();
    for (const level of levels) {
      for (const z of [...this.zones.values()].filter((e) => e.level === level).sort((a, b) => a.code.localeCompare(b.code))) {
        if (z.parts.length === 0 && z.children.length === 0) continue;
        const geometry = dissolve([...z.parts, ...z.children.map((c) => c.geometry)]);
        // A zone that also has outlines of its own is covered afresh; a union of children only is derived.
        const cover = z.parts.length === 0 ? coverUnion(geometry, z.children) : coverZone(geometry);
        z.parts = [];
        z.children = [];
        const parent = z.parent_level && z.parent_code ? this.zones.get(`${z.parent_level}:${z.parent_code}`) : undefined;
        parent?.children.push({ geometry, cover });
        yield { level: z.level, code: z.code, name: z.name, parent_level: z.parent_level, parent_code: z.parent_code, geometry, cover };
      }
    }
  }
}

/** Writes a tree's zones and their H3 cover as one partition of `zones` and `zone_cells`. */
export async function publishTree(
  ctx: JobContext, country: Country, job: string, source: Source, input: JobInput, partition: string, tree: ZoneTree, rejects: Rejects,
): Promise<PartitionSummary[]> {
  const writer = await ZonesWriter.open(ctx.dataDir, country, partition, source.id);
  try {
    for (const { cover, ...z } of tree.build()) {
      const reason = writer.add(z, cover);
      if (reason) rejects.add(0, reason, { level: z.level, code: z.code });
    }
    await rejects.close();
    return await publish(ctx, country, job, source, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await writer.abort();
    throw e;
  }
}
