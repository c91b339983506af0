import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
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
    // A zone published as several records (islands, a split region) is one zone: its parts are
    // gathered and written once as a MultiPolygon. Only those zones are held in memory.
    const repeated = await repeatedCodes(spec);
    const parts = new Map<string, { zone: Omit<ZoneInput, 'geometry'>; polygons: Position[][][]; index: number }>();
    for await (const { index, feature, crs, bytes } of readFeatures(spec.input.path, { encoding: spec.encoding, layer: spec.layer })) {
      total++;
      const prepared = prepareFeature(feature, spec, spec.crs ?? crs, projections);
      if (typeof prepared === 'string') { rejects.add(index, prepared, feature.properties); continue; }
      const key = `${prepared.zone.level}:${prepared.zone.code}`;
      if (repeated.has(key)) {
        const entry = parts.get(key) ?? { zone: prepared.zone, polygons: [], index };
        const g = prepared.geometry;
        entry.polygons.push(...(g.type === 'Polygon' ? [g.coordinates] : g.coordinates));
        parts.set(key, entry);
      } else {
        const reason = writer.add({ ...prepared.zone, geometry: prepared.geometry });
        if (reason) rejects.add(index, reason, feature.properties);
      }
      progress.tick(total, bytes?.read, bytes?.total);
    }
    for (const { zone, polygons, index } of parts.values()) {
      const reason = writer.add({ ...zone, geometry: { type: 'MultiPolygon', coordinates: polygons } });
      if (reason) rejects.add(index, reason, zone);
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

/** Level:code keys that several records of the file carry. */
async function repeatedCodes(spec: ZoneFileSpec): Promise<Set<string>> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for await (const { feature } of readFeatures(spec.input.path, { encoding: spec.encoding, layer: spec.layer })) {
    const zone = spec.toZone(feature.properties ?? {});
    if (typeof zone === 'string') continue;
    const key = `${zone.level}:${zone.code}`;
    if (seen.has(key)) repeated.add(key); else seen.add(key);
  }
  return repeated;
}

/** A feature as a zone with its WGS84 outline, or the reason it is refused. */
function prepareFeature(
  feature: Feature,
  spec: ZoneFileSpec,
  crs: string | null,
  projections: Map<string, (xy: [number, number]) => [number, number]>,
): { zone: Omit<ZoneInput, 'geometry'>; geometry: Polygon | MultiPolygon } | string {
  const g = feature.geometry;
  if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) return `geometry is ${g ? g.type : 'empty'}, expected Polygon or MultiPolygon`;
  const zone = spec.toZone(feature.properties ?? {});
  if (typeof zone === 'string') return zone;
  const key = crs ?? 'EPSG:4326';
  let fn = projections.get(key);
  if (!fn) projections.set(key, (fn = toWgs84(crs)));
  return { zone, geometry: reprojectGeometry(g, fn) as Polygon | MultiPolygon };
}

/** A property as a trimmed string, or null when absent or empty. */
export function prop(p: Record<string, unknown>, name: string): string | null {
  const v = p[name];
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
}
