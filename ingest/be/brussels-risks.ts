import { centerOfMass } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { brusselsFloodSource, BE_FLOOD_LAYER } from '../../datasets/be/brussels-flood/source.ts';
import { brusselsSoilSource, BE_SOIL_LAYER } from '../../datasets/be/brussels-soil/source.ts';
import { textOf, type Classified, type HazardLayer } from '../core/hazard-polygons.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { AreasWriter } from '../core/kinds/areas.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from '../core/reproject.ts';

/** The map's hazard classes (ALEA_FR as published, accents and case tolerated) -> the common scale (spec 2.5). */
export function brusselsFloodLevel(alea: string): 'low' | 'moderate' | 'high' | null {
  const t = alea.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/^alea\s+/, '').trim();
  return ({ faible: 'low', moyen: 'moderate', eleve: 'high' } as const)[t as 'faible'] ?? null;
}

export const BE_FLOOD: HazardLayer = {
  country: 'be', source: brusselsFloodSource, layer: BE_FLOOD_LAYER, required: ['ID', 'ALEA_FR'], idAttribute: 'ID',
  classify: (p): Classified => {
    const level = brusselsFloodLevel(textOf(p.ALEA_FR));
    return level ? { attributes: { level, alea: textOf(p.ALEA_FR) } } : { reject: `ALEA_FR ${JSON.stringify(p.ALEA_FR ?? null)} is not a hazard class of the map (Aléa faible, moyen, élevé)` };
  },
};

export type SoilSite = { type: 'contaminated_land' | 'suspected_land'; status: 'suspected' | 'confirmed' | 'under_treatment' };

/**
 * A parcel's category (CATEGORIE: 0 to 4, or a combination such as "0+3") -> the spec's type and
 * status (spec 2.10): any of 2, 3 (established pollution) or 4 (under study or treatment) makes
 * contaminated land, status under_treatment with 4 else confirmed; 0 alone (presumed pollution)
 * suspected land; 1 alone, recognised as unpolluted, is never served (null). Another value: why.
 */
export function soilCategory(raw: string): SoilSite | null | { reject: string } {
  const parts = raw.replace(/\s+/g, '').split('+').filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !/^[0-4]$/.test(p))) return { reject: `CATEGORIE ${JSON.stringify(raw)} is not a category of the inventory (0 to 4, or a combination such as 0+3)` };
  if (parts.includes('4')) return { type: 'contaminated_land', status: 'under_treatment' };
  if (parts.includes('2') || parts.includes('3')) return { type: 'contaminated_land', status: 'confirmed' };
  if (parts.includes('0')) return { type: 'suspected_land', status: 'suspected' };
  return null;
}

export const soilCategoryOf = (type: SoilSite['type']) => `polluted_site.${type}`;

/**
 * The soil-status inventory's parcels (GeoJSON or shapefile, the CRS it declares) into
 * be/hazard_areas (layer soil_status: the parcels containing a point, `inside`) and
 * be/polluted_sites (the parcel's centre of mass: counts and nearest items), both partition
 * be.brussels-soil. A parcel of category 1 only (recognised as unpolluted) is left out, counted
 * nowhere: the spec never serves it. A layer without CAPAKEY or CATEGORIE fails naming it.
 */
export async function ingestBrusselsSoil(ctx: JobContext, input: JobInput & { layer?: string }): Promise<PartitionSummary[]> {
  const partition = brusselsSoilSource.id;
  const rejects = new Rejects(ctx.dataDir, 'be', 'polluted_sites', partition, ctx.maxRejectShare);
  await rejects.init();
  const areas = await AreasWriter.open(ctx.dataDir, 'be', 'hazard_areas', partition, brusselsSoilSource.id);
  const points = await PointsWriter.open(ctx.dataDir, 'be', 'polluted_sites', partition, brusselsSoilSource.id);
  let total = 0;
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: input.layer })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = ['CAPAKEY', 'CATEGORIE'].filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not Bruxelles Environnement's soil-status inventory: the features lack the attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; found ${Object.keys(props).slice(0, 8).join(', ') || 'none'}`);
        if (crs === null && !/\.(geo)?json(\.gz)?$/i.test(input.path)) throw new Error('the inventory declares no CRS (a shapefile without its .prj): refusing to guess');
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const site = soilCategory(textOf(props.CATEGORIE));
      if (site === null) continue;
      if ('reject' in site) { rejects.add(index, site.reject, props); continue; }
      const key = textOf(props.CAPAKEY);
      if (!key) { rejects.add(index, 'CAPAKEY: no parcel identifier', props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const geometry = reprojectGeometry(g, project.fn) as Polygon | MultiPolygon;
      const id = `${brusselsSoilSource.id}:${key}`;
      const attributes = { ...site, category: textOf(props.CATEGORIE) };
      const why = areas.add({ id, layer: BE_SOIL_LAYER, geometry, attributes });
      if (why) { rejects.add(index, why, props); continue; }
      const [lng, lat] = centerOfMass(geometry).geometry.coordinates as [number, number];
      const whyPoint = points.add({ id, latitude: lat, longitude: lng, category: soilCategoryOf(site.type), name: null, attributes });
      if (whyPoint) rejects.add(index, whyPoint, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'be', brusselsSoilSource.id, brusselsSoilSource, input, partition, [...await areas.prepare(), ...await points.prepare()], rejects);
  } catch (e) {
    await rejects.close();
    await areas.abort();
    await points.abort();
    throw e;
  }
}
