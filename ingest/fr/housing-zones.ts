import { fileProgress } from '../core/progress.ts';
import { abcZoningSource, rentControlSource, tlvZoningSource } from '../../datasets/fr/housing-zones/source.ts';
import type { Source } from '../../datasets/source.ts';
import { ABC_ZONES } from '../../schemas/market.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';
import { communeCode, levelOfCommuneCode } from './commune-classes.ts';

/**
 * The housing regulation of a commune (spec 2.9 market.regulation) into fr/zone_values, one
 * partition per list (each file replaces its whole list): the ABC zoning and the TLV zoning as
 * the ministry publishes them on data.gouv.fr (UTF-8 with a BOM, semicolon), and the
 * rent-control communes from the operator's list. A class is stored as a number (its rank), no
 * period: a classification in force; rent control carries its dates as the period.
 */
export const REGULATION_INDICATORS = {
  abc: 'regulation.abc_zone',
  tense: 'regulation.tense_zone',
  rentControl: 'regulation.rent_control',
} as const;

/** ABC classes as stored: their rank from the tensest (1 Abis ... 5 C). */
export const abcRank = (zone: string): number | null => {
  const i = ABC_ZONES.indexOf(zone.replace(/\s+/g, '') as (typeof ABC_ZONES)[number]);
  return i < 0 ? null : i + 1;
};
/** Rent control as stored: 1 the whole commune, 2 part of it. */
export const RENT_CONTROL_SCOPES = { commune: 1, partie: 2 } as const;

type Input = JobInput;
type RowResult = { values: Omit<ZoneValueInput, 'level' | 'code'>[] } | { error: string };

/** Reads a list by commune: the code column, then each row into values or a refusal with its reason. */
async function ingestCommuneList(ctx: JobContext, input: Input, source: Source, codeColumn: string, row: (r: Record<string, string>) => RowResult): Promise<PartitionSummary[]> {
  const partition = source.id;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.housing-zones', source, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.housing-zones', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = communeCode(record[codeColumn] ?? '', false);
      if ('error' in code) { rejects.add(line, `${codeColumn}: ${code.error}`, record); continue; }
      const out = row(record);
      if ('error' in out) { rejects.add(line, out.error, record); continue; }
      for (const v of out.values) {
        const why = writer.add({ ...v, level: levelOfCommuneCode(code.code), code: code.code });
        if (why) { rejects.add(line, why, record); break; }
      }
    }
    return total;
  });
}

const classValue = (indicator: string, value: number) => ({ indicator, breakdown: null, period_start: null, period_end: null, value, unit: 'zone', reliability: 'high' as const });

/** The ministry's ABC list: CODGEO and the zoning column (`Zonage ABC ...`, the last one if several). */
export async function ingestAbcZoning(ctx: JobContext, input: Input & { column?: string }): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const column = input.column ?? header.filter((c) => /^Zonage ABC/i.test(c)).at(-1);
  requireColumns(header, ['CODGEO', column ?? 'Zonage ABC ...'], "the ministry's list of communes by ABC zone (semicolon-separated)");
  return ingestCommuneList(ctx, input, abcZoningSource, 'CODGEO', (r) => {
    const zone = (r[column!] ?? '').trim();
    const rank = abcRank(zone);
    return rank === null ? { error: `${column} ${JSON.stringify(zone)} is not one of ${ABC_ZONES.join(', ')}` } : { values: [classValue(REGULATION_INDICATORS.abc, rank)] };
  });
}

/**
 * The ministry's TLV list: the commune code (`CODGEO<yy>`, the geography's year) and one column per
 * revision of the zoning; the last `Zonage TLV` column is the one in force unless `column` names another.
 */
export async function ingestTlvZoning(ctx: JobContext, input: Input & { column?: string }): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const codeColumn = header.find((c) => /^CODGEO(\d{2})?$/.test(c));
  const column = input.column ?? header.filter((c) => /^Zonage TLV/i.test(c)).at(-1);
  requireColumns(header, [codeColumn ?? 'CODGEO<yy>', column ?? 'Zonage TLV ...'], "the ministry's list of communes by TLV zone (semicolon-separated)");
  return ingestCommuneList(ctx, input, tlvZoningSource, codeColumn!, (r) => {
    const cell = (r[column!] ?? '').trim();
    const cls = /^([123])(?:\D|$)/.exec(cell)?.[1];
    return cls ? { values: [classValue(REGULATION_INDICATORS.tense, Number(cls))] } : { error: `${column} ${JSON.stringify(cell)} does not start with a class 1, 2 or 3` };
  });
}

const RENT_CONTROL_COLUMNS = ['code_insee', 'perimetre', 'debut', 'fin'] as const;
const isDate = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`));

/** The operator's rent-control list (code_insee;nom_commune;territoire;perimetre;debut;fin). */
export async function ingestRentControl(ctx: JobContext, input: Input): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  requireColumns(header, RENT_CONTROL_COLUMNS, 'a rent-control list (code_insee;nom_commune;territoire;perimetre;debut;fin)');
  return ingestCommuneList(ctx, input, rentControlSource, 'code_insee', (r) => {
    const scope = (r.perimetre ?? '').trim();
    const since = (r.debut ?? '').trim(), until = (r.fin ?? '').trim();
    if (!(scope in RENT_CONTROL_SCOPES)) return { error: `perimetre ${JSON.stringify(scope)} is not commune or partie` };
    if (!isDate(since)) return { error: `debut ${JSON.stringify(since)} is not a date YYYY-MM-DD` };
    if (until !== '' && (!isDate(until) || until < since)) return { error: `fin ${JSON.stringify(until)} is not a date YYYY-MM-DD from debut on` };
    return { values: [{ ...classValue(REGULATION_INDICATORS.rentControl, RENT_CONTROL_SCOPES[scope as keyof typeof RENT_CONTROL_SCOPES]), period_start: since, period_end: until === '' ? null : until }] };
  });
}
