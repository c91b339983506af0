import { fileProgress } from '../core/progress.ts';
import type { Source } from '../../datasets/source.ts';
import { caAssessmentSource, caFinancialProfileSource, caTaxRatesSource } from '../../datasets/ca/assessment/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * MAMH's municipal files (comma, one row per organisme municipal `cod_geo`, a column per "poste"
 * code of MAMH's financial data), a few postes read from each; one partition per file kind and year:
 * - the richesse foncière uniformisée: the comparative factor of the roll (CSALX02163, the inverse
 *   of its median proportion: a roll value times the factor reads as a market value) ->
 *   `assessment.market_factor`, unit ratio; the fiscal year from the operator (the file does not say it);
 * - the données prévisionnelles non auditées (budget forecasts, `...-SimpleOccurrence.csv`): the
 *   general property tax rate of the residual (residential) category (CPALB01726, per 100 CAD of
 *   assessed value) -> `tax.residential_rate`, unit CAD/100CAD; the fiscal year from the operator;
 * - the profil financier des municipalités locales (`PF-<edition>-<year>.csv`): the standardized
 *   average assessed value of one-dwelling residences (FIALX02009) and per dwelling (FIALX02010)
 *   -> `assessment.average_single_family`, `assessment.average_per_dwelling`, unit CAD; the year
 *   from the file's `an_donnee` of each row, rows of bodies other than local municipalities
 *   (`type_org`) not read.
 * Told apart by their poste columns. A body without a poste (an MRC, an agglomeration) has an
 * empty cell: nothing to serve, not an error.
 */
export const MARKET_FACTOR_INDICATOR = 'assessment.market_factor';
export const MARKET_FACTOR_COLUMN = 'CSALX02163';
export const RESIDENTIAL_TAX_RATE_INDICATOR = 'tax.residential_rate';
export const RESIDENTIAL_TAX_RATE_COLUMN = 'CPALB01726';
export const AVERAGE_SINGLE_FAMILY_INDICATOR = 'assessment.average_single_family';
export const AVERAGE_SINGLE_FAMILY_COLUMN = 'FIALX02009';
export const AVERAGE_PER_DWELLING_INDICATOR = 'assessment.average_per_dwelling';
export const AVERAGE_PER_DWELLING_COLUMN = 'FIALX02010';
/** The `type_org` of the profile's rows that are read. */
export const LOCAL_MUNICIPALITY = 'Municipalité locale';

interface Poste { column: string; indicator: string; unit: string; what: string }
interface PosteFile {
  source: Source; file: string; postes: Poste[];
  /** option: the fiscal year is given by the operator (--year); file: each row's `an_donnee`. */
  year: 'option' | 'file';
  /** Other columns read. */
  columns: string[];
}
const RFU: PosteFile = {
  source: caAssessmentSource, file: "MAMH's richesse foncière uniformisée by municipal body (comma-separated)", year: 'option', columns: [],
  postes: [{ column: MARKET_FACTOR_COLUMN, indicator: MARKET_FACTOR_INDICATOR, unit: 'ratio', what: 'factor' }],
};
const FORECAST: PosteFile = {
  source: caTaxRatesSource, file: "MAMH's données prévisionnelles by municipal body (comma-separated)", year: 'option', columns: [],
  postes: [{ column: RESIDENTIAL_TAX_RATE_COLUMN, indicator: RESIDENTIAL_TAX_RATE_INDICATOR, unit: 'CAD/100CAD', what: 'tax rate' }],
};
const PROFILE: PosteFile = {
  source: caFinancialProfileSource, file: "MAMH's profil financier des municipalités locales (comma-separated)", year: 'file', columns: ['an_donnee', 'type_org'],
  postes: [
    { column: AVERAGE_SINGLE_FAMILY_COLUMN, indicator: AVERAGE_SINGLE_FAMILY_INDICATOR, unit: 'CAD', what: 'average value' },
    { column: AVERAGE_PER_DWELLING_COLUMN, indicator: AVERAGE_PER_DWELLING_INDICATOR, unit: 'CAD', what: 'average value' },
  ],
};

export interface CaAssessmentInput extends JobInput {
  /** The fiscal year of the RFU and the données prévisionnelles (their files do not say it); for the profile, only rows of this `an_donnee` are taken when given. */
  year?: number | null;
}

function kindOf(header: readonly string[]): PosteFile {
  if (header.includes(AVERAGE_SINGLE_FAMILY_COLUMN) || header.includes(AVERAGE_PER_DWELLING_COLUMN)) return PROFILE;
  return header.includes(RESIDENTIAL_TAX_RATE_COLUMN) ? FORECAST : RFU;
}

export async function ingestCaAssessment(ctx: JobContext, input: CaAssessmentInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ',' });
  const kind = kindOf(header);
  requireColumns(header, ['cod_geo', ...kind.columns, ...kind.postes.map((p) => p.column)], kind.file);
  const given = input.year ?? null;
  if (kind.year === 'option' && given === null) throw new Error(`${kind.file}: the file does not say its fiscal year; give it with --year`);
  return runZoneValuesJob(ctx, {
    country: 'ca', job: 'ca.assessment', source: kind.source, input,
    rejectsPartition: kind.year === 'option' ? `${kind.source.id}.${given}` : kind.source.id,
  }, async ({ rejects, writer: writerOf }) => {
    // The operator's year names the partition before any row: a file without a value still replaces the year's.
    if (kind.year === 'option') await writerOf(`${kind.source.id}.${given}`);
    let total = 0;
    let otherBodies = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ',', progress: fileProgress(ctx, 'ca.assessment', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.cod_geo ?? '').trim();
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `cod_geo ${JSON.stringify(code)} is not a 5-digit municipality code`, record); continue; }
      let year = given;
      if (kind.year === 'file') {
        // The profile's rows of other bodies (agglomerations) are not a municipality's figures.
        if ((record.type_org ?? '').trim() !== LOCAL_MUNICIPALITY) { otherBodies++; continue; }
        const cell = (record.an_donnee ?? '').trim();
        if (!/^(19|20)\d\d$/.test(cell)) { rejects.add(line, `an_donnee ${JSON.stringify(cell)} is not a year`, record); continue; }
        if (given !== null && Number(cell) !== given) { rejects.add(line, `an_donnee ${cell} is not the year ${given} asked with --year`, record); continue; }
        year = Number(cell);
      }
      const values: { poste: Poste; value: number }[] = [];
      let bad: string | null = null;
      for (const poste of kind.postes) {
        const cell = (record[poste.column] ?? '').trim();
        if (cell === '') continue;
        const value = Number(cell.replace(',', '.'));
        if (!Number.isFinite(value) || value <= 0) { bad = `${poste.column} ${JSON.stringify(cell)} is not a positive ${poste.what}`; break; }
        values.push({ poste, value });
      }
      if (bad) { rejects.add(line, bad, record); continue; }
      if (values.length === 0) continue;
      const writer = await writerOf(`${kind.source.id}.${year}`);
      for (const { poste, value } of values) {
        const why = writer.add({
          level: 'locality', code, indicator: poste.indicator, breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
          value, unit: poste.unit, reliability: 'high',
        });
        if (why) { rejects.add(line, why, record); break; }
      }
    }
    if (otherBodies > 0) ctx.log(`ca.assessment: ${otherBodies} rows of bodies other than a ${LOCAL_MUNICIPALITY} (type_org) not read`);
    return total;
  });
}
