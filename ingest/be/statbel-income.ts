import { fileProgress } from '../core/progress.ts';
import { statbelIncomeSectorsSource, statbelIncomeSource } from '../../datasets/be/statbel-income/source.ts';
import { reliabilityOf } from '../../schemas/tables/market-indicators.ts';
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

export type StatbelIncomeInput = JobInput

/** Reads either of Statbel's files, told apart by the header: by statistical sector (CD_SECTOR, CD_REFNIS_SECTOR in older files) or by municipality. */
export async function ingestStatbelIncome(ctx: JobContext, input: StatbelIncomeInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: '|' });
  if (SECTOR_CODES.some((c) => header.includes(c))) return ingestStatbelIncomeSectors(ctx, input, header);
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
        reliability: 'high',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}

/**
 * Statbel's fiscal income by statistical sector (TF_PSNL_INC_TAX_SECTOR.txt, the text file of
 * Statbel's zip: pipe-separated, UTF-8 with a BOM, one row per income year and sector): the median
 * net taxable income per return Statbel publishes (MS_MEDIAN_NET_TAXABLE_INC), at the sector
 * (sublocality_level2), as `income.taxable_median`, with the returns with a non-zero income as
 * sample size. Statbel withholds the figures of small sectors (`C`, also `.` or empty): kept as
 * withheld, never 0. The interquartile figures are not served (no quartile is published as such).
 * One partition per income year.
 */
export const STATBEL_INCOME_MEDIAN_INDICATOR = 'income.taxable_median';
/** The sector's code column: CD_SECTOR in the files published since 2019, CD_REFNIS_SECTOR before. */
const SECTOR_CODES = ['CD_SECTOR', 'CD_REFNIS_SECTOR'] as const;
const SECTOR_COLUMNS = ['CD_YEAR', 'MS_NBR_NON_ZERO_INC', 'MS_MEDIAN_NET_TAXABLE_INC'] as const;
const WITHHELD = new Set(['', 'C', '.']);

async function ingestStatbelIncomeSectors(ctx: JobContext, input: StatbelIncomeInput, header: string[]): Promise<PartitionSummary[]> {
  const codeColumn = SECTOR_CODES.find((c) => header.includes(c))!;
  requireColumns(header, SECTOR_COLUMNS, 'a Statbel fiscal income file by statistical sector (TF_PSNL_INC_TAX_SECTOR)');
  const source = statbelIncomeSectorsSource;
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.statbel-income', source, input, rejectsPartition: source.id }, async ({ rejects, writer }) => {
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: '|', progress: fileProgress(ctx, 'be.statbel-income', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const yearCell = (record.CD_YEAR ?? '').trim();
      if (!/^\d{4}$/.test(yearCell)) { rejects.add(line, `CD_YEAR ${JSON.stringify(record.CD_YEAR)} is not a year`, record); continue; }
      const code = (record[codeColumn] ?? '').trim();
      // A 5-digit REFNIS code would be a row of the whole municipality (not seen in the layouts read by public code): its median, at the municipality.
      const level = /^\d{5}[0-9A-Z]{3}[-0-9A-Z]$/.test(code) ? 'sublocality_level2' : /^\d{5}$/.test(code) ? 'locality' : null;
      if (!level) { rejects.add(line, `${codeColumn} ${JSON.stringify(code)} is not a 9-character statistical sector code`, record); continue; }
      const nCell = (record.MS_NBR_NON_ZERO_INC ?? '').trim();
      const medianCell = (record.MS_MEDIAN_NET_TAXABLE_INC ?? '').trim();
      const n = WITHHELD.has(nCell) ? null : /^\d+$/.test(nCell) ? Number(nCell) : NaN;
      if (Number.isNaN(n)) { rejects.add(line, `MS_NBR_NON_ZERO_INC ${JSON.stringify(record.MS_NBR_NON_ZERO_INC)} is not a count`, record); continue; }
      const median = WITHHELD.has(medianCell) ? null : Number(medianCell);
      if (median !== null && !(Number.isFinite(median) && median >= 0)) { rejects.add(line, `MS_MEDIAN_NET_TAXABLE_INC ${JSON.stringify(record.MS_MEDIAN_NET_TAXABLE_INC)} is not an amount`, record); continue; }
      const year = Number(yearCell);
      const why = (await writer(`${source.id}.${year}`)).add({
        level, code, indicator: STATBEL_INCOME_MEDIAN_INDICATOR, breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
        value: median, suppressed: median === null, unit: 'EUR/year', sample_size: n,
        // Statbel publishes no quality code: the thresholds on the number of returns of the service's other medians.
        reliability: n === null ? 'low' : reliabilityOf(n) ?? 'low',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
