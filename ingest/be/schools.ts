import { beSchoolsFwbSource } from '../../datasets/be/schools/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';
import type { PointInput } from '../core/kinds/points.ts';

/**
 * The Fédération Wallonie-Bruxelles's school sites (ODWB's signaletique-fase, CSV export with field
 * names, semicolon, UTF-8, `geolocalisation` a "lat, lon" geo point) -> be/places, partition
 * be.schools-fwb. The file has one row per site (FASE number of the implantation) and type of
 * teaching; one place per site and stage: fundamental (a primary school when it teaches primary,
 * else a kindergarten, as fr.schools), secondary (ordinary, special, CEFA), adult education
 * (promotion sociale), higher education (universities, hautes écoles, écoles supérieures des arts).
 * Left out and counted: part-time arts academies (artistique à horaire réduit), unknown types, rows
 * without a position.
 */
export const FWB_COLUMNS = {
  site: 'ndeg_fase_de_l_implantation', school: 'ndeg_fase_de_l_etablissement', name: 'nom_de_l_etablissement', type: 'type_d_enseignement', position: 'geolocalisation',
  // Optional: served when present.
  network: 'reseau', address: 'adresse_de_l_implantation', postcode: 'code_postal_de_l_implantation', commune: 'commune_de_l_implantation',
} as const;
const C = FWB_COLUMNS;
export const BE_SCHOOLS_FWB_PARTITION = 'be.schools-fwb';

/** type_d_enseignement -> the site's stage and its category (null: not a school place). */
export function fwbStage(type: string): { stage: string; category: PlaceCategory } | null {
  const t = type.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (t.startsWith('maternel')) return { stage: 'fondamental', category: 'school.kindergarten' };
  if (t.startsWith('primaire')) return { stage: 'fondamental', category: 'school.primary' };
  if (t.startsWith('secondaire')) return { stage: 'secondaire', category: 'school.high_school' };
  if (t.startsWith('promotion sociale')) return { stage: 'promotion-sociale', category: 'school.training' };
  if (t === 'universite' || t === 'haute ecole' || t === 'ecole superieure des arts') return { stage: 'superieur', category: 'school.university' };
  return null;
}

export function fwbRow(r: Record<string, string>): RowOutcome {
  const site = (r[C.site] ?? '').trim();
  if (!/^\d+$/.test(site)) return { reject: `${C.site} "${site}" is not a FASE number` };
  const stage = fwbStage(r[C.type] ?? '');
  if (!stage) return { skip: `of type ${(r[C.type] ?? '').trim() || '(empty)'}` };
  const pos = (r[C.position] ?? '').trim();
  if (pos === '') return { skip: 'without a position' };
  const m = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(pos);
  // Belgium with a margin: a position outside is a broken row (swapped or unprojected).
  const lat = Number(m?.[1]), lng = Number(m?.[2]);
  if (!m || !(lat >= 49.4 && lat <= 51.6 && lng >= 2.4 && lng <= 6.5)) return { reject: `${C.position} "${pos}" is not "lat, lon" in Belgium` };
  const text = (k: string) => (r[k] ?? '').trim() || null;
  return {
    id: `${beSchoolsFwbSource.id}.${site}.${stage.stage}`, latitude: lat, longitude: lng, category: stage.category, name: text(C.name),
    attributes: {
      fase_site: site, fase_school: text(C.school), network: text(C.network), types: [(r[C.type] ?? '').trim()],
      address: [text(C.address), [text(C.postcode), text(C.commune)].filter((s) => s).join(' ')].filter((s) => s).join(', ') || null,
    },
  };
}

/** Two rows of one site and stage: primary wins over kindergarten; the types taught are listed. */
function mergeStage(first: PointInput, next: PointInput): PointInput {
  const types = [...new Set([...(first.attributes?.types as string[]), ...(next.attributes?.types as string[])])];
  const category = [first.category, next.category].includes('school.primary') ? 'school.primary' : first.category;
  return { ...first, category, attributes: { ...first.attributes, types } };
}

export function ingestBeSchools(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country: 'be', job: 'be.schools', source: beSchoolsFwbSource, partition: BE_SCHOOLS_FWB_PARTITION, layout: "the Fédération Wallonie-Bruxelles's signaletique-fase export (field names)",
    separator: ';', required: [C.site, C.name, C.type, C.position], row: fwbRow, merge: mergeStage,
  });
}
