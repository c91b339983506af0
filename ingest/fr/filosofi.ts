import { filosofiSource } from '../../datasets/fr/filosofi/source.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * INSEE Filosofi, disposable income by IRIS (BASE_TD_FILO_DISP_IRIS_<year>.csv): the median
 * disposable income per consumption unit (with its quartiles as range) and the poverty rate, per
 * IRIS, into the zone values of France. The edition's year is read from the header (DISP_MED18 is
 * 2018), never from the file name. An empty cell is INSEE's statistical secrecy: kept as a
 * withheld value (served null, reason suppressed), never zero.
 */
export const FILOSOFI_INDICATORS = {
  median: 'income.median_disposable_per_unit',
  poverty: 'income.poverty_rate',
} as const;

/**
 * DISP_NOTE: INSEE's caution note on the IRIS's figures (0: none; 1: to be used with care, e.g. a
 * large share of the population outside ordinary households). Mapped to the Measure's reliability
 * (spec 2.5: published reliability).
 */
const RELIABILITY: Record<string, 'high' | 'medium' | 'low'> = { '0': 'high', '1': 'medium' };

/** French decimal numbers as INSEE writes them in this file (a point; a comma is accepted too). */
function num(v: string | undefined): number | null | 'bad' {
  const t = (v ?? '').trim();
  if (t === '') return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? n : 'bad';
}

export interface FilosofiInput extends JobInput {
  /** The producer's publication date of the edition (YYYY-MM-DD), served as Measure.updated_on. */
  publishedOn?: string | null;
}

export async function ingestFilosofi(ctx: JobContext, input: FilosofiInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const med = header.find((c) => /^DISP_MED\d{2}$/.test(c));
  if (!header.includes('IRIS') || !med) {
    throw new Error(`not a Filosofi disposable-income file by IRIS: expected columns IRIS and DISP_MEDyy, found ${header.slice(0, 8).join(', ')}${header.length > 8 ? ', ...' : ''}`);
  }
  const yy = med.slice(-2);
  requireColumns(header, [`DISP_TP60${yy}`, `DISP_Q1${yy}`, `DISP_Q3${yy}`, `DISP_NOTE${yy}`], `a complete Filosofi file by IRIS (edition 20${yy})`);
  const year = 2000 + Number(yy);
  const period = { period_start: `${year}-01-01`, period_end: `${year}-12-31` };
  const partition = `${filosofiSource.id}.${year}`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.filosofi', source: filosofiSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.IRIS ?? '').trim();
      // 9 characters: commune (5, 2A/2B in Corsica) + IRIS number (4); "0000" for a commune not divided into IRIS.
      if (!/^[0-9][0-9AB][0-9]{7}$/.test(code)) { rejects.add(line, `IRIS code ${JSON.stringify(code)} is not 9 characters`, record); continue; }
      const values = { med: num(record[med]), q1: num(record[`DISP_Q1${yy}`]), q3: num(record[`DISP_Q3${yy}`]), tp: num(record[`DISP_TP60${yy}`]) };
      const bad = Object.entries(values).find(([, v]) => v === 'bad');
      if (bad) { rejects.add(line, `${bad[0]} is not a number`, record); continue; }
      const note = (record[`DISP_NOTE${yy}`] ?? '').trim();
      const reliability = RELIABILITY[note] ?? 'low';
      const level: ZoneLevel = 'sublocality_level2';
      const common = { level, code, breakdown: null, ...period, published_on: input.publishedOn ?? null, reliability };
      const rows: ZoneValueInput[] = [
        {
          ...common, indicator: FILOSOFI_INDICATORS.median, unit: 'EUR/year', value: values.med as number | null, suppressed: values.med === null,
          range_low: values.q1 as number | null, range_high: values.q3 as number | null,
        },
        { ...common, indicator: FILOSOFI_INDICATORS.poverty, unit: '%', value: values.tp as number | null, suppressed: values.tp === null },
      ];
      for (const r of rows) {
        const why = writer.add(r);
        if (why) { rejects.add(line, why, record); break; }
      }
    }
    return total;
  });
}
