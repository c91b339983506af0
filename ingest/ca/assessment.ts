import { caAssessmentSource } from '../../datasets/ca/assessment/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * MAMH's richesse foncière uniformisée by municipal body (comma, one row per organisme municipal,
 * a column per poste code): the comparative factor of the roll (CSALX02163, the inverse of its
 * median proportion: a roll value times the factor reads as a market value) per municipality into
 * ca/zone_values as `assessment.market_factor`, unit ratio, for the fiscal year. The file does not
 * say its year: the operator gives it. One partition per fiscal year.
 */
export const MARKET_FACTOR_INDICATOR = 'assessment.market_factor';
export const MARKET_FACTOR_COLUMN = 'CSALX02163';
const COLUMNS = ['cod_geo', MARKET_FACTOR_COLUMN] as const;

export interface CaAssessmentInput extends JobInput { year: number; publishedOn?: string | null }

export async function ingestCaAssessment(ctx: JobContext, input: CaAssessmentInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ',' });
  requireColumns(header, COLUMNS, "MAMH's richesse foncière uniformisée by municipal body (comma-separated)");
  const partition = `${caAssessmentSource.id}.${input.year}`;
  return runZoneValuesJob(ctx, { country: 'ca', job: 'ca.assessment', source: caAssessmentSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ',' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.cod_geo ?? '').trim();
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `cod_geo ${JSON.stringify(code)} is not a 5-digit municipality code`, record); continue; }
      const cell = (record[MARKET_FACTOR_COLUMN] ?? '').trim();
      // A body without a roll of its own (an MRC, an agglomeration) publishes no factor: nothing to serve, not an error.
      if (cell === '') continue;
      const factor = Number(cell.replace(',', '.'));
      if (!Number.isFinite(factor) || factor <= 0) { rejects.add(line, `${MARKET_FACTOR_COLUMN} ${JSON.stringify(cell)} is not a positive factor`, record); continue; }
      const why = writer.add({
        level: 'locality', code, indicator: MARKET_FACTOR_INDICATOR, breakdown: null, period_start: `${input.year}-01-01`, period_end: `${input.year}-12-31`,
        value: factor, unit: 'ratio', reliability: 'high', published_on: input.publishedOn ?? null,
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
