import { fileProgress } from '../core/progress.ts';
import { statbelPriceSectorsSource, statbelPricesSource } from '../../datasets/be/statbel-prices/source.ts';
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

export interface StatbelPricesInput extends JobInput { encoding?: string }

/** Reads either of Statbel's files, told apart by the header: by statistical sector (CD_STAT_SECTOR) or by municipality. */
export async function ingestStatbelPrices(ctx: JobContext, input: StatbelPricesInput): Promise<PartitionSummary[]> {
  if ((await readCsvHeader(input.path, { encoding: input.encoding })).includes('CD_STAT_SECTOR')) return ingestStatbelPriceSectors(ctx, input);
  const header = await readCsvHeader(input.path, { separator: '|' });
  requireColumns(header, COLUMNS, "Statbel's real-estate sales by municipality (pipe-separated)");
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.statbel-prices', source: statbelPricesSource, input, rejectsPartition: statbelPricesSource.id }, async ({ rejects, writer: writerOf }) => {
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: '|', progress: fileProgress(ctx, 'be.statbel-prices', input.path) })) {
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
        reliability: reliabilityOf(n) ?? 'low',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}

const SECTOR_COLUMNS = ['CD_STAT_SECTOR', 'CD_YEAR', 'CD_TYPE', 'MS_TRANSACTIONS', 'MS_P25', 'MS_P75'] as const;
/** The median's column: `MS_P50 (MEDIAN_PRICE)` in the files read by public code, `MS_P50` in some descriptions. */
const SECTOR_MEDIANS = ['MS_P50 (MEDIAN_PRICE)', 'MS_P50'] as const;
/** Statbel's type codes of the sector file, when the Dutch label is absent: B00A all houses, B015 apartments. */
const SECTOR_TYPE_CODES: Record<string, 'apartment' | 'house'> = { B00A: 'house', B015: 'apartment' };

/**
 * Statbel's real-estate sales by statistical sector (TF_IMMO_SECTOR: one row per sector, year and
 * property type; the separator sniffed from the header, UTF-8 unless --encoding): the median sale
 * price of the year of apartments and all houses per sector (sublocality_level2, the 9-character
 * CD_STAT_SECTOR of Statbel's sectors, e.g. 21004A01-), quartiles as range, sales as sample. Statbel
 * withholds the percentiles under 16 valid prices: an empty median is suppressed. The other types
 * (houses by number of facades) are left. One partition per year.
 */
async function ingestStatbelPriceSectors(ctx: JobContext, input: StatbelPricesInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { encoding: input.encoding });
  const median = SECTOR_MEDIANS.find((c) => header.includes(c));
  requireColumns(header, [...SECTOR_COLUMNS, median ?? SECTOR_MEDIANS[0]], "Statbel's real-estate sales by statistical sector (TF_IMMO_SECTOR)");
  const source = statbelPriceSectorsSource;
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.statbel-prices', source, input, rejectsPartition: source.id }, async ({ rejects, writer }) => {
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { encoding: input.encoding, progress: fileProgress(ctx, 'be.statbel-prices', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const type = record.CD_TYPE_NL !== undefined ? priceTypeOf(record.CD_TYPE_NL) : SECTOR_TYPE_CODES[(record.CD_TYPE ?? '').trim()] ?? null;
      if (!type) continue;
      const code = (record.CD_STAT_SECTOR ?? '').trim();
      if (!/^\d{5}[0-9A-Z]{3}[-0-9A-Z]$/.test(code)) { rejects.add(line, `CD_STAT_SECTOR ${JSON.stringify(code)} is not a 9-character statistical sector code`, record); continue; }
      const yearCell = (record.CD_YEAR ?? '').trim();
      if (!/^\d{4}$/.test(yearCell)) { rejects.add(line, `CD_YEAR ${JSON.stringify(record.CD_YEAR)} is not a year`, record); continue; }
      const nCell = (record.MS_TRANSACTIONS ?? '').trim();
      if (!/^\d+$/.test(nCell)) { rejects.add(line, `MS_TRANSACTIONS ${JSON.stringify(record.MS_TRANSACTIONS)} is not a count`, record); continue; }
      const n = Number(nCell);
      const [p25, p50, p75] = [amount(record.MS_P25), amount(record[median!]), amount(record.MS_P75)];
      if (p25 === 'bad' || p50 === 'bad' || p75 === 'bad') { rejects.add(line, 'a price quartile is not a number', record); continue; }
      const year = Number(yearCell);
      const why = (await writer(`${source.id}.${year}`)).add({
        level: 'sublocality_level2', code, indicator: STATBEL_PRICE_INDICATOR, breakdown: type, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
        value: p50, suppressed: p50 === null, unit: 'EUR', sample_size: n,
        range_low: p25 !== null && p75 !== null ? p25 : null, range_high: p25 !== null && p75 !== null ? p75 : null,
        reliability: reliabilityOf(n) ?? 'low',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
