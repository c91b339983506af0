import { fileProgress } from './progress.ts';
import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import type { Source } from '../../datasets/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from './job.ts';
import { AreasWriter } from './kinds/areas.ts';
import { readFeatures } from './readers/features.ts';
import { Rejects } from './rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from './reproject.ts';

/** What a producer's polygon becomes: the attributes served, or why the row is refused. */
export type Classified = { attributes: Record<string, unknown> } | { reject: string };

/** One producer's hazard polygon layer, read as published (ingest/<country>/<name>.job.ts names it). */
export interface HazardLayer {
  country: Country;
  source: Source;
  /** Layer of the areas table holding the polygons (read by the risks domain). */
  layer: string;
  /** Attributes every feature of the producer's layer carries: their absence means another file. */
  required: string[];
  /** Attribute holding the producer's own identifier, if any (else the feature's position in the file). */
  idAttribute?: string;
  /** The producer's class -> what is stored; an unknown class is refused with its value. */
  classify: (props: Record<string, unknown>) => Classified;
  /** Another table than hazard_areas (be.brussels-soil writes its own parcels' layer there too). */
  table?: string;
}

/**
 * A producer's hazard polygons (GeoJSON or shapefile, the CRS the file declares) into
 * <country>/hazard_areas, partition = the source id: the layer replaces itself whole. A file whose
 * first feature lacks a required attribute is not this layer: it fails naming what is missing,
 * before anything is written; a shapefile without .prj fails too (no CRS, refusing to guess).
 * Rows whose class is unknown or whose geometry is not a polygon go to the rejects file.
 */
export async function ingestHazardPolygons(ctx: JobContext, input: JobInput & { layer?: string; encoding?: string }, spec: HazardLayer): Promise<PartitionSummary[]> {
  const table = spec.table ?? 'hazard_areas';
  const partition = spec.source.id;
  const rejects = new Rejects(ctx.dataDir, spec.country, table, partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await AreasWriter.open(ctx.dataDir, spec.country, table, partition, spec.source.id);
  let total = 0;
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: input.layer, encoding: input.encoding, progress: fileProgress(ctx, spec.source.id, input.path) })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = spec.required.filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not ${spec.source.producer}'s ${spec.source.name}: the features lack the attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; found ${Object.keys(props).slice(0, 8).join(', ') || 'none'}`);
        if (crs === null && !/\.(geo)?json(\.gz)?$/i.test(input.path)) throw new Error(`${spec.source.id}: the layer declares no CRS (a shapefile without its .prj): refusing to guess`);
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const c = spec.classify(props);
      if ('reject' in c) { rejects.add(index, c.reject, props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const own = spec.idAttribute ? String(props[spec.idAttribute] ?? '').trim() : '';
      const why = writer.add({ id: `${spec.source.id}:${own || index}`, layer: spec.layer, geometry: reprojectGeometry(g, project.fn) as Polygon | MultiPolygon, attributes: c.attributes });
      if (why) rejects.add(index, why, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, spec.country, spec.source.id, spec.source, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}

/** Text of an attribute, trimmed; '' when absent or null. */
export const textOf = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());
