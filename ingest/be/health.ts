import { beHealthAfmpsSource } from '../../datasets/be/health/source.ts';
import { requireColumns } from '../core/columns.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { decimal, pointsCsvSummary } from '../core/points-csv.ts';
import { fileProgress } from '../core/progress.ts';
import { readXlsxRows } from '../core/readers/xlsx.ts';
import { Rejects } from '../core/rejects.ts';
import { toWgs84 } from '../core/reproject.ts';

/**
 * The AFMPS/FAGG's list of the pharmacies open to the public (Lst_Pharmacies_pub_Extended.xlsx, its
 * first sheet as published: a title row, the bilingual header row, one row per pharmacy, a footer
 * note) -> be/places, partition be.health-afmps, category health.pharmacy, one place per licence
 * number at its X/Y (Belgian Lambert 2008, EPSG:3812). Left out and counted: pharmacies the list
 * marks temporarily closed (`Status Statut` "*(1)"), and the footer note. Header cells are matched
 * with their whitespace collapsed (Dutch and French label in one cell).
 */
export const AFMPS_COLUMNS = {
  licence: "Vergunningsnummer Numéro d'autorisation", name: 'Naam Nom', address: 'Adres Adresse', postcode: 'Postcode Code Postal', town: 'Gemeente Commune',
  status: 'Status Statut', holder: "Vergunninghouder Détenteur d'autorisation", operator: 'Uitbater Exploitant', x: 'X (Lambert 2008)', y: 'Y (Lambert 2008)',
} as const;
const C = AFMPS_COLUMNS;
export const BE_HEALTH_AFMPS_PARTITION = 'be.health-afmps';
const REQUIRED = [C.licence, C.name, C.status, C.x, C.y];
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export async function ingestBeHealth(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const rows = await readXlsxRows(input.path, { progress: fileProgress(ctx, 'be.health', input.path) });
  // The header: the first row naming the licence number (a title row comes before it).
  const at = rows.findIndex((r) => r.cells.some((c) => norm(c) === C.licence));
  const header = at >= 0 ? rows[at]!.cells.map(norm) : (rows[0]?.cells ?? []).map(norm);
  requireColumns(header, REQUIRED, "the AFMPS's list of pharmacies open to the public (Lst_Pharmacies_pub_Extended.xlsx)");
  const col = (name: string) => header.indexOf(name);
  const rejects = new Rejects(ctx.dataDir, 'be', 'places', BE_HEALTH_AFMPS_PARTITION, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'be', 'places', BE_HEALTH_AFMPS_PARTITION, beHealthAfmpsSource.id);
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  const project = toWgs84('EPSG:3812');
  let total = 0;
  try {
    for (const { row, cells } of rows.slice(at + 1)) {
      const get = (name: string) => (col(name) >= 0 ? (cells[col(name)] ?? '').trim() : '');
      const record = Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
      if (cells.every((c) => c.trim() === '')) continue;
      total++;
      const licence = get(C.licence);
      // The footer note: text in the first cell alone.
      if (!/^\d+$/.test(licence) && cells.slice(1).every((c) => c.trim() === '')) { skip("the list's footer note"); continue; }
      if (!/^\d+$/.test(licence)) { rejects.add(row, `${C.licence} "${licence}" is not a licence number`, record); continue; }
      if (get(C.status) !== '') { skip(`marked ${get(C.status)} (temporarily closed)`); continue; }
      const x = decimal(get(C.x)), y = decimal(get(C.y));
      if (!Number.isFinite(x) || !Number.isFinite(y)) { rejects.add(row, `X/Y "${get(C.x)}", "${get(C.y)}" is not a Lambert 2008 position`, record); continue; }
      const [lng, lat] = project([x, y]);
      // Belgium with a margin: a position outside is a broken row (swapped, or Lambert 72).
      if (!(lat >= 49.4 && lat <= 51.6 && lng >= 2.4 && lng <= 6.5)) { rejects.add(row, `X/Y ${x}, ${y} (Lambert 2008) is not in Belgium`, record); continue; }
      const town = [get(C.postcode), get(C.town)].filter((s) => s).join(' ');
      const why = writer.add({
        id: `${beHealthAfmpsSource.id}.${licence}`, longitude: lng, latitude: lat, category: 'health.pharmacy', name: get(C.name) || null,
        attributes: { licence, address: [get(C.address), town].filter((s) => s).join(', ') || null, holder: get(C.holder) || null, operator: get(C.operator) || null },
      });
      if (why) rejects.add(row, why, record);
    }
    rejects.check(total);
    await rejects.close();
    const out = await publish(ctx, 'be', 'be.health', beHealthAfmpsSource, input, BE_HEALTH_AFMPS_PARTITION, await writer.prepare(), rejects);
    ctx.log(pointsCsvSummary('be.health', total, writer.count, rejects.count, skipped));
    return out;
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
