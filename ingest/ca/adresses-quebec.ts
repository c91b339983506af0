import { basename } from 'node:path';
import { z } from 'zod';
import { adressesQuebecSource } from '../../datasets/ca/sources.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { localityKey, streetKey } from '../../schemas/tables/address-key.ts';
import { pointCellId } from '../core/point-cell.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { toWgs84 } from '../core/reproject.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { TableWriter, cleanStaleTemporaries, fileSize } from '../core/table-writer.ts';
import { createProgress } from '../core/progress.ts';
import { requireColumns } from '../core/columns.ts';

/** Columns of the Adresses Québec civic address layer exported as CSV. */
export const AQ_COLUMNS = ['IdAdr', 'NoCivq', 'SufxNoCivq', 'Generique', 'Liaison', 'Specifique', 'Direction', 'CodeMun', 'NomMun', 'CodePostal', 'X', 'Y'] as const;

const text = z.string().transform((s) => s.trim());
const coord = (label: string) => z.string().trim().min(1, `${label} empty`).transform((s) => Number(s.replace(',', '.'))).refine(Number.isFinite, `${label} is not a number`);

export const AqRow = z.object({
  IdAdr: text.pipe(z.string().min(1, 'IdAdr empty')),
  NoCivq: text.pipe(z.string().regex(/^\d{1,6}$/, 'NoCivq is not a civic number')),
  SufxNoCivq: text, Generique: text, Liaison: text,
  Specifique: text.pipe(z.string().min(1, 'Specifique (street name) empty')),
  Direction: text,
  CodeMun: text.pipe(z.string().regex(/^\d{5}$/, 'CodeMun is not a geographic code')),
  NomMun: text.pipe(z.string().min(1, 'NomMun empty')),
  CodePostal: text.pipe(z.string().regex(/^([A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d)?$/, 'CodePostal is not a Canadian postal code')),
  X: coord('X'), Y: coord('Y'),
});
export type AqRow = z.infer<typeof AqRow>;

/** The odonym as written: generic, linking word, specific, direction ("avenue du Mont-Royal Est"). */
export function odonym(r: Pick<AqRow, 'Generique' | 'Liaison' | 'Specifique' | 'Direction'>): string {
  return [r.Generique, r.Liaison, r.Specifique, r.Direction].filter((s) => s !== '').join(' ').replace(/' /g, "'");
}

/** A postal code written the Canadian way, "H2W 2M7". */
const spaced = (cp: string) => (cp.length === 6 ? `${cp.slice(0, 3)} ${cp.slice(3)}` : cp);

/** Adresses Québec civic addresses (EPSG:32198, or as --crs says) -> a partition of ca/addresses. */
export async function ingestAdressesQuebec(ctx: JobContext, input: JobInput, crs = 'EPSG:32198'): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path);
  requireColumns(header, AQ_COLUMNS, 'an Adresses Québec export');
  const partition = `adresses-quebec.${basename(input.path).replace(/\.csv(\.gz)?$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`;
  await cleanStaleTemporaries(ctx.dataDir, 'ca', 'addresses');
  const rejects = new Rejects(ctx.dataDir, 'ca', 'addresses', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await TableWriter.open({ dataDir: ctx.dataDir, country: 'ca', table: 'addresses', partition, columns: ADDRESS_COLUMNS, orderBy: 'cell' });
  const progress = createProgress(`ca.adresses-quebec ${partition}`, await fileSize(input.path), ctx.progressOut);
  const project = toWgs84(crs);
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path)) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const parsed = AqRow.safeParse(record);
      if (!parsed.success) { rejects.add(line, parsed.error.issues.map((i) => i.message).join('; '), record); continue; }
      const r = parsed.data;
      const [lng, lat] = project([r.X, r.Y]);
      if (!(lng > -80 && lng < -57 && lat > 44.9 && lat < 63)) { rejects.add(line, `position ${lng}, ${lat} is not in Quebec: wrong CRS?`, record); continue; }
      const street = odonym(r);
      const postcode = r.CodePostal === '' ? null : r.CodePostal.replace(' ', '').toUpperCase();
      const rep = r.SufxNoCivq === '' ? null : r.SufxNoCivq.toLowerCase();
      const label = `${r.NoCivq}${rep ? ` ${rep}` : ''}, ${street}, ${r.NomMun}${postcode ? ` ${spaced(postcode)}` : ''}`;
      writer.append([r.IdAdr, pointCellId(lat, lng), lng, lat, Number(r.NoCivq), rep, street, postcode, r.CodeMun, r.NomMun, label,
        streetKey(street), localityKey(r.NomMun), null, null, adressesQuebecSource.id]);
      if ((total & 1023) === 0) progress.tick(total);
    }
    progress.tick(total);
    progress.done();
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'ca', 'ca.adresses-quebec', adressesQuebecSource, input, partition, [{ table: 'addresses', prepared: await writer.prepare() }], rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
