import { fileProgress } from '../core/progress.ts';
import type { MultiPolygon, Polygon } from 'geojson';
import { CLAY_LAYER, claySource } from '../../datasets/fr/clay/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { AreasWriter } from '../core/kinds/areas.ts';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from '../core/reproject.ts';

export { CLAY_LAYER };

/** BRGM's NIVEAU -> the common scale (spec 2.5: low, medium, high exposure -> low, moderate, high). */
const LEVELS: Record<string, 'low' | 'moderate' | 'high'> = { 1: 'low', 2: 'moderate', 3: 'high' };

/** Metropolitan departments: BRGM's exposure map covers metropolitan France only. */
export const CLAY_DEPARTMENT = /^(0[1-9]|[1-8]\d|9[0-5]|2A|2B)$/;

/** Partition of a departmental file: one per department, beside the national layer's `fr.clay`. */
export const clayPartition = (department?: string) => department ? `${claySource.id}-${department}` : claySource.id;

/**
 * BRGM's clay shrink-swell exposure polygons (ExpoArgile_*_L93, GeoJSON or shapefile, Lambert-93
 * as declared by the file) into fr/hazard_areas (layer clay_shrink_swell), each with its level.
 * The national layer is partition fr.clay; a departmental file (`department`, declared by the
 * operator: the features do not say it, and a file name is no identity) is partition
 * fr.clay-<department>, its areas carrying the department so that the risks domain serves it,
 * not the national layer, inside that department. A file whose features lack NIVEAU is not this
 * layer: it fails, naming the missing attribute, before anything is written; a shapefile without
 * .prj fails too (no CRS).
 */
export async function ingestClay(ctx: JobContext, input: JobInput & { layer?: string; department?: string }): Promise<PartitionSummary[]> {
  const { department } = input;
  if (department !== undefined && !CLAY_DEPARTMENT.test(department)) throw new Error(`--department ${JSON.stringify(department)} is not a metropolitan department code (01 to 95, 2A, 2B): BRGM's exposure map covers metropolitan France`);
  const partition = clayPartition(department);
  const rejects = new Rejects(ctx.dataDir, 'fr', 'hazard_areas', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await AreasWriter.open(ctx.dataDir, 'fr', 'hazard_areas', partition, claySource.id);
  let total = 0;
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: input.layer, progress: fileProgress(ctx, 'fr.clay', input.path) })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = ['NIVEAU'].filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not BRGM's clay exposure layer: the features lack the attribute ${missing.join(', ')}; found ${Object.keys(props).slice(0, 8).join(', ') || 'none'}`);
        if (crs === null && !/\.(geo)?json(\.gz)?$/i.test(input.path)) throw new Error('the clay layer declares no CRS (a shapefile without its .prj): refusing to guess');
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const level = LEVELS[String(props.NIVEAU ?? '').trim()];
      if (!level) { rejects.add(index, `NIVEAU ${JSON.stringify(props.NIVEAU ?? null)} is not 1, 2 or 3`, props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const own = String(props.ID ?? props.id ?? index);
      const id = department ? `${claySource.id}:${department}:${own}` : `${claySource.id}:${own}`;
      const attributes = department ? { level, niveau: Number(props.NIVEAU), department } : { level, niveau: Number(props.NIVEAU) };
      const why = writer.add({ id, layer: CLAY_LAYER, geometry: reprojectGeometry(g, project.fn) as Polygon | MultiPolygon, attributes });
      if (why) rejects.add(index, why, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'fr', claySource.id, claySource, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
