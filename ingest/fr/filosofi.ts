import { fileProgress } from '../core/progress.ts';
import { filosofiSource } from '../../datasets/fr/filosofi/source.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { foundColumns, requireColumns } from '../core/columns.ts';
import { communeCode, levelOfCommuneCode } from './commune-classes.ts';

/**
 * INSEE Filosofi, disposable income by IRIS (BASE_TD_FILO_DISP_IRIS_<year>.csv) and by commune
 * (FILO<year>_DISP_COM.csv, FILO<year>_DISP_PAUVRES_COM.csv, below): the median disposable income
 * per consumption unit (with its quartiles as range) and the poverty rate, per IRIS or commune;
 * declared income by IRIS (BASE_TD_FILO_DEC_IRIS_<year>.csv, below): its median per consumption
 * unit, another measure (spec 2.5); into the zone values of France. The edition's year is read
 * from the header (DISP_MED18 is 2018), never from the file name. An empty cell is INSEE's
 * statistical secrecy: kept as a withheld value (served null, reason suppressed), never zero.
 * The range is the first and third quartiles (spec 2.5's Measure.range, where the issue says
 * deciles); the deciles are not stored.
 */
export const FILOSOFI_INDICATORS = {
  median: 'income.median_disposable_per_unit',
  poverty: 'income.poverty_rate',
  declaredMedian: 'income.median_declared_per_unit',
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

/** `publishedAt`: the producer's publication date of the edition (YYYY-MM-DD), served as Measure.updated_on. */
export type FilosofiInput = JobInput;

/**
 * Reads a Filosofi file, told apart by its header: disposable income by IRIS (IRIS, DISP_MEDyy),
 * declared income by IRIS (IRIS, DEC_MEDyy), or by commune (CODGEO, Q2yy or TP60yy).
 */
export async function ingestFilosofi(ctx: JobContext, input: FilosofiInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const med = header.find((c) => /^DISP_MED\d{2}$/.test(c));
  if (header.includes('IRIS') && med) return ingestFilosofiIris(ctx, input, header, med);
  const declared = header.find((c) => /^DEC_MED\d{2}$/.test(c));
  if (header.includes('IRIS') && declared) return ingestFilosofiDeclaredIris(ctx, input, header, declared);
  const commune = header.includes('CODGEO') ? filosofiCommuneLayout(header) : null;
  if (commune) return ingestFilosofiCommunes(ctx, input, commune);
  throw new Error(`not a Filosofi file: expected columns IRIS and DISP_MEDyy (disposable income by IRIS), IRIS and DEC_MEDyy (declared income by IRIS), or CODGEO and Q2yy or TP60yy (FILO<year>_DISP_COM, FILO<year>_DISP_PAUVRES_COM by commune); found ${foundColumns(header)}`);
}

async function ingestFilosofiIris(ctx: JobContext, input: FilosofiInput, header: string[], med: string): Promise<PartitionSummary[]> {
  const yy = med.slice(-2);
  requireColumns(header, [`DISP_TP60${yy}`, `DISP_Q1${yy}`, `DISP_Q3${yy}`, `DISP_NOTE${yy}`], `a complete Filosofi file by IRIS (edition 20${yy})`);
  const year = 2000 + Number(yy);
  const period = { period_start: `${year}-01-01`, period_end: `${year}-12-31` };
  const partition = `${filosofiSource.id}.${year}`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.filosofi', source: filosofiSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.filosofi', input.path) })) {
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
      const common = { level, code, breakdown: null, ...period, reliability };
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

/**
 * The commune files of an edition, as INSEE publishes them in indic-struct-distrib-revenu-<year>-COMMUNES_csv.zip
 * (semicolon, one row per commune and municipal arrondissement, a secret cell written `s`):
 * - FILO<year>_DISP_COM.csv: CODGEO;NBMENyy;NBPERSyy;NBUCyy;Q1yy;Q2yy;Q3yy;Q3_Q1;D1yy...D9yy;RD;S80S20yy;GIyy;PACTyy...PIMPOTyy
 *   (the median is Q2yy, with the quartiles as range and the fiscal households NBMENyy as sample size);
 * - FILO<year>_DISP_PAUVRES_COM.csv (`_Pauvres_` before 2020): CODGEO;TP60yy;TP60AGE1yy...;TP60TOL2yy;... (the poverty rate TP60yy).
 * The edition is read from the columns' suffix (Q221 is 2021), never from the file name.
 */
export type FilosofiCommuneLayout = { kind: 'distribution'; yy: string; columns: { households: string; q1: string; median: string; q3: string } } | { kind: 'poverty'; yy: string; columns: { rate: string } };

export function filosofiCommuneLayout(header: readonly string[]): FilosofiCommuneLayout | null {
  const q2 = header.find((c) => /^Q2\d{2}$/.test(c));
  if (q2) {
    const yy = q2.slice(2);
    const columns = { households: `NBMEN${yy}`, q1: `Q1${yy}`, median: q2, q3: `Q3${yy}` };
    requireColumns(header, Object.values(columns), `a complete Filosofi disposable-income file by commune (FILO20${yy}_DISP_COM)`);
    return { kind: 'distribution', yy, columns };
  }
  const tp = header.find((c) => /^TP60\d{2}$/.test(c));
  return tp ? { kind: 'poverty', yy: tp.slice(4), columns: { rate: tp } } : null;
}

/**
 * A cell of the commune files and of the declared-income file by IRIS: `s` (and an empty cell)
 * is statistical secrecy, withheld; `nd` (not available), `ns` (not significant) and `so` (not
 * applicable) say there is no figure to serve at all (public code reading the 2020 and 2021
 * IRIS files meets them); a number may carry a decimal comma (the 2020 IRIS files').
 */
export function filosofiCell(v: string | undefined): { value: number } | 'withheld' | 'none' | 'bad' {
  const t = (v ?? '').trim();
  if (t === '' || t.toLowerCase() === 's') return 'withheld';
  if (['nd', 'ns', 'so'].includes(t.toLowerCase())) return 'none';
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? { value: n } : 'bad';
}

async function ingestFilosofiCommunes(ctx: JobContext, input: FilosofiInput, layout: FilosofiCommuneLayout): Promise<PartitionSummary[]> {
  const year = 2000 + Number(layout.yy);
  const period = { period_start: `${year}-01-01`, period_end: `${year}-12-31` };
  const partition = `${filosofiSource.id}.${year}.communes${layout.kind === 'poverty' ? '-poverty' : ''}`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.filosofi', source: filosofiSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.filosofi', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = communeCode(record.CODGEO ?? '', false);
      if ('error' in code) { rejects.add(line, `CODGEO: ${code.error}`, record); continue; }
      const cells = Object.entries(layout.columns).map(([k, c]) => [k, c, filosofiCell(record[c])] as const);
      const bad = cells.find(([, , v]) => v === 'bad');
      if (bad) { rejects.add(line, `${bad[1]} ${JSON.stringify(record[bad[1]])} is not a number, s, nd, ns or so`, record); continue; }
      const cell = Object.fromEntries(cells.map(([k, , v]) => [k, v]));
      const valueOf = (k: string) => { const v = cell[k]; return typeof v === 'object' ? v.value : null; };
      // Filosofi is exhaustive (every fiscal household of the commune): a published value is reliable.
      const common = { level: levelOfCommuneCode(code.code), code: code.code, breakdown: null, ...period, reliability: 'high' as const };
      let row: ZoneValueInput | null;
      if (layout.kind === 'distribution') {
        const [households, q1, q3] = [valueOf('households'), valueOf('q1'), valueOf('q3')];
        const quartiles = q1 !== null && q3 !== null;
        row = cell.median === 'none' ? null : {
          ...common, indicator: FILOSOFI_INDICATORS.median, unit: 'EUR/year', value: valueOf('median'), suppressed: cell.median === 'withheld',
          range_low: quartiles ? q1 : null, range_high: quartiles ? q3 : null,
          sample_size: households !== null && Number.isInteger(households) && households >= 0 ? households : null,
        };
      } else {
        row = cell.rate === 'none' ? null : { ...common, indicator: FILOSOFI_INDICATORS.poverty, unit: '%', value: valueOf('rate'), suppressed: cell.rate === 'withheld' };
      }
      if (!row) continue;
      const why = writer.add(row);
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}

/**
 * The declared-income file by IRIS, as INSEE publishes it (BASE_TD_FILO_DEC_IRIS_<year>.csv in
 * BASE_TD_FILO_DEC_IRIS_<year>.zip; BASE_TD_FILO_IRIS_<year>_DEC.csv from 2021): semicolon, one
 * row per IRIS (and commune not divided into IRIS, code + 0000),
 * `IRIS;DEC_PIMPyy;DEC_TP60yy;[DEC_INCERTyy;]DEC_Q1yy;DEC_MEDyy;DEC_Q3yy;DEC_EQyy;DEC_D1yy..DEC_D9yy;DEC_RDyy;DEC_S80S20yy;DEC_GIyy;DEC_PACTyy..DEC_PAUTyy;DEC_NOTEyy`
 * (datasets/fr/filosofi/README.md says where the layout was learnt). Read: the median declared
 * income per consumption unit (DEC_MEDyy), with its quartiles as range and the caution note
 * DEC_NOTEyy as reliability (as DISP_NOTE's). A declared income is before taxes and benefits: a
 * measure of its own name (spec 2.5), never served as the disposable median. The file has no
 * household count: sample_size null. Its other columns (share of taxed households, low declared
 * income rate, deciles, shares of income kinds) are not read.
 */
async function ingestFilosofiDeclaredIris(ctx: JobContext, input: FilosofiInput, header: string[], med: string): Promise<PartitionSummary[]> {
  const yy = med.slice(-2);
  const columns = { med, q1: `DEC_Q1${yy}`, q3: `DEC_Q3${yy}` };
  const note = `DEC_NOTE${yy}`;
  requireColumns(header, [columns.q1, columns.q3, note], `a complete Filosofi declared-income file by IRIS (edition 20${yy})`);
  const year = 2000 + Number(yy);
  const period = { period_start: `${year}-01-01`, period_end: `${year}-12-31` };
  const partition = `${filosofiSource.id}.${year}.declared`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.filosofi', source: filosofiSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.filosofi', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.IRIS ?? '').trim();
      if (!/^[0-9][0-9AB][0-9]{7}$/.test(code)) { rejects.add(line, `IRIS code ${JSON.stringify(code)} is not 9 characters`, record); continue; }
      const cells = Object.entries(columns).map(([k, c]) => [k, c, filosofiCell(record[c])] as const);
      const bad = cells.find(([, , v]) => v === 'bad');
      if (bad) { rejects.add(line, `${bad[1]} ${JSON.stringify(record[bad[1]])} is not a number, s, nd, ns or so`, record); continue; }
      const [m, q1, q3] = cells.map(([, , v]) => v);
      if (m === 'none') continue;
      const quartiles = typeof q1 === 'object' && typeof q3 === 'object';
      const why = writer.add({
        level: 'sublocality_level2', code, breakdown: null, ...period, indicator: FILOSOFI_INDICATORS.declaredMedian, unit: 'EUR/year',
        value: typeof m === 'object' ? m.value : null, suppressed: m === 'withheld',
        range_low: quartiles ? q1.value : null, range_high: quartiles ? q3.value : null,
        reliability: RELIABILITY[(record[note] ?? '').trim()] ?? 'low',
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
