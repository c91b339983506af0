import { fileProgress } from '../core/progress.ts';
import type { MultiPolygon, Polygon } from 'geojson';
import { PROTECTED_AREAS_TABLE, PROTECTED_AREA_TYPES, protectedAreasSource } from '../../datasets/fr/protected-areas/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { textOf } from '../core/hazard-polygons.ts';
import { AreasWriter } from '../core/kinds/areas.ts';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from '../core/reproject.ts';
import { inFrance } from './territory.ts';

/** Attributes every assiette of the CNIG SUP standard carries, as the GPU publishes them (lower case). */
export const ASSIETTE_COLUMNS = ['idass', 'nomass', 'typeass'] as const;

/** The categories kept: the others (PM1, EL7, AC2...) share the GPU's layer and are left out, not refused. */
const KEPT = new Set(PROTECTED_AREA_TYPES.map((t) => t.category));

/**
 * The SUP category of an assiette: `suptype` where the layer has it (the GPU's national layer,
 * in lower case: `ac1`), else the prefix of `nomass` (the CNIG naming rule
 * `<CATEGORIE>_<RADICAL>..._<suffix>`, as in a producer's AC1_ASSIETTE_SUP_S file).
 */
export function categoryOf(props: Record<string, unknown>): string {
  const declared = textOf(props.suptype);
  if ('suptype' in props) return declared.toUpperCase();
  return textOf(props.nomass).split('_')[0]!.toUpperCase();
}

/** [minLng, minLat, maxLng, maxLat] of an outline. */
function extent(g: Polygon | MultiPolygon): [number, number, number, number] {
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  for (const ring of g.type === 'Polygon' ? g.coordinates : g.coordinates.flat()) for (const [x, y] of ring) {
    if (x! < a) a = x!; if (x! > c) c = x!; if (y! < b) b = y!; if (y! > d) d = y!;
  }
  return [a, b, c, d];
}

/**
 * The GPU's public utility easement surfaces (`assiette_sup_s` of the CNIG SUP standard, GeoJSON
 * or shapefile, in the CRS the file declares: WGS84 for the GPU's WFS GeoJSON, Lambert-93 for a
 * CNIG shapefile) into fr/protected_areas, partition fr.protected-areas, replaced whole: the AC1
 * assiettes (`typeass` "Monument historique": layer historic_monument; "Périmètre des abords":
 * historic_monument_surroundings) and the AC4 ones ("Périmètre du SPR": remarkable_heritage_site),
 * each with its category, type and name (`nomsuplitt`, the easement's literal name, where the
 * layer has it, else the coded `nomass`). Assiettes of other categories are left out (counted in
 * the log, not refused). An AC1 or AC4 assiette of another type, without `idass`, or whose
 * geometry is not a polygon
 * or falls outside France (swapped axes) is refused with the reason. A layer whose first feature lacks
 * `idass`, `nomass` or `typeass` is not this layer: it fails naming them before anything is
 * written; so does a layer holding no AC1 or AC4 assiette, and a shapefile without .prj.
 */
export async function ingestProtectedAreas(ctx: JobContext, input: JobInput & { layer?: string }): Promise<PartitionSummary[]> {
  const partition = protectedAreasSource.id;
  const rejects = new Rejects(ctx.dataDir, 'fr', PROTECTED_AREAS_TABLE, partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await AreasWriter.open(ctx.dataDir, 'fr', PROTECTED_AREAS_TABLE, partition, protectedAreasSource.id);
  let total = 0, considered = 0;
  const others = new Map<string, number>();
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: input.layer, progress: fileProgress(ctx, protectedAreasSource.id, input.path) })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = ASSIETTE_COLUMNS.filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not the GPU's SUP assiettes (assiette_sup_s): the features lack the attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; found ${Object.keys(props).slice(0, 10).join(', ') || 'none'}`);
        if (crs === null && !/\.(geo)?json(\.gz)?$/i.test(input.path)) throw new Error(`${protectedAreasSource.id}: the layer declares no CRS (a shapefile without its .prj): refusing to guess`);
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const category = categoryOf(props);
      if (!KEPT.has(category as 'AC1' | 'AC4')) { others.set(category || '(none)', (others.get(category || '(none)') ?? 0) + 1); continue; }
      considered++;
      const typeass = textOf(props.typeass);
      const type = PROTECTED_AREA_TYPES.find((t) => t.category === category && t.typeass === typeass);
      if (!type) {
        const known = PROTECTED_AREA_TYPES.filter((t) => t.category === category).map((t) => t.typeass).join(', ');
        rejects.add(index, `typeass ${JSON.stringify(props.typeass ?? null)} is not an ${category} assiette type (${known})`, props);
        continue;
      }
      const idass = textOf(props.idass);
      if (!idass) { rejects.add(index, 'idass: no identifier', props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const nomass = textOf(props.nomass) || null;
      const literal = textOf(props.nomsuplitt) || null;
      const name = literal ?? nomass;
      if (!name) { rejects.add(index, 'no name: nomsuplitt and nomass are empty', props); continue; }
      const geometry = reprojectGeometry(g, project.fn) as Polygon | MultiPolygon;
      const [minLng, minLat, maxLng, maxLat] = extent(geometry);
      if (!inFrance(minLng, minLat) || !inFrance(maxLng, maxLat)) { rejects.add(index, `outline (${minLng}, ${minLat}) to (${maxLng}, ${maxLat}) is not in France: swapped axes or a wrong CRS?`, props); continue; }
      const attributes = { category, typeass, name, nomass, nomsuplitt: literal, idgen: textOf(props.idgen) || null };
      const why = writer.add({ id: `${protectedAreasSource.id}:${idass}`, layer: type.layer, geometry, attributes });
      if (why) rejects.add(index, why, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    if (considered === 0) {
      throw new Error(`no AC1 or AC4 assiette in ${input.path} (${total} feature${total > 1 ? 's' : ''} of ${[...others.keys()].sort().join(', ')}): not the heritage easements`);
    }
    if (others.size > 0) ctx.log(`${protectedAreasSource.id}: left out ${[...others].sort().map(([c, n]) => `${n} ${c}`).join(', ')} (other SUP categories)`);
    rejects.check(considered);
    await rejects.close();
    return await publish(ctx, 'fr', protectedAreasSource.id, protectedAreasSource, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
