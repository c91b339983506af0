import { fileProgress } from '../core/progress.ts';
import { caSchoolsSource } from '../../datasets/ca/schools/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { decimal, pointsCsvSummary } from '../core/points-csv.ts';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { toWgs84, type ToWgs84 } from '../core/reproject.ts';

/**
 * The Ministère de l'Éducation's public schools layer (pps_public_ecole.geojson, or the layer
 * PPS_Public_Ecole of a zip or folder) -> ca/places, partition ca.schools, id COMBINE_NUO_NUI (a school
 * in one of its buildings). Category from the levels taught in the building: PRIM primary, else SEC
 * secondary, else PRESC kindergarten, else FORM_PRO/ADULTE vocational and adult training.
 */
export const CA_SCHOOLS_PARTITION = 'ca.schools';
const REQUIRED = ['COMBINE_NUO_NUI', 'NOM_OFFCL_ORGNS', 'PRESC', 'PRIM', 'SEC', 'FORM_PRO', 'ADULTE'] as const;

export function caSchoolCategory(p: Record<string, unknown>): PlaceCategory | null {
  const on = (k: string) => String(p[k] ?? '').trim() === '1';
  if (on('PRIM')) return 'school.primary';
  if (on('SEC')) return 'school.high_school';
  if (on('PRESC')) return 'school.kindergarten';
  if (on('FORM_PRO') || on('ADULTE')) return 'school.training';
  return null;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

export async function ingestCaSchools(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const rejects = new Rejects(ctx.dataDir, 'ca', 'places', CA_SCHOOLS_PARTITION, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'ca', 'places', CA_SCHOOLS_PARTITION, caSchoolsSource.id);
  const skipped = new Map<string, number>();
  const projections = new Map<string | null, ToWgs84>();
  let total = 0;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { layer: 'PPS_Public_Ecole', progress: fileProgress(ctx, 'ca.schools', input.path) })) {
      const p = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 0) {
        const missing = REQUIRED.filter((k) => !(k in p));
        if (missing.length > 0) throw new Error(`${input.path} is not the Ministère de l'Éducation's PPS_Public_Ecole layer: missing the properties ${missing.join(', ')} (found ${Object.keys(p).slice(0, 10).join(', ')})`);
      }
      total++;
      const category = caSchoolCategory(p);
      if (!category) { skipped.set('teaching none of the levels', (skipped.get('teaching none of the levels') ?? 0) + 1); continue; }
      let lng: number, lat: number;
      if (feature.geometry?.type === 'Point') {
        let project = projections.get(crs);
        if (!project) projections.set(crs, (project = toWgs84(crs)));
        [lng, lat] = project(feature.geometry.coordinates as [number, number]);
      } else {
        lng = decimal(str(p.COORD_X_LL84_IMM)); lat = decimal(str(p.COORD_Y_LL84_IMM));
      }
      // Quebec with a margin: a position outside is a broken feature (swapped or unprojected coordinates).
      if (!(lng >= -80 && lng <= -57 && lat >= 44.9 && lat <= 63)) { rejects.add(index, `the position ${lng}, ${lat} is not in Quebec`, p); continue; }
      const id = str(p.COMBINE_NUO_NUI);
      if (id === '') { rejects.add(index, 'COMBINE_NUO_NUI is empty', p); continue; }
      const town = [str(p.NOM_MUNCP_GDUNO_IMM), str(p.CD_POSTL_GDUNO_IMM)].filter((s) => s).join(' ');
      const why = writer.add({
        id: `${caSchoolsSource.id}.${id}`, longitude: lng, latitude: lat, category, name: str(p.NOM_OFFCL_ORGNS) || null,
        attributes: {
          address: [str(p.ADRS_GEO_L1_GDUNO_IMM), town].filter((s) => s).join(', ') || null, school_code: str(p.CD_ORGNS) || null,
          building: str(p.NOM_IMM) || null, levels: str(p.ORDRE_ENS) || null, service_centre: str(p.CD_CS) || null, language: str(p.TYPE_CS) || null,
        },
      });
      if (why) rejects.add(index, why, p);
    }
    if (total === 0) throw new Error(`${input.path} holds no feature: not the PPS_Public_Ecole layer`);
    rejects.check(total);
    await rejects.close();
    const out = await publish(ctx, 'ca', 'ca.schools', caSchoolsSource, input, CA_SCHOOLS_PARTITION, await writer.prepare(), rejects);
    ctx.log(pointsCsvSummary('ca.schools', total, writer.count, rejects.count, skipped));
    return out;
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
