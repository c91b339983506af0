import { GASPAR_INDICATOR, gasparSource } from '../../datasets/fr/gaspar/source.ts';
import { GASPAR_RISKS } from '../../datasets/fr/gaspar/nomenclature.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { ZoneValuesWriter } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requirePublishedOn } from '../core/published-on.ts';
import { Rejects } from '../core/rejects.ts';
import { communeCode, levelOfCommuneCode } from './commune-classes.ts';

export { GASPAR_INDICATOR };

const COLUMNS = ['cod_commune', 'num_risque'] as const;

/**
 * GASPAR's risks known per commune as Géorisques publishes them (risq_gaspar.csv or
 * ddrm_risq_gaspar_<date>.csv in gaspar.zip: `cod_commune;lib_commune;lib_risque;num_risque`,
 * semicolon-separated, UTF-8, the commune code written as a number: 1001 for 01001) into fr/zone_values, partition fr.gaspar: one row per commune and
 * risk, the risk's code in `breakdown`, value 1. Columns are found by name (the archives have
 * moved them); a file without `cod_commune` and `num_risque` is not this file and fails naming
 * them. Refused to the rejects file: a code that is not a commune's, a risk code outside
 * GASPAR's nomenclature, the same risk given twice for a commune (the first row keeps it).
 * The label of the file is not stored: the served label is the nomenclature's, in the request's
 * language (datasets/fr/gaspar/nomenclature.ts).
 */
export async function ingestGaspar(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const publishedOn = requirePublishedOn('fr.risk-communes --gaspar', input);
  const header = await readCsvHeader(input.path, { separator: ';' });
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new Error(`not GASPAR's risks per commune (risq_gaspar.csv, semicolon-separated): missing the columns ${missing.join(', ')}; found ${header.slice(0, 8).join(', ') || 'no header'}`);
  }
  const partition = gasparSource.id;
  const rejects = new Rejects(ctx.dataDir, 'fr', 'zone_values', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await ZoneValuesWriter.open(ctx.dataDir, 'fr', 'zone_values', partition, gasparSource.id, publishedOn);
  const seen = new Map<string, number>();
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: ';' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      // The published file writes the code as a number: departments 01-09 lose their leading zero (1001 for 01001).
      const code = communeCode(record.cod_commune ?? '', true);
      const risk = (record.num_risque ?? '').trim();
      const reasons = [
        ...('error' in code ? [`cod_commune: ${code.error}`] : []),
        ...(Object.hasOwn(GASPAR_RISKS, risk) ? [] : [`num_risque ${JSON.stringify(risk)} is not a code of GASPAR's nomenclature`]),
      ];
      if (reasons.length > 0 || 'error' in code) { rejects.add(line, reasons.join('; '), record); continue; }
      const key = `${code.code}|${risk}`;
      const first = seen.get(key);
      if (first) { rejects.add(line, `risk ${risk} of commune ${code.code} already given at line ${first} (the first row keeps it)`, record); continue; }
      seen.set(key, line);
      const why = writer.add({
        level: levelOfCommuneCode(code.code), code: code.code, indicator: GASPAR_INDICATOR, breakdown: risk,
        period_start: null, period_end: null, value: 1, unit: 'flag', reliability: 'high',
      });
      if (why) rejects.add(line, why, record);
    }
    if (total === 0) throw new Error(`no row in ${input.path}`);
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'fr', gasparSource.id, gasparSource, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
