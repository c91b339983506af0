import { statbelPricesSource } from '../../datasets/be/statbel-prices/source.ts';
import { reliabilityOf } from '../../schemas/tables/market-indicators.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * Statbel's real-estate sales by municipality as published (pipe-separated, UTF-8 with a BOM,
 * one row per year, property type, REFNIS zone and period): the median sale price of the year
 * (CD_PERIOD Y) of apartments and of all houses, per municipality (CD_niveau_refnis 5), into
 * be/zone_values as `price.sale_median` with the quartiles as range and the sales as sample size.
 * Semesters, quarters, wider zones and the other types (houses by number of facades, building
 * land) are read and left: spec 2.9 serves the municipality's year. One partition per year.
 */
export const STATBEL_PRICE_INDICATOR = 'price.sale_median';
const COLUMNS = ['CD_YEAR', 'CD_TYPE_NL', 'CD_REFNIS', 'CD_PERIOD', 'MS_TOTAL_TRANSACTIONS', 'MS_P_25', 'MS_P_50_median', 'MS_P_75', 'CD_niveau_refnis'] as const;

/** The service's property type of a Statbel type, from its Dutch label (the French one is a translation of it). */
export function priceTypeOf(typeNl: string): 'apartment' | 'house' | null {
  const t = typeNl.trim();
  if (/^Appartementen\b/i.test(t)) return 'apartment';
  if (/^Alle huizen\b/i.test(t)) return 'house';
  return null;
}

/** Statbel writes whole euros; an empty cell is a price withheld (too few sales). */
function amount(v: string | undefined): number | null | 'bad' {
  const t = (v ?? '').trim();
  if (t === '') return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 ? n : 'bad';
}

export interface StatbelPricesInput extends JobInput { publishedOn?: string | null }

export async function ingestStatbelPrices(ctx: JobContext, input: StatbelPricesInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: '|' });
  requireColumns(header, COLUMNS, "Statbel's real-estate sales by municipality (pipe-separated)");
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.statbel-prices', source: statbelPricesSource, input, rejectsPartition: statbelPricesSource.id }, async ({ rejects, writer: writerOf }) => {
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: '|' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      if ((record.CD_PERIOD ?? '').trim() !== 'Y' || (record.CD_niveau_refnis ?? '').trim() !== '5') continue;
      const type = priceTypeOf(record.CD_TYPE_NL ?? '');
      if (!type) continue;
      if (!/^\d{4}$/.test((record.CD_YEAR ?? '').trim())) { rejects.add(line, `CD_YEAR ${JSON.stringify(record.CD_YEAR)} is not a year`, record); continue; }
      const code = (record.CD_REFNIS ?? '').trim();
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `CD_REFNIS ${JSON.stringify(code)} is not a 5-digit NIS code`, record); continue; }
      const n = Number((record.MS_TOTAL_TRANSACTIONS ?? '').trim());
      if (!Number.isInteger(n) || n < 0 || (record.MS_TOTAL_TRANSACTIONS ?? '').trim() === '') { rejects.add(line, `MS_TOTAL_TRANSACTIONS ${JSON.stringify(record.MS_TOTAL_TRANSACTIONS)} is not a count`, record); continue; }
      const [p25, p50, p75] = [amount(record.MS_P_25), amount(record.MS_P_50_median), amount(record.MS_P_75)];
      if (p25 === 'bad' || p50 === 'bad' || p75 === 'bad') { rejects.add(line, 'a price quartile is not a number', record); continue; }
      const year = Number(record.CD_YEAR);
      const why = (await writerOf(`${statbelPricesSource.id}.${year}`)).add({
        level: 'locality', code, indicator: STATBEL_PRICE_INDICATOR, breakdown: type, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
        value: p50, suppressed: p50 === null, unit: 'EUR', sample_size: n,
        range_low: p25 !== null && p75 !== null ? p25 : null, range_high: p25 !== null && p75 !== null ? p75 : null,
        // Statbel publishes no quality code: the same thresholds on the number of sales as France's medians.
        reliability: reliabilityOf(n) ?? 'low', published_on: input.publishedOn ?? null,
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
