import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { Country } from '../../schemas/common.ts';
import type { Source } from '../../datasets/source.ts';
import { readFeatures } from './readers/features.ts';
import { reprojectGeometry, toWgs84 } from './reproject.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from './job.ts';
import { Rejects } from './rejects.ts';
import { ZonesWriter, type ZoneInput } from './write-zones.ts';
import { createProgress } from './progress.ts';

export interface ZoneFileSpec {
  country: Country;
  job: string;
  source: Source;
  partition: string;
  input: JobInput;
  /** Shapefile layer inside a zip or folder. */
  layer?: string;
  encoding?: string;
  /** Overrides the CRS the file declares (for files that declare none, or wrongly). */
  crs?: string;
  /** Maps a feature's properties to a zone, or returns the reason it is refused. */
  toZone: (properties: Record<string, unknown>) => Omit<ZoneInput, 'geometry'> | string;
}

/** Reads a boundary file, reprojects it to WGS84 and publishes its partition of `zones` and `zone_cells`. */
export async function ingestZoneFile(ctx: JobContext, spec: ZoneFileSpec): Promise<PartitionSummary[]> {
  const rejects = new Rejects(ctx.dataDir, spec.country, 'zones', spec.partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await ZonesWriter.open(ctx.dataDir, spec.country, spec.partition, spec.source.id);
  const progress = createProgress(`${spec.job} ${spec.partition}`, null, ctx.progressOut);
  let total = 0;
  const projections = new Map<string, (xy: [number, number]) => [number, number]>();
  try {
    for await (const { index, feature, crs } of readFeatures(spec.input.path, { encoding: spec.encoding, layer: spec.layer })) {
      total++;
      const reason = addFeature(writer, feature, spec, spec.crs ?? crs, projections);
      if (reason) rejects.add(index, reason, feature.properties);
      progress.tick(total);
    }
    progress.done();
    if (total === 0) throw new Error(`no feature read from ${spec.input.path}${spec.layer ? ` (layer ${spec.layer})` : ''}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, spec.country, spec.job, spec.source, spec.input, spec.partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}

function addFeature(
  writer: ZonesWriter,
  feature: Feature,
  spec: ZoneFileSpec,
  crs: string | null,
  projections: Map<string, (xy: [number, number]) => [number, number]>,
): string | null {
  const g = feature.geometry;
  if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) return `geometry is ${g ? g.type : 'empty'}, expected Polygon or MultiPolygon`;
  const zone = spec.toZone(feature.properties ?? {});
  if (typeof zone === 'string') return zone;
  const key = crs ?? 'EPSG:4326';
  let fn = projections.get(key);
  if (!fn) projections.set(key, (fn = toWgs84(crs)));
  const geometry = reprojectGeometry(g, fn) as Polygon | MultiPolygon;
  return writer.add({ ...zone, geometry });
}

/** A property as a trimmed string, or null when absent or empty. */
export function prop(p: Record<string, unknown>, name: string): string | null {
  const v = p[name];
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}
