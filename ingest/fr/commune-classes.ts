import { fileProgress } from '../core/progress.ts';
import type { Source } from '../../datasets/source.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * A class published per commune (radon potential category, seismic zone) into the zone values
 * of France: one value per commune, the class as a number, no period (a classification in force).
 */
export interface CommuneClassSpec {
  source: Source;
  /** What the file is, for the layout error ("IRSN's radon potential by commune"). */
  file: string;
  codeColumn: string;
  classColumn: string;
  indicator: string;
  unit: string;
  /** The classes the producer publishes, as written in the file. */
  classes: readonly string[];
  /** Producers that drop the leading zero of departments 01-09 (IRSN's radon file): a 4-digit code is padded. */
  padFourDigitCodes: boolean;
}

/** Municipal arrondissements of Paris, Lyon and Marseille: zones of level sublocality_level1 (spec 2.4). */
export function levelOfCommuneCode(code: string): ZoneLevel {
  const n = Number(code);
  const arrondissement = (n >= 75101 && n <= 75120) || (n >= 69381 && n <= 69389) || (n >= 13201 && n <= 13216);
  return arrondissement ? 'sublocality_level1' : 'locality';
}

/** The official commune code of a cell, or why it is not one. */
export function communeCode(raw: string, padFourDigits: boolean): { code: string } | { error: string } {
  const t = raw.trim();
  if (t === '') return { error: 'no commune code' };
  if (padFourDigits && /^[1-9][0-9]{3}$/.test(t)) return { code: `0${t}` };
  if (/^(?:[0-9]{2}|2[AB])[0-9]{3}$/.test(t)) return { code: t };
  return { error: `commune code ${JSON.stringify(t)} is not a commune code (5 characters, 2A/2B in Corsica)` };
}

export async function ingestCommuneClasses(ctx: JobContext, input: JobInput, spec: CommuneClassSpec): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  requireColumns(header, [spec.codeColumn, spec.classColumn], `${spec.file} (semicolon-separated)`);
  const partition = spec.source.id;
  return runZoneValuesJob(ctx, { country: 'fr', job: spec.source.id, source: spec.source, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    const seen = new Map<string, number>();
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, spec.source.id, input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = communeCode(record[spec.codeColumn] ?? '', spec.padFourDigitCodes);
      const cls = (record[spec.classColumn] ?? '').trim();
      const reasons = [
        ...('error' in code ? [`${spec.codeColumn}: ${code.error}`] : []),
        ...(spec.classes.includes(cls) ? [] : [`${spec.classColumn} ${JSON.stringify(cls)} is not one of ${spec.classes.join(', ')}`]),
      ];
      if (reasons.length > 0 || 'error' in code) { rejects.add(line, reasons.join('; '), record); continue; }
      // The real radon file gives two communes one code (97605 for Chiconi and Sada): the first keeps it.
      const first = seen.get(code.code);
      if (first) { rejects.add(line, `${spec.codeColumn} ${code.code} already given at line ${first} (the first row keeps it)`, record); continue; }
      seen.set(code.code, line);
      const why = writer.add({
        level: levelOfCommuneCode(code.code), code: code.code, indicator: spec.indicator, breakdown: null,
        period_start: null, period_end: null, value: Number(cls), unit: spec.unit, reliability: 'high',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
