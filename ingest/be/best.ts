import { basename } from 'node:path';
import { z } from 'zod';
import { bestSource } from '../../datasets/be/best/source.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { joinKeys, localityKey, streetKey } from '../../schemas/tables/address-key.ts';
import { pointCellId } from '../core/point-cell.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { toWgs84 } from '../core/reproject.ts';
import { partitionEntry } from '../core/manifest.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { TableWriter, cleanStaleTemporaries, fileSize } from '../core/table-writer.ts';
import { createProgress } from '../core/progress.ts';
import { requireColumns } from '../core/columns.ts';

/** Columns of BeST's openaddress-be<region>.csv that the job reads. */
export const BEST_COLUMNS = [
  'EPSG:31370_x', 'EPSG:31370_y', 'EPSG:4326_lat', 'EPSG:4326_lon', 'address_id', 'house_number', 'municipality_id',
  'municipality_name_de', 'municipality_name_fr', 'municipality_name_nl', 'postcode', 'postname_fr', 'postname_nl', 'postname_de',
  'streetname_de', 'streetname_fr', 'streetname_nl', 'region_code', 'status',
] as const;

type Lang = 'fr' | 'nl' | 'de';
/** The language a label is written in, by region: Brussels French first (its names are bilingual), Flanders Dutch, Wallonia French. */
const PRIMARY: Record<string, Lang[]> = { 'BE-BRU': ['fr', 'nl', 'de'], 'BE-VLG': ['nl', 'fr', 'de'], 'BE-WAL': ['fr', 'de', 'nl'] };

const text = z.string().transform((s) => s.trim());
const num = (label: string) => z.string().trim().transform((s) => (s === '' ? null : Number(s))).refine((v) => v === null || Number.isFinite(v), `${label} is not a number`);

export const BestRow = z.object({
  'EPSG:31370_x': num('EPSG:31370_x'), 'EPSG:31370_y': num('EPSG:31370_y'), 'EPSG:4326_lat': num('EPSG:4326_lat'), 'EPSG:4326_lon': num('EPSG:4326_lon'),
  address_id: text.pipe(z.string().min(1, 'address_id empty')),
  house_number: text.pipe(z.string().regex(/^\d{1,5}/, 'house_number does not start with a number')),
  municipality_id: text.pipe(z.string().regex(/^\d{5}$/, 'municipality_id is not a NIS code')),
  municipality_name_de: text, municipality_name_fr: text, municipality_name_nl: text,
  postcode: text.pipe(z.string().regex(/^\d{4}$/, 'postcode is not 4 digits')),
  postname_fr: text, postname_nl: text, postname_de: text,
  streetname_de: text, streetname_fr: text, streetname_nl: text,
  region_code: text.pipe(z.enum(['BE-BRU', 'BE-VLG', 'BE-WAL'], { message: 'region_code is not BE-BRU, BE-VLG or BE-WAL' })),
  status: text.pipe(z.enum(['current', 'proposed', 'reserved'], { message: 'status is not current, proposed or reserved (a retired address is not served)' })),
}).refine((r) => r.streetname_fr || r.streetname_nl || r.streetname_de, 'no street name in any language')
  .refine((r) => r.municipality_name_fr || r.municipality_name_nl || r.municipality_name_de, 'no municipality name in any language')
  .refine((r) => (r['EPSG:4326_lat'] !== null && r['EPSG:4326_lon'] !== null) || (r['EPSG:31370_x'] && r['EPSG:31370_y']), 'no position (lat/lon or Lambert 72 x/y)');
export type BestRow = z.infer<typeof BestRow>;

const pick = (r: BestRow, stem: 'streetname' | 'municipality_name' | 'postname', langs: Lang[]) => {
  for (const l of langs) { const v = r[`${stem}_${l}`]; if (v) return v; }
  return '';
};
const variants = (r: BestRow, stem: 'streetname' | 'municipality_name' | 'postname') => (['fr', 'nl', 'de'] as Lang[]).map((l) => r[`${stem}_${l}`]).filter((v) => v !== '');

/** "12", "12A", "12 bis", "12/1" -> number and suffix (a box number is not a suffix). */
export function splitHouseNumber(s: string): { number: number; rep: string | null } {
  const m = /^(\d{1,5})\s*([A-Za-z]{1,3}|bis|ter)?\b/i.exec(s.trim())!;
  return { number: Number(m[1]), rep: m[2] ? m[2].toLowerCase() : null };
}

/** One address of BeST as a row of `addresses`: names in the region's language, keys in every published language. */
export function bestAddress(r: BestRow, project: (xy: [number, number]) => [number, number]) {
  const langs = PRIMARY[r.region_code]!;
  const [lng, lat] = r['EPSG:4326_lat'] !== null && r['EPSG:4326_lon'] !== null ? [r['EPSG:4326_lon'], r['EPSG:4326_lat']] : project([r['EPSG:31370_x']!, r['EPSG:31370_y']!]);
  const { number, rep } = splitHouseNumber(r.house_number);
  const street = pick(r, 'streetname', langs);
  const municipality = pick(r, 'municipality_name', langs);
  const place = pick(r, 'postname', langs) || municipality;
  return {
    lng, lat, number, rep, street, municipality,
    label: `${street} ${r.house_number}, ${r.postcode} ${place}`,
    // Every language variant is a key: "Grote Markt 1, Brussel" and "Grand-Place 1, Bruxelles" both find it.
    streetKey: joinKeys(variants(r, 'streetname').map(streetKey)),
    localityKey: joinKeys([...variants(r, 'municipality_name'), ...variants(r, 'postname')].map(localityKey)),
  };
}

/** Partition of an input: openaddress-bebru.csv -> best.bebru. */
/** Partition of a region's addresses, from the rows' region_code: BE-VLG -> best.bevlg (as BeST names its file). */
export function bestRegionPartition(regionCode: string): string {
  return `best.${regionCode.toLowerCase().replace('-', '')}`;
}

/** Name of an input in its rejects file and logs: openaddress-bevlg.csv -> best.bevlg. */
export function bestPartition(path: string): string {
  return `best.${basename(path).replace(/\.csv(\.gz)?$/i, '').replace(/^openaddress-/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`;
}

/**
 * BeST Address, one regional file (openaddress-bebru/bevlg/bewal.csv) -> the partition of
 * be/addresses of each region its rows name (region_code), whatever the file's name. In it, the
 * input replaces the municipalities it holds (a regional file: the region) and any address of
 * the same id; the region's other municipalities stay.
 */
export async function ingestBestFile(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ',' });
  requireColumns(header, BEST_COLUMNS, 'a BeST openaddress file');
  const partition = bestPartition(input.path);
  await cleanStaleTemporaries(ctx.dataDir, 'be', 'addresses');
  const rejects = new Rejects(ctx.dataDir, 'be', 'addresses', partition, ctx.maxRejectShare);
  await rejects.init();
  // One writer per region the rows name (a regional file names one).
  const writers = new Map<string, TableWriter>();
  const byRegion = new Map<string, TableWriter>();
  const writerOf = async (region: string) => {
    const name = bestRegionPartition(region);
    const w = await TableWriter.open({ dataDir: ctx.dataDir, country: 'be', table: 'addresses', partition: name, columns: ADDRESS_COLUMNS, orderBy: 'cell' });
    writers.set(name, w);
    byRegion.set(region, w);
    return w;
  };
  const progress = createProgress(`be.best ${partition}`, await fileSize(input.path), ctx.progressOut);
  const project = toWgs84('EPSG:31370');
  // A house with several boxes is published once per box, under the same address_id.
  const seen = new Set<string>();
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: ',' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const parsed = BestRow.safeParse(record);
      if (!parsed.success) { rejects.add(line, parsed.error.issues.map((i) => i.message).join('; '), record); continue; }
      const r = parsed.data;
      if (seen.has(r.address_id)) continue;
      seen.add(r.address_id);
      const a = bestAddress(r, project);
      if (!(a.lng > 2 && a.lng < 7 && a.lat > 49 && a.lat < 52)) { rejects.add(line, `position ${a.lng}, ${a.lat} is not in Belgium`, record); continue; }
      (byRegion.get(r.region_code) ?? await writerOf(r.region_code)).append([
        r.address_id, pointCellId(a.lat, a.lng), a.lng, a.lat, a.number, a.rep, a.street, r.postcode, r.municipality_id, a.municipality,
        a.label, a.streetKey, a.localityKey, null, null, bestSource.id,
      ]);
      if ((total & 1023) === 0) progress.tick(total);
    }
    progress.tick(total);
    progress.done();
    rejects.check(total);
    await rejects.close();
    const out: PartitionSummary[] = [];
    for (const [name, writer] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
      // The region's municipalities the input does not hold stay as published.
      const kept = await writer.keepUncovered('locality_code');
      const previous = kept > 0 ? (await partitionEntry(ctx.dataDir, 'be', 'addresses', name))?.sources ?? [] : [];
      writers.delete(name);
      out.push(...await publish(ctx, 'be', 'be.best', bestSource, input, name, [{ table: 'addresses', prepared: await writer.prepare() }], rejects, { kept: previous }));
    }
    return out;
  } catch (e) {
    await rejects.close();
    for (const w of writers.values()) await w.abort();
    throw e;
  }
}
