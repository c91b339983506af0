import { beSchoolsVlSource } from '../../datasets/be/schools-vl/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import { fileSha256 } from '../core/table-writer.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import type { PointInput } from '../core/kinds/points.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';
import { withLfLines } from '../core/readers/cr-lines.ts';
import { toWgs84 } from '../core/reproject.ts';

/**
 * The Flemish Community's school sites (the onderwijsaanbod list of vestigingsplaatsen, CSV from
 * data-onderwijs.vlaanderen.be: semicolon, double quotes, UTF-8 with a byte-order mark, CR-only
 * line ends, read as they are) -> be/places, partition be.schools-vl, one place per school
 * (`schoolnummer`) and site (`intern_vplnummer`), at `lx`/`ly` (Belgian Lambert 72, EPSG:31370;
 * 0/0 when the ministry has no position: left out and counted). Rows of another kind of
 * institution than `Onderwijsinstelling` (`soort instelling`) are left out. Category from
 * `instellingstype` (values seen in public readings of the list: Basisschool, Autonome lagere
 * school, Autonome kleuterschool, School voor voltijds gewoon secundair onderwijs [en deeltijds
 * beroepsonderwijs], Centrum voor deeltijds onderwijs, Universiteit, Instelling voor deeltijds
 * kunstonderwijs), by the level its words name (`VL_CATEGORY_RULES`); a type naming no level is left
 * out and counted under its name.
 */
export const VL_COLUMNS = {
  school: 'schoolnummer', site: 'intern_vplnummer', name: 'naam', kind: 'soort instelling', type: 'instellingstype', x: 'lx', y: 'ly',
  // Optional: served when present.
  network: 'net', street: 'straat', number: 'huisnummer', box: 'busnummer', postcode: 'postcode', town: 'gemeente', main: 'hoofdzetel', language: 'taalstelsel',
} as const;
const C = VL_COLUMNS;
export const BE_SCHOOLS_VL_PARTITION = 'be.schools-vl';

/**
 * instellingstype -> category, first rule matching its words (lower case). Part-time arts
 * academies are left out, as the FWB's; part-time vocational secondary (Centrum voor deeltijds
 * onderwijs) is secondary, as the FWB's CEFA; adult education is vocational training, as the FWB's
 * promotion sociale.
 */
export const VL_CATEGORY_RULES: readonly [RegExp, PlaceCategory | null][] = [
  [/kunstonderwijs/, null],
  [/universiteit|hogeschool/, 'school.university'],
  [/volwassenenonderwijs/, 'school.training'],
  [/secundair|deeltijds onderwijs/, 'school.high_school'],
  [/basisschool|basisonderwijs|lagere school|lager onderwijs/, 'school.primary'],
  [/kleuterschool|kleuteronderwijs/, 'school.kindergarten'],
];

export function vlCategory(type: string): PlaceCategory | null {
  const t = type.trim().toLowerCase();
  for (const [re, category] of VL_CATEGORY_RULES) if (re.test(t)) return category;
  return null;
}

export function vlRowReader(): (r: Record<string, string>) => RowOutcome {
  const project = toWgs84('EPSG:31370');
  return (r) => {
    const text = (k: string) => (r[k] ?? '').trim() || null;
    const school = (r[C.school] ?? '').trim(), site = (r[C.site] ?? '').trim();
    if (!/^\d+$/.test(school) || !/^\d+$/.test(site)) return { reject: `${C.school} "${school}" / ${C.site} "${site}" is not a school and site number` };
    const kind = (r[C.kind] ?? '').trim();
    if (kind !== 'Onderwijsinstelling') return { skip: `of soort instelling ${kind || '(empty)'}` };
    const type = (r[C.type] ?? '').trim();
    const category = vlCategory(type);
    if (!category) return { skip: `of instellingstype ${type || '(empty)'}` };
    const x = decimal(r[C.x]), y = decimal(r[C.y]);
    if (x === 0 && y === 0) return { skip: 'without a position (lx/ly 0)' };
    if (!Number.isFinite(x) || !Number.isFinite(y)) return { reject: `${C.x}/${C.y} "${r[C.x]}", "${r[C.y]}" is not a Lambert 72 position` };
    const [lng, lat] = project([x, y]);
    // Belgium with a margin: a position outside is a broken row (swapped or another CRS).
    if (!(lat >= 49.4 && lat <= 51.6 && lng >= 2.4 && lng <= 6.5)) return { reject: `${C.x}/${C.y} ${x}, ${y} (Lambert 72) is not in Belgium` };
    const street = [text(C.street), [text(C.number), text(C.box) ? `bus ${text(C.box)}` : null].filter((s) => s).join(' ')].filter((s) => s).join(' ');
    return {
      id: `${beSchoolsVlSource.id}.${school}.${site}`, latitude: lat, longitude: lng, category, name: text(C.name),
      attributes: {
        school_number: school, site_number: site, types: [type], network: text(C.network), main_site: text(C.main) === null ? null : text(C.main) === 'True',
        language: text(C.language), address: [street || null, [text(C.postcode), text(C.town)].filter((s) => s).join(' ')].filter((s) => s).join(', ') || null,
      },
    };
  };
}

/** A site listed twice (lists of several levels put together): one place, primary over kindergarten, the types listed. */
const RANK: PlaceCategory[] = ['school.university', 'school.high_school', 'school.primary', 'school.kindergarten', 'school.training'];
function mergeSite(first: PointInput, next: PointInput): PointInput {
  const types = [...new Set([...(first.attributes?.types as string[]), ...(next.attributes?.types as string[])])];
  const category = RANK.find((c) => c === first.category || c === next.category) ?? first.category;
  return { ...first, category, attributes: { ...first.attributes, types } };
}

export async function ingestBeSchoolsVl(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  // The list ends its lines with a lone CR: read through an LF copy, recorded under the file's own name and hash.
  const lf = await withLfLines(input.path);
  try {
    return await ingestPointsCsv(ctx, { ...input, path: lf.path, sha256: input.sha256 ?? (await fileSha256(input.path)) }, {
      country: 'be', job: 'be.schools-vl', source: beSchoolsVlSource, partition: BE_SCHOOLS_VL_PARTITION, layout: "the Flemish Community's onderwijsaanbod list of vestigingsplaatsen",
      separator: ';', required: [C.school, C.site, C.name, C.kind, C.type, C.x, C.y], row: vlRowReader(), merge: mergeSite,
    });
  } finally {
    await lf.done();
  }
}
