import { basename } from 'node:path';
import { z } from 'zod';
import { banSource } from '../../datasets/fr/ban/source.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { localityKey, streetKey } from '../../schemas/tables/address-key.ts';
import { readCsv } from '../core/readers/csv.ts';
import { toWgs84 } from '../core/reproject.ts';
import { pointCell } from '../core/h3.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { TableWriter, cleanStaleTemporaries, fileSize } from '../core/table-writer.ts';
import { createProgress } from '../core/progress.ts';
import { CountingStat } from '../core/counting.ts';

/** Columns of BAN's adresses-XX.csv, in the published order. */
export const BAN_HEADER = [
  'id', 'id_fantoir', 'numero', 'rep', 'nom_voie', 'code_postal', 'code_insee', 'nom_commune', 'code_insee_ancienne_commune',
  'nom_ancienne_commune', 'x', 'y', 'lon', 'lat', 'type_position', 'alias', 'nom_ld', 'libelle_acheminement', 'nom_afnor',
  'source_position', 'source_nom_voie', 'certification_commune', 'cad_parcelles',
] as const;

const num = (s: string) => (s === '' ? null : Number(s));
const optional = (s: string) => (s === '' ? null : s);

/** One BAN row as published: strings in, typed values out, refused with a reason when malformed. */
export const BanRow = z.object({
  id: z.string().min(1, 'empty id'),
  numero: z.string().regex(/^\d{1,5}$/, 'numero is not a number').transform(Number),
  rep: z.string().transform(optional),
  nom_voie: z.string().min(1, 'empty nom_voie'),
  code_postal: z.string().regex(/^(\d{5})?$/, 'code_postal is not 5 digits').transform(optional),
  code_insee: z.string().regex(/^(\d{5}|2[AB]\d{3})$/, 'code_insee is not an INSEE code'),
  nom_commune: z.string().min(1, 'empty nom_commune'),
  x: z.string().transform(num).refine((v) => v === null || Number.isFinite(v), 'x is not a number'),
  y: z.string().transform(num).refine((v) => v === null || Number.isFinite(v), 'y is not a number'),
  lon: z.string().transform(num).refine((v) => v === null || (Number.isFinite(v) && v >= -180 && v <= 180), 'lon out of range'),
  lat: z.string().transform(num).refine((v) => v === null || (Number.isFinite(v) && v >= -90 && v <= 90), 'lat out of range'),
  type_position: z.string().transform(optional),
  cad_parcelles: z.string().transform(optional),
});
export type BanRow = z.infer<typeof BanRow>;

/** Projected system of BAN's x/y columns by department: Lambert-93 in metropolitan France, local UTM overseas. */
export function banCrs(codeInsee: string): string {
  const dep = codeInsee.slice(0, 3);
  if (dep === '971' || dep === '972') return 'EPSG:5490';
  if (dep === '973') return 'EPSG:2972';
  if (dep === '974') return 'EPSG:2975';
  if (dep === '976') return 'EPSG:4471';
  return 'EPSG:2154';
}

const projections = new Map<string, (xy: [number, number]) => [number, number]>();
function project(crs: string, x: number, y: number): [number, number] {
  let fn = projections.get(crs);
  if (!fn) projections.set(crs, (fn = toWgs84(crs)));
  return fn([x, y]);
}

/** Street and locality names repeat (about twenty addresses a street): their keys are computed once. */
function memo(fn: (s: string) => string, max = 200_000): (s: string) => string {
  const cache = new Map<string, string>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= max) cache.clear();
      cache.set(s, (v = fn(s)));
    }
    return v;
  };
}
const streetKeyOf = memo(streetKey);
const localityKeyOf = memo(localityKey);

/** lon/lat and x/y are both published; they must agree, or the row is suspect. */
const MAX_POSITION_GAP_M = 10;

/** Resolves the WGS84 position of a row, or the reason it cannot be trusted. */
export function banPosition(r: BanRow): { lng: number; lat: number } | string {
  const projected = r.x !== null && r.y !== null ? project(banCrs(r.code_insee), r.x, r.y) : null;
  if (r.lon !== null && r.lat !== null) {
    if (projected) {
      const gap = gapM(projected[0], projected[1], r.lon, r.lat);
      if (gap > MAX_POSITION_GAP_M) return `x/y and lon/lat disagree by ${Math.round(gap)} m`;
    }
    return { lng: r.lon, lat: r.lat };
  }
  if (projected) return { lng: projected[0], lat: projected[1] };
  return 'no position (x/y and lon/lat empty)';
}

function gapM(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const x = (lng2 - lng1) * rad * Math.cos(((lat1 + lat2) / 2) * rad);
  const y = (lat2 - lat1) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_008.8;
}

export function banLabel(r: BanRow): string {
  const num = `${r.numero}${r.rep ? ` ${r.rep}` : ''}`;
  return `${num} ${r.nom_voie} ${r.code_postal ?? ''} ${r.nom_commune}`.replace(/\s+/g, ' ').trim();
}

/** Partition name of an input file: adresses-75.csv(.gz) -> adresses-75. */
export function banPartition(path: string): string {
  return basename(path).replace(/\.csv(\.gz)?$/i, '');
}

/** Ingests one BAN departmental file into the partition of the `addresses` table named after it. */
export async function ingestBanFile(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const partition = banPartition(input.path);
  await cleanStaleTemporaries(ctx.dataDir, 'fr', 'addresses');
  const rejects = new Rejects(ctx.dataDir, 'fr', 'addresses', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await TableWriter.open({ dataDir: ctx.dataDir, country: 'fr', table: 'addresses', partition, columns: ADDRESS_COLUMNS, orderBy: 'cell' });
  const progress = createProgress(`fr.ban ${partition}`, await fileSize(input.path), ctx.progressOut);
  const bytes = new CountingStat();
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', onBytes: bytes.add })) {
      total++;
      if (total === 1) checkHeader(Object.keys(record));
      if (error) { rejects.add(line, error, record); continue; }
      const parsed = BanRow.safeParse(record);
      if (!parsed.success) { rejects.add(line, parsed.error.issues.map((i) => i.message).join('; '), record); continue; }
      const r = parsed.data;
      const pos = banPosition(r);
      if (typeof pos === 'string') { rejects.add(line, pos, record); continue; }
      writer.append([
        r.id, pointCell(pos.lat, pos.lng), pos.lng, pos.lat, r.numero, r.rep, r.nom_voie, r.code_postal, r.code_insee,
        r.nom_commune, banLabel(r), streetKeyOf(r.nom_voie), localityKeyOf(r.nom_commune), r.type_position, r.cad_parcelles, banSource.id,
      ]);
      if ((total & 1023) === 0) progress.tick(total, bytes.value);
    }
    progress.tick(total, bytes.value);
    progress.done();
    rejects.check(total);
    await rejects.close();
    const prepared = [{ table: 'addresses', prepared: await writer.prepare() }];
    return await publish(ctx, 'fr', 'fr.ban', banSource, input, partition, prepared, rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}

function checkHeader(columns: string[]): void {
  const missing = BAN_HEADER.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new Error(`not a BAN adresses file: missing columns ${missing.join(', ')}`);
}
