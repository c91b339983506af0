import { fileProgress } from '../core/progress.ts';
import { basename } from 'node:path';
import { rentsSource } from '../../datasets/fr/rents/source.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * ANIL / DHUP rent map (pred-*-mef-dhup.csv): the predicted advertised rent per m² of each
 * commune (charges included), its 95 % prediction interval as range, the observations behind it as
 * sample size, into France's zone values (indicator `rent.per_m2`, breakdown the property type).
 */
export const RENT_INDICATOR = 'rent.per_m2';
export const RENT_TYPES = ['apartment', 'house', 'apartment_1_2_rooms', 'apartment_3_plus_rooms'] as const;
export type RentType = (typeof RENT_TYPES)[number];

/** The producer names each type's file (pred-app, pred-mai, pred-app12, pred-app3-mef-dhup.csv); another name needs --type. */
export function rentTypeOfName(path: string): RentType | null {
  const m = /^pred-(app|mai|app12|app3)-mef-dhup/i.exec(basename(path));
  return m ? ({ app: 'apartment', mai: 'house', app12: 'apartment_1_2_rooms', app3: 'apartment_3_plus_rooms' } as const)[m[1]!.toLowerCase() as 'app'] : null;
}

const COLUMNS = ['INSEE_C', 'loypredm2', 'lwr.IPm2', 'upr.IPm2', 'TYPPRED', 'nbobs_com', 'nbobs_mail', 'R2_adj'] as const;

/** Numbers as ANIL writes them: a decimal comma. */
const num = (v: string | undefined) => {
  const t = (v ?? '').trim();
  return t === '' ? NaN : Number(t.replace(',', '.'));
};

/**
 * Reliability from the prediction type and the model's fit (ANIL's own quality signals): a
 * commune-level prediction of a model with R² adj >= 0.5 is high, a prediction for a group of
 * communes (maille) medium, any prediction of a model with R² adj below 0.5 low.
 */
export function rentReliability(typpred: string, r2: number): 'high' | 'medium' | 'low' {
  if (!(r2 >= 0.5)) return 'low';
  return typpred === 'commune' ? 'high' : 'medium';
}

/** Municipal arrondissements of Paris, Lyon and Marseille are published as communes of their own. */
const levelOf = (code: string): ZoneLevel => (/^(751\d\d|6938\d|132\d\d)$/.test(code) ? 'sublocality_level1' : 'locality');

export interface RentsInput extends JobInput {
  type: RentType;
  /** The edition's year: the file does not say it. */
  year: number;
  encoding?: string;
}

export async function ingestRents(ctx: JobContext, input: RentsInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';', encoding: input.encoding });
  requireColumns(header, COLUMNS, 'an ANIL rent map file (pred-*-mef-dhup.csv)');
  const partition = `${rentsSource.id}.${input.type}.${input.year}`;
  return runZoneValuesJob(ctx, { country: 'fr', job: 'fr.rents', source: rentsSource, input, rejectsPartition: partition }, async ({ rejects, writer: writerOf }) => {
    const writer = await writerOf(partition);
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', encoding: input.encoding, progress: fileProgress(ctx, 'fr.rents', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const code = (record.INSEE_C ?? '').trim();
      if (!/^[0-9][0-9AB][0-9]{3}$/.test(code)) { rejects.add(line, `INSEE_C ${JSON.stringify(code)} is not a commune code`, record); continue; }
      const rent = num(record.loypredm2), low = num(record['lwr.IPm2']), high = num(record['upr.IPm2']), r2 = num(record.R2_adj);
      const typpred = (record.TYPPRED ?? '').trim();
      if (!Number.isFinite(rent) || !Number.isFinite(low) || !Number.isFinite(high)) { rejects.add(line, 'loypredm2 or its interval is not a number', record); continue; }
      if (typpred !== 'commune' && typpred !== 'maille') { rejects.add(line, `TYPPRED ${JSON.stringify(typpred)} is neither commune nor maille`, record); continue; }
      const observations = num(typpred === 'commune' ? record.nbobs_com : record.nbobs_mail);
      const why = writer.add({
        level: levelOf(code), code, indicator: RENT_INDICATOR, breakdown: input.type,
        period_start: `${input.year}-01-01`, period_end: `${input.year}-12-31`,
        value: rent, unit: 'EUR/m2/month', range_low: low, range_high: high,
        sample_size: Number.isInteger(observations) && observations >= 0 ? observations : null,
        reliability: rentReliability(typpred, r2),
      });
      if (why) rejects.add(line, why, record);
    }
    return total;
  });
}
