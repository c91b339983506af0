import { fileProgress } from '../core/progress.ts';
import { censusSource } from '../../datasets/fr/census/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * INSEE census by IRIS, the "bases infracommunales" as published (semicolon, a header
 * `IRIS;COM;TYP_IRIS;LAB_IRIS;P19_...`, weighted counts with decimals):
 * - base-ic-logement-<year>: dwellings (P_LOG), houses (P_MAISON), main residences (P_RP), of
 *   which owner-occupied (P_RP_PROP) and social housing rented unfurnished (P_RP_LOCHLMV);
 * - base-ic-couples-familles-menages-<year>: households (C_MEN, complementary exploitation).
 * The edition is read from the variables' prefix (P19_LOG is the 2019 census), never from the file
 * name; each file kind is a partition of its own (`fr.census.2019.housing`, `fr.census.2019.households`).
 */
export const CENSUS_INDICATORS = {
  dwellings: 'housing.dwellings',
  housesShare: 'housing.houses_share',
  ownersShare: 'housing.owners_share',
  socialShare: 'housing.social_housing_share',
  households: 'households.count',
} as const;

/**
 * INSEE advises against using counts under 200 where the census is a sample (communes of 10,000
 * inhabitants or more): a count, or a share whose denominator, is under 200 is served with
 * reliability low; otherwise high. The file does not say which communes are sampled.
 */
export const CENSUS_RELIABLE_COUNT = 200;

const IDENTIFICATION = ['IRIS', 'COM', 'TYP_IRIS'] as const;
const HOUSING = ['LOG', 'MAISON', 'RP', 'RP_PROP', 'RP_LOCHLMV'] as const;

export type CensusKind = 'housing' | 'households';

/** The file's kind and edition from its header, or why it is not a census file by IRIS. */
export function censusLayout(header: readonly string[]): { kind: CensusKind; yy: string; columns: string[] } {
  const missingId = IDENTIFICATION.filter((c) => !header.includes(c));
  const log = header.find((c) => /^P\d{2}_LOG$/.test(c));
  const men = header.find((c) => /^C\d{2}_MEN$/.test(c));
  if (missingId.length > 0 || (!log && !men)) {
    const wanted = [...missingId, ...(!log && !men ? ['P<yy>_LOG (housing file) or C<yy>_MEN (households file)'] : [])];
    throw new Error(`not an INSEE census file by IRIS (base-ic-logement or base-ic-couples-familles-menages): missing columns ${wanted.join(', ')}; found ${header.slice(0, 8).join(', ')}${header.length > 8 ? ', ...' : ''}`);
  }
  if (log) {
    const yy = log.slice(1, 3);
    const columns = HOUSING.map((c) => `P${yy}_${c}`);
    requireColumns(header, columns, `a complete census housing file by IRIS (edition 20${yy})`);
    return { kind: 'housing', yy, columns };
  }
  return { kind: 'households', yy: men!.slice(1, 3), columns: [men!] };
}

/** A weighted count as INSEE writes it (a decimal point; a comma accepted): null for an empty cell. */
function num(v: string | undefined): number | null | 'bad' {
  const t = (v ?? '').trim();
  if (t === '') return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 ? n : 'bad';
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const reliabilityOf = (base: number) => (base >= CENSUS_RELIABLE_COUNT ? 'high' : 'low') as 'high' | 'low';

/**
 * The zone values of one row: counts rounded to the unit (INSEE's weighted counts are estimates),
 * shares in % to one decimal. A share over no dwelling is not a value: not written. An empty cell
 * is withheld: suppressed, never zero.
 */
export function censusValues(kind: CensusKind, values: Record<string, number | null>): { indicator: string; unit: 'count' | '%'; value: number | null; base: number | null }[] {
  const count = (indicator: string, v: number | null) => ({ indicator, unit: 'count' as const, value: v === null ? null : Math.round(v), base: v });
  if (kind === 'households') return [count(CENSUS_INDICATORS.households, values.MEN!)];
  const share = (indicator: string, part: number | null, whole: number | null) =>
    whole === 0 ? null : { indicator, unit: '%' as const, value: part === null || whole === null ? null : round1((100 * part) / whole), base: whole };
  return [
    count(CENSUS_INDICATORS.dwellings, values.LOG!),
    share(CENSUS_INDICATORS.housesShare, values.MAISON!, values.LOG!),
    share(CENSUS_INDICATORS.ownersShare, values.RP_PROP!, values.RP!),
    share(CENSUS_INDICATORS.socialShare, values.RP_LOCHLMV!, values.RP!),
  ].filter((v): v is NonNullable<typeof v> => v !== null);
}

export type CensusInput = JobInput;

export async function ingestCensus(ctx: JobContext, input: CensusInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const { kind, yy, columns } = censusLayout(header);
  const year = 2000 + Number(yy);
  // The census describes 1 January of its year (the middle of its five collection years).
  const period = { period_start: `${year}-01-01`, period_end: `${year}-01-01` };
  const partition = `${censusSource.id}.${year}.${kind}`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.census', source: censusSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.census', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.IRIS ?? '').trim();
      const com = (record.COM ?? '').trim();
      // 9 characters: commune (5, 2A/2B in Corsica) + IRIS number (4); "0000" for a commune not divided into IRIS.
      if (!/^[0-9][0-9AB][0-9]{7}$/.test(code)) { rejects.add(line, `IRIS code ${JSON.stringify(code)} is not 9 characters`, record); continue; }
      if (!code.startsWith(com)) { rejects.add(line, `IRIS ${code} is not in the commune COM ${JSON.stringify(com)}`, record); continue; }
      const parsed: Record<string, number | null> = {};
      let bad: string | null = null;
      for (const c of columns) {
        const v = num(record[c]);
        if (v === 'bad') { bad = c; break; }
        parsed[c.slice(4)] = v;
      }
      if (bad) { rejects.add(line, `${bad} ${JSON.stringify(record[bad])} is not a count`, record); continue; }
      for (const v of censusValues(kind, parsed)) {
        const row: ZoneValueInput = {
          level: 'sublocality_level2', code, indicator: v.indicator, breakdown: null, ...period, unit: v.unit,
          value: v.value, suppressed: v.value === null, reliability: v.base === null ? null : reliabilityOf(v.base),
        };
        const why = writer.add(row);
        if (why) { rejects.add(line, why, record); break; }
      }
    }
    return total;
  });
}
