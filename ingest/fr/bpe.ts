import { bpeSource } from '../../datasets/fr/bpe/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import type { PointInput } from '../core/kinds/points.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';
import { toWgs84, type ToWgs84 } from '../core/reproject.ts';
import { FRANCE_BOXES, inBox } from './territory.ts';

/**
 * INSEE's BPE geolocated file -> fr/places (partition fr.bpe). Semicolon CSV, Windows-1252, columns
 * REG;DEP;DEPCOM;DCIRIS;AN;TYPEQU;LAMBERT_X;LAMBERT_Y;QUALITE_XY (INSEE's layout; other columns
 * are ignored). The BPE counts units: the rows of one category at one published position (three
 * doctors of one practice, the short and long stays of one hospital) are one place, with the
 * number of units and their type codes. Rows whose type is outside the taxonomy, or whose position
 * INSEE qualifies "Mauvaise" or does not give ("Non géolocalisé"), are left out and counted.
 */
export const BPE_COLUMNS = ['DEP', 'DEPCOM', 'TYPEQU', 'LAMBERT_X', 'LAMBERT_Y', 'QUALITE_XY'] as const;
export const BPE_PARTITION = 'fr.bpe';

/**
 * TYPEQU -> taxonomy, codes of INSEE's equipment nomenclature. Where INSEE's 2021 revision gave
 * a type a new code (pharmacy D301 -> D307, general practitioner D201 -> D265, hypermarket and
 * supermarket B101/B102 -> B104/B105, bakery B203 -> B207), both are read. A code not listed is left out.
 */
export const BPE_CATEGORIES: Readonly<Record<string, PlaceCategory>> = {
  // Schools: maternelle (and of a scattered inter-communal group, RPI), élémentaire (idem).
  C101: 'school.kindergarten', C102: 'school.kindergarten', C104: 'school.primary', C105: 'school.primary',
  // Collège; lycées général/technologique, professionnel, agricole; their sections (SGT, SEP).
  C201: 'school.high_school', C301: 'school.high_school', C302: 'school.high_school', C303: 'school.high_school', C304: 'school.high_school', C305: 'school.high_school',
  // Higher education outside universities (STS, CPGE, engineering, commerce...) and universities (UFR, institutes, IUT).
  C401: 'school.university', C402: 'school.university', C403: 'school.university', C409: 'school.university',
  C501: 'school.university', C502: 'school.university', C503: 'school.university', C504: 'school.university', C505: 'school.university',
  // Vocational and continuing education: CFA, GRETA, agricultural, health and sport training centres.
  C601: 'school.training', C602: 'school.training', C603: 'school.training', C604: 'school.training', C605: 'school.training', C609: 'school.training',
  // Hospitals: short, medium, long stays, psychiatric, cancer centre, emergency.
  D101: 'health.hospital', D102: 'health.hospital', D103: 'health.hospital', D104: 'health.hospital', D105: 'health.hospital', D106: 'health.hospital',
  D201: 'health.doctor', D265: 'health.doctor',
  D301: 'health.pharmacy', D307: 'health.pharmacy',
  B101: 'shop.supermarket', B102: 'shop.supermarket', B104: 'shop.supermarket', B105: 'shop.supermarket',
  B201: 'shop.convenience', B202: 'shop.convenience',
  B203: 'shop.bakery', B207: 'shop.bakery',
  B204: 'shop.butcher',
};

/** The CRS of a row's coordinates, by its department (INSEE: Lambert-93 mainland, legal UTM overseas). */
export function bpeCrs(dep: string): string {
  switch (dep) {
    case '971': case '972': case '977': case '978': return 'EPSG:5490';
    case '973': return 'EPSG:2972';
    case '974': return 'EPSG:2975';
    case '976': return 'EPSG:4471';
    default: return 'EPSG:2154';
  }
}

const QUALITY_KEPT: Record<string, 'good' | 'acceptable'> = { bonne: 'good', acceptable: 'acceptable' };

export function bpeRowReader(): (r: Record<string, string>) => RowOutcome {
  const projections = new Map<string, ToWgs84>();
  return (r) => {
    const typequ = (r.TYPEQU ?? '').trim();
    const category = BPE_CATEGORIES[typequ];
    if (!category) return { skip: 'of a type outside the taxonomy' };
    const quality = (r.QUALITE_XY ?? '').trim().toLowerCase();
    if (quality === 'mauvaise') return { skip: 'with a position INSEE qualifies "Mauvaise"' };
    if (quality.startsWith('non g')) return { skip: 'not geolocated by INSEE' };
    const kept = QUALITY_KEPT[quality];
    if (!kept) return { reject: `QUALITE_XY "${r.QUALITE_XY}" is none of Bonne, Acceptable, Mauvaise, Non géolocalisé` };
    const dep = (r.DEP ?? '').trim(), depcom = (r.DEPCOM ?? '').trim();
    if (!/^(\d{2}|2[AB]|\d{3})$/.test(dep) || !depcom.startsWith(dep.slice(0, 2))) return { reject: `DEP "${dep}" / DEPCOM "${depcom}" is not a department and one of its communes` };
    const x = decimal(r.LAMBERT_X), y = decimal(r.LAMBERT_Y);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return { reject: 'LAMBERT_X/LAMBERT_Y is not a number' };
    const crs = bpeCrs(dep);
    let project = projections.get(crs);
    if (!project) projections.set(crs, (project = toWgs84(crs)));
    const [lng, lat] = project([x, y]);
    const box = FRANCE_BOXES[crs === 'EPSG:2154' ? 'mainland' : dep] ?? FRANCE_BOXES.mainland!;
    if (!inBox(box, lng, lat)) return { reject: `LAMBERT_X/LAMBERT_Y (${crs}) falls outside department ${dep}` };
    return {
      // Content, never the line: the category at the published position in its commune.
      id: `${bpeSource.id}.${depcom}.${category}.${r.LAMBERT_X!.trim()}.${r.LAMBERT_Y!.trim()}`,
      longitude: lng, latitude: lat, category, name: null,
      attributes: { units: 1, types: [typequ], position_quality: kept, commune_code: depcom, iris: (r.DCIRIS ?? '').trim() || null, year: (r.AN ?? '').trim() || null },
    };
  };
}

/** Rows of one place: units add up, type codes listed once, the poorer position quality kept. */
export function mergeBpeUnits(first: PointInput, next: PointInput): PointInput {
  const a = first.attributes as { units: number; types: string[]; position_quality: string };
  const b = next.attributes as { units: number; types: string[]; position_quality: string };
  return {
    ...first,
    attributes: {
      ...a, units: a.units + b.units, types: [...new Set([...a.types, ...b.types])].sort(),
      position_quality: a.position_quality === 'acceptable' || b.position_quality === 'acceptable' ? 'acceptable' : 'good',
    },
  };
}

export function ingestBpe(ctx: JobContext, input: JobInput, encoding = 'windows-1252'): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country: 'fr', job: 'fr.bpe', source: bpeSource, partition: BPE_PARTITION, layout: "INSEE's BPE geolocated file (REG;DEP;DEPCOM;DCIRIS;AN;TYPEQU;LAMBERT_X;LAMBERT_Y;QUALITE_XY)",
    separator: ';', encoding, required: BPE_COLUMNS, row: bpeRowReader(), merge: mergeBpeUnits,
  });
}
