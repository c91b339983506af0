import { fileProgress } from '../core/progress.ts';
import { statbelIncomeSource } from '../../datasets/be/statbel-income/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * Statbel's fiscal income by municipality (TF_PSNL_INC_TAX_MUNTY.txt: pipe-separated, UTF-8 with
 * a BOM, one row per income year and municipality). The file publishes totals, not medians: the
 * service computes the mean net taxable income per tax return, a measure of its own name
 * (spec 2.5: a mean per return is not the median per return Statbel publishes by sector).
 * One partition per income year, named from the rows: a later file covering the same years replaces them.
 */
export const STATBEL_INCOME_INDICATOR = 'income.taxable_mean_per_return';
const COLUMNS = ['CD_YEAR', 'CD_MUNTY_REFNIS', 'MS_NBR_NON_ZERO_INC', 'MS_NBR_ZERO_INC', 'MS_TOT_NET_TAXABLE_INC'] as const;

export interface StatbelIncomeInput extends JobInput { publishedOn?: string | null }

export async function ingestStatbelIncome(ctx: JobContext, input: StatbelIncomeInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: '|' });
  requireColumns(header, COLUMNS, 'a Statbel fiscal income file by municipality (TF_PSNL_INC_TAX_MUNTY)');
  // One partition per income year, all written before any is published: a failure publishes nothing.
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.statbel-income', source: statbelIncomeSource, input, rejectsPartition: statbelIncomeSource.id }, async ({ rejects, writer: writerOf }) => {
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: '|', progress: fileProgress(ctx, 'be.statbel-income', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const year = Number(record.CD_YEAR);
      const code = (record.CD_MUNTY_REFNIS ?? '').trim();
      if (!/^\d{4}$/.test(record.CD_YEAR ?? '')) { rejects.add(line, `CD_YEAR ${JSON.stringify(record.CD_YEAR)} is not a year`, record); continue; }
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `CD_MUNTY_REFNIS ${JSON.stringify(code)} is not a 5-digit NIS code`, record); continue; }
      const withIncome = Number(record.MS_NBR_NON_ZERO_INC), withoutIncome = Number(record.MS_NBR_ZERO_INC), amount = Number(record.MS_TOT_NET_TAXABLE_INC);
      if (![withIncome, withoutIncome, amount].every(Number.isFinite) || record.MS_TOT_NET_TAXABLE_INC?.trim() === '') { rejects.add(line, 'returns or total net taxable income is not a number', record); continue; }
      const returns = withIncome + withoutIncome;
      if (returns <= 0) { rejects.add(line, 'no tax return in the municipality', record); continue; }
      const why = (await writerOf(`${statbelIncomeSource.id}.${year}`)).add({
        level: 'locality', code, indicator: STATBEL_INCOME_INDICATOR, breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
        value: Math.round((amount / returns) * 100) / 100, unit: 'EUR/year', sample_size: returns,
        // Every return of the municipality is counted (an exhaustive administrative source, not a survey).
        reliability: 'high', published_on: input.publishedOn ?? null,
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
