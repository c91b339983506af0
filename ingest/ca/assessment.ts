import { fileProgress } from '../core/progress.ts';
import type { Source } from '../../datasets/source.ts';
import { caAssessmentSource, caTaxRatesSource } from '../../datasets/ca/assessment/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * MAMH's municipal files (comma, one row per organisme municipal `cod_geo`, a column per "poste"
 * code of MAMH's financial data), one poste read from each, for the fiscal year the operator gives
 * (the files do not say it); one partition per file kind and fiscal year:
 * - the richesse foncière uniformisée: the comparative factor of the roll (CSALX02163, the inverse
 *   of its median proportion: a roll value times the factor reads as a market value) ->
 *   `assessment.market_factor`, unit ratio;
 * - the données prévisionnelles non auditées (budget forecasts, `...-SimpleOccurrence.csv`): the
 *   general property tax rate of the residual (residential) category (CPALB01726, per 100 CAD of
 *   assessed value) -> `tax.residential_rate`, unit CAD/100CAD.
 * Told apart by their poste column. A body without the poste (an MRC, an agglomeration) has an
 * empty cell: nothing to serve, not an error.
 */
export const MARKET_FACTOR_INDICATOR = 'assessment.market_factor';
export const MARKET_FACTOR_COLUMN = 'CSALX02163';
export const RESIDENTIAL_TAX_RATE_INDICATOR = 'tax.residential_rate';
export const RESIDENTIAL_TAX_RATE_COLUMN = 'CPALB01726';

interface PosteFile { source: Source; column: string; indicator: string; unit: string; file: string; what: string }
const RFU: PosteFile = { source: caAssessmentSource, column: MARKET_FACTOR_COLUMN, indicator: MARKET_FACTOR_INDICATOR, unit: 'ratio', file: "MAMH's richesse foncière uniformisée by municipal body (comma-separated)", what: 'factor' };
const FORECAST: PosteFile = { source: caTaxRatesSource, column: RESIDENTIAL_TAX_RATE_COLUMN, indicator: RESIDENTIAL_TAX_RATE_INDICATOR, unit: 'CAD/100CAD', file: "MAMH's données prévisionnelles by municipal body (comma-separated)", what: 'tax rate' };

export interface CaAssessmentInput extends JobInput { year: number; publishedOn?: string | null }

export async function ingestCaAssessment(ctx: JobContext, input: CaAssessmentInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ',' });
  const kind = header.includes(FORECAST.column) ? FORECAST : RFU;
  requireColumns(header, ['cod_geo', kind.column], kind.file);
  const partition = `${kind.source.id}.${input.year}`;
  return runZoneValuesJob(ctx, { country: 'ca', job: 'ca.assessment', source: kind.source, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ',', progress: fileProgress(ctx, 'ca.assessment', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.cod_geo ?? '').trim();
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `cod_geo ${JSON.stringify(code)} is not a 5-digit municipality code`, record); continue; }
      const cell = (record[kind.column] ?? '').trim();
      if (cell === '') continue;
      const value = Number(cell.replace(',', '.'));
      if (!Number.isFinite(value) || value <= 0) { rejects.add(line, `${kind.column} ${JSON.stringify(cell)} is not a positive ${kind.what}`, record); continue; }
      const why = writer.add({
        level: 'locality', code, indicator: kind.indicator, breakdown: null, period_start: `${input.year}-01-01`, period_end: `${input.year}-12-31`,
        value, unit: kind.unit, reliability: 'high', published_on: input.publishedOn ?? null,
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
