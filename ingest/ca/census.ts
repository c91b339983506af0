import { fileProgress } from '../core/progress.ts';
import { caCensusSource } from '../../datasets/ca/census/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * Statistics Canada's Census Profile by forward sortation area as downloaded
 * (98-401-X2021013_English_CSV_data.csv: comma, Latin-1, one row per geography and
 * characteristic): the average total income of recipients (spec 2.11 residents.income.total_mean)
 * of Quebec's FSAs into ca/zone_values, with the number of recipients of its block as sample
 * size. Rows are read by characteristic name (ids change between censuses); other provinces' FSAs
 * are read and left. One partition per census (`ca.census.2021`, from CENSUS_YEAR).
 */
export const CA_CENSUS_INDICATOR = 'income.total_mean';
const COLUMNS = ['CENSUS_YEAR', 'DGUID', 'ALT_GEO_CODE', 'GEO_LEVEL', 'DATA_QUALITY_FLAG', 'CHARACTERISTIC_NAME', 'C1_COUNT_TOTAL', 'SYMBOL'] as const;
const AVERAGE = /^Average total income in (\d{4}) among recipients \(\$\)$/;
const RECIPIENTS = /^Number of total income recipients aged 15 years and over in private households in \d{4}$/;
/** Quebec's province code in a 2021 FSA DGUID (2021A0011 + PRUID + FSA). */
const QUEBEC_FSA = /^\d{4}A0011(\d{2})([A-Z]\d[A-Z])$/;

/**
 * The C1 SYMBOL: x (suppressed for confidentiality), F (too unreliable to be published), .. and ...
 * (not available) withhold the value; E (use with caution) lowers its reliability.
 */
const WITHHELD = new Set(['x', 'X', 'F', '..', '...']);

export interface CaCensusInput extends JobInput { encoding?: string }

export async function ingestCaCensus(ctx: JobContext, input: CaCensusInput): Promise<PartitionSummary[]> {
  const encoding = input.encoding ?? 'latin1';
  const header = await readCsvHeader(input.path, { separator: ',', encoding });
  requireColumns(header, COLUMNS, 'a Statistics Canada Census Profile CSV (98-401-X...CSV_data.csv)');
  return runZoneValuesJob(ctx, { country: 'ca', job: 'ca.census', source: caCensusSource, input, rejectsPartition: caCensusSource.id }, async ({ rejects, writer: writerOf }) => {
    let total = 0;
    // The number of recipients of the block being read, per geography (rows of one geography are consecutive).
    let recipients: { geo: string; n: number | null } = { geo: '', n: null };
    for await (const { line, record, error } of readCsv(input.path, { separator: ',', encoding, progress: fileProgress(ctx, 'ca.census', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      if ((record.GEO_LEVEL ?? '').trim() !== 'Forward sortation area') continue;
      const dguid = QUEBEC_FSA.exec((record.DGUID ?? '').trim());
      if (!dguid) { rejects.add(line, `DGUID ${JSON.stringify(record.DGUID)} is not a 2021 forward sortation area`, record); continue; }
      if (dguid[1] !== '24') continue;
      const fsa = dguid[2]!;
      const name = (record.CHARACTERISTIC_NAME ?? '').trim();
      const cell = (record.C1_COUNT_TOTAL ?? '').trim();
      if (RECIPIENTS.test(name)) { recipients = { geo: fsa, n: /^\d+$/.test(cell) ? Number(cell) : null }; continue; }
      const average = AVERAGE.exec(name);
      if (!average) continue;
      const symbol = (record.SYMBOL ?? '').trim();
      const withheld = WITHHELD.has(symbol) || cell === '';
      const value = withheld ? null : Number(cell);
      if (value !== null && !Number.isFinite(value)) { rejects.add(line, `C1_COUNT_TOTAL ${JSON.stringify(cell)} is not a number`, record); continue; }
      const census = (record.CENSUS_YEAR ?? '').trim();
      if (!/^\d{4}$/.test(census)) { rejects.add(line, `CENSUS_YEAR ${JSON.stringify(census)} is not a year`, record); continue; }
      const writer = await writerOf(`${caCensusSource.id}.${census}`);
      // DATA_QUALITY_FLAG: Statistics Canada's flags (incomplete enumeration, collection interrupted, high non-response): any raised lowers reliability.
      const flagged = /[1-9]/.test(record.DATA_QUALITY_FLAG ?? '');
      const year = average[1]!;
      const why = writer.add({
        level: 'postal_code_prefix', code: fsa, indicator: CA_CENSUS_INDICATOR, breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-12-31`,
        value, suppressed: withheld, unit: 'CAD/year', sample_size: recipients.geo === fsa ? recipients.n : null,
        reliability: symbol === 'E' ? 'low' : flagged ? 'medium' : 'high',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
