import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import type { Source } from '../../datasets/source.ts';
import type { JobContext, PartitionSummary } from './job.ts';
import { readFeatures } from './readers/features.ts';
import { Rejects } from './rejects.ts';
import { reprojectGeometry, toWgs84 } from './reproject.ts';
import { ZoneTree, publishTree, type TreeZone } from './zone-tree.ts';
import { createProgress } from './progress.ts';

export interface TreeFileSpec {
  country: Country;
  job: string;
  source: Source;
  partition: string;
  path: string;
  layer?: string;
  encoding?: string;
  crs?: string;
  /** A feature's chain of zones (widest first, the outline is the last one's), a reason to refuse it, or null to skip it (outside the territory). */
  toChain: (properties: Record<string, unknown>) => TreeZone[] | string | null;
}

/** Reads a boundary file whose features each give a chain of zones, and publishes the tree as one partition. */
export async function ingestTreeFile(ctx: JobContext, spec: TreeFileSpec): Promise<PartitionSummary[]> {
  const rejects = new Rejects(ctx.dataDir, spec.country, 'zones', spec.partition, ctx.maxRejectShare);
  await rejects.init();
  const tree = new ZoneTree();
  const progress = createProgress(`${spec.job} ${spec.partition}`, null, ctx.progressOut);
  const projections = new Map<string, ReturnType<typeof toWgs84>>();
  let total = 0;
  try {
    for await (const { index, feature, crs, bytes } of readFeatures(spec.path, { encoding: spec.encoding, layer: spec.layer })) {
      const props = feature.properties ?? {};
      const chain = spec.toChain(props);
      if (chain === null) continue;
      total++;
      if (typeof chain === 'string') { rejects.add(index, chain, props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry is ${g ? g.type : 'empty'}, expected Polygon or MultiPolygon`, props); continue; }
      const key = spec.crs ?? crs ?? 'EPSG:4326';
      let fn = projections.get(key);
      if (!fn) projections.set(key, (fn = toWgs84(spec.crs ?? crs)));
      tree.add(chain, reprojectGeometry(g, fn) as Polygon | MultiPolygon);
      progress.tick(total, bytes?.read, bytes?.total);
    }
    progress.done();
    if (total === 0) throw new Error(`no feature of the territory read from ${spec.path}${spec.layer ? ` (layer ${spec.layer})` : ''}`);
    rejects.check(total);
    return await publishTree(ctx, spec.country, spec.job, spec.source, { path: spec.path }, spec.partition, tree, rejects);
  } catch (e) {
    await rejects.close();
    throw e;
  }
}
