import { basename } from 'node:path';
import { z } from 'zod';
import type { Country } from '../../schemas/common.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { ABBREVIATIONS_TYPE_POSITION, localityKey, streetKey } from '../../schemas/tables/address-key.ts';
import { pointCellId } from '../core/point-cell.ts';
import type { Source } from '../../datasets/source.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { toWgs84 } from '../core/reproject.ts';
import { publish, type JobContext, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { TableWriter, cleanStaleTemporaries, fileSize } from '../core/table-writer.ts';
import { createProgress } from '../core/progress.ts';

/** Which columns of a producer's CSV hold what (names as in its header). */
export interface AddressColumns {
  id?: string;
  /** "number, street" or "number street" in one column (as CITQ's ADR_CIVIQUE). */
  address?: string;
  number?: string;
  /** A published suffix (bis, ter, a letter), when the producer has a column for it. */
  suffix?: string;
  street?: string;
  postcode?: string;
  locality: string;
  localityCode?: string;
  lng?: string;
  lat?: string;
  x?: string;
  y?: string;
}

export interface GenericAddressesOptions {
  country: Country;
  input: string;
  columns: AddressColumns;
  /** CRS of x/y (or of lng/lat when not WGS84). */
  crs?: string;
  encoding?: string;
  separator?: string;
  partition?: string;
}

/**
 * "3101, boul. Édouard-Montpetit" or "3101 boul. Édouard-Montpetit" -> number, suffix, street.
 * A suffix is bis, ter, quater or a single letter standing alone ("12 B", "12B"), never the
 * start of a word ("1 Rue Joffre") nor an abbreviated street type ("12 r. du Parc", "12 r du
 * Parc", "12 av. du Parc"). A range ("290-292, ch. du Lac") keeps its first number, as the
 * query parser does.
 */
export function splitCivic(text: string): { number: number | null; rep: string | null; street: string } {
  const m = /^\s*(\d{1,6})(?:\s*-\s*\d{1,6}[a-z]?(?=[\s,]))?(?:\s*-?\s*(bis|ter|quater|[a-z])(?=[\s,]|$))?\s*,?\s*(.*)$/i.exec(text);
  if (!m) return { number: null, rep: null, street: text.trim() };
  let rep = m[2] ? m[2].toLowerCase() : null;
  let street = m[3]!.trim();
  // "12 r du Parc": a letter that abbreviates a street type, followed by the name, is the type.
  if (rep && rep.length === 1 && Object.hasOwn(ABBREVIATIONS_TYPE_POSITION, rep) && /^[\p{L}\d]/u.test(street)) {
    street = `${m[2]} ${street}`;
    rep = null;
  }
  if (!street) return { number: null, rep: null, street: text.trim() };
  return { number: Number(m[1]), rep, street };
}

/** A number column ("12", "12B", "12 bis") beside a street column. */
function splitNumber(value: string, street: string): { number: number | null; rep: string | null; street: string } {
  const m = /^\s*(\d{1,6})\s*-?\s*(bis|ter|quater|[a-z])?\s*$/i.exec(value);
  return { number: m ? Number(m[1]) : null, rep: m?.[2] ? m[2].toLowerCase() : null, street };
}

/** A published suffix ("B", "bis", " b ") as stored: lower case, trimmed; null when empty. */
export function publishedSuffix(value: string | undefined): string | null {
  const v = (value ?? '').trim().toLowerCase();
  return v === '' ? null : v;
}

const decimal = (label: string) => z.string().trim().min(1, `${label} empty`)
  .transform((s) => Number(s.replace(',', '.'))).refine(Number.isFinite, `${label} is not a number`);

/**
 * Address points of any producer (municipal or regional files): a CSV whose columns are named on
 * the command line, any separator, encoding and CRS -> a partition of <country>/addresses.
 */
export async function ingestGenericAddresses(ctx: JobContext, o: GenericAddressesOptions): Promise<PartitionSummary[]> {
  const c = o.columns;
  if (!c.address && !c.street) throw new Error('name the street column (--street-column) or the civic address column (--address-column)');
  const positional = c.lng && c.lat ? [c.lng, c.lat] : c.x && c.y ? [c.x, c.y] : null;
  if (!positional) throw new Error('name the position columns: --lng-column and --lat-column, or --x-column and --y-column with --crs');
  const header = await readCsvHeader(o.input, { separator: o.separator, encoding: o.encoding });
  const named = Object.values(c).filter((v): v is string => typeof v === 'string');
  const unknown = named.filter((n) => !header.includes(n));
  if (unknown.length > 0) throw new Error(`column(s) ${unknown.join(', ')} not in the file; its columns are: ${header.join(', ')}`);

  const Row = z.object({
    position: z.tuple([decimal(positional[0]!), decimal(positional[1]!)]),
    locality: z.string().trim().min(1, `${c.locality} empty`),
    civic: z.string().trim().min(1, 'no street'),
  });
  if (c.x && !o.crs) throw new Error('--crs is required with --x-column/--y-column');
  const project = toWgs84(o.crs ?? null);
  const stem = basename(o.input).replace(/\.(csv|txt)(\.gz)?$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
  // The job cannot tell two producers apart: the operator names one with --partition (default:
  // the file name), which also names its source, so its ids are its own natural keys.
  const partition = o.partition ?? `addresses.${stem}`;
  const source: Source = {
    id: `${o.country}.${partition}`, country: o.country, name: basename(o.input), producer: 'given at ingest', licence: 'see producer', licence_url: '',
    attribution: '', url: '', download_url: null, format: 'csv', crs: o.crs ?? 'EPSG:4326', encoding: o.encoding ?? 'utf-8', update_frequency: 'irregular',
    tables: ['addresses'], sample: '',
  };
  await cleanStaleTemporaries(ctx.dataDir, o.country, 'addresses');
  const rejects = new Rejects(ctx.dataDir, o.country, 'addresses', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await TableWriter.open({ dataDir: ctx.dataDir, country: o.country, table: 'addresses', partition, columns: ADDRESS_COLUMNS, orderBy: 'cell' });
  const progress = createProgress(`addresses ${partition}`, await fileSize(o.input), ctx.progressOut);
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(o.input, { separator: o.separator, encoding: o.encoding })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const civic = c.address ? record[c.address]! : `${c.number ? `${record[c.number]} ` : ''}${record[c.street!]}`;
      const parsed = Row.safeParse({ position: [record[positional[0]!], record[positional[1]!]], locality: record[c.locality], civic });
      if (!parsed.success) { rejects.add(line, parsed.error.issues.map((i) => i.message).join('; '), record); continue; }
      const [lng, lat] = project(parsed.data.position);
      if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90)) { rejects.add(line, 'position outside WGS84 bounds: wrong CRS?', record); continue; }
      // Number and street published apart: the street is kept as published, the number column
      // may hold an attached suffix ("12B").
      const split = c.number && !c.address ? splitNumber(record[c.number]!, record[c.street!]!.trim()) : splitCivic(parsed.data.civic);
      const { number, street } = split;
      const rep = (c.suffix ? publishedSuffix(record[c.suffix]) : null) ?? split.rep;
      const postcode = c.postcode ? (record[c.postcode]!.trim() || null) : null;
      const locality = parsed.data.locality;
      const label = `${number ?? ''}${rep ? ` ${rep}` : ''} ${street} ${postcode ?? ''} ${locality}`.replace(/\s+/g, ' ').trim();
      writer.append([
        c.id ? record[c.id]! : `${partition}:${line}`, pointCellId(lat, lng), lng, lat, number, rep, street, postcode,
        c.localityCode ? record[c.localityCode]!.trim() || null : null, locality, label, streetKey(street), localityKey(locality), null, null, source.id,
      ]);
      if ((total & 1023) === 0) progress.tick(total);
    }
    progress.tick(total);
    progress.done();
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, o.country, 'addresses', source, { path: o.input }, partition, [{ table: 'addresses', prepared: await writer.prepare() }], rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
