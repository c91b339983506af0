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

/**
 * BRGM's clay shrink-swell exposure polygons (ExpoArgile_*_L93, GeoJSON or shapefile, Lambert-93
 * as declared by the file) into fr/hazard_areas (layer clay_shrink_swell, partition fr.clay), each
 * with its level. A file whose features lack NIVEAU is not this layer: it fails, naming the
 * missing attribute, before anything is written; a shapefile without .prj fails too (no CRS).
 */
export async function ingestClay(ctx: JobContext, input: JobInput & { layer?: string }): Promise<PartitionSummary[]> {
  const partition = claySource.id;
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
      const id = `${claySource.id}:${String(props.ID ?? props.id ?? index)}`;
      const why = writer.add({ id, layer: CLAY_LAYER, geometry: reprojectGeometry(g, project.fn) as Polygon | MultiPolygon, attributes: { level, niveau: Number(props.NIVEAU) } });
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
