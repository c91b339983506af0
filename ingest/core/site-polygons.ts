import { fileProgress } from './progress.ts';
import { centerOfMass } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import type { Source } from '../../datasets/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from './job.ts';
import { AreasWriter } from './kinds/areas.ts';
import { PointsWriter } from './kinds/points.ts';
import { readFeatures } from './readers/features.ts';
import { Rejects } from './rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from './reproject.ts';

/** What a producer's site polygon becomes: its points category and served attributes, null to leave it out, or why it is refused. */
export type SiteClass = { category: string; attributes: Record<string, unknown>; name?: string | null } | null | { reject: string };

/** A producer's layer of polluted-site polygons (parcels, soil information areas). */
export interface SitePolygonLayer {
  country: Country;
  source: Source;
  /** Layer of <country>/hazard_areas holding the polygons (for `inside`). */
  layer: string;
  required: string[];
  /** Attribute holding the producer's identifier of the site. */
  idAttribute: string;
  classify: (props: Record<string, unknown>) => SiteClass;
}

/**
 * Polluted-site polygons (GeoJSON or shapefile, the CRS the file declares) into
 * <country>/hazard_areas (the polygons: which contain a point, `inside`) and
 * <country>/polluted_sites (each polygon's centre of mass: counts within a radius and nearest
 * items), both partition = the source id. A file whose first feature lacks a required attribute
 * fails naming it before anything is written; a shapefile without .prj fails (no CRS).
 */
export async function ingestSitePolygons(ctx: JobContext, input: JobInput & { layer?: string }, spec: SitePolygonLayer): Promise<PartitionSummary[]> {
  const partition = spec.source.id;
  const rejects = new Rejects(ctx.dataDir, spec.country, 'polluted_sites', partition, ctx.maxRejectShare);
  await rejects.init();
  const areas = await AreasWriter.open(ctx.dataDir, spec.country, 'hazard_areas', partition, spec.source.id);
  const points = await PointsWriter.open(ctx.dataDir, spec.country, 'polluted_sites', partition, spec.source.id);
  let total = 0;
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: input.layer, progress: fileProgress(ctx, spec.source.id, input.path) })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = spec.required.filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not ${spec.source.producer}'s ${spec.source.name}: the features lack the attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; found ${Object.keys(props).slice(0, 8).join(', ') || 'none'}`);
        if (crs === null && !/\.(geo)?json(\.gz)?$/i.test(input.path)) throw new Error(`${spec.source.id}: the layer declares no CRS (a shapefile without its .prj): refusing to guess`);
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const site = spec.classify(props);
      if (site === null) continue;
      if ('reject' in site) { rejects.add(index, site.reject, props); continue; }
      const key = String(props[spec.idAttribute] ?? '').trim();
      if (!key) { rejects.add(index, `${spec.idAttribute}: no identifier`, props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const geometry = reprojectGeometry(g, project.fn) as Polygon | MultiPolygon;
      const id = `${spec.source.id}:${key}`;
      const why = areas.add({ id, layer: spec.layer, geometry, attributes: site.name === undefined ? site.attributes : { ...site.attributes, name: site.name } });
      if (why) { rejects.add(index, why, props); continue; }
      const [lng, lat] = centerOfMass(geometry).geometry.coordinates as [number, number];
      const whyPoint = points.add({ id, latitude: lat, longitude: lng, category: site.category, name: site.name ?? null, attributes: site.attributes });
      if (whyPoint) rejects.add(index, whyPoint, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, spec.country, spec.source.id, spec.source, input, partition, [...await areas.prepare(), ...await points.prepare()], rejects);
  } catch (e) {
    await rejects.close();
    await areas.abort();
    await points.abort();
    throw e;
  }
}
