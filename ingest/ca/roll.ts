import { tableDir } from '../../schemas/tables/layout.ts';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { z } from 'zod';
import { montrealRollSource } from '../../datasets/ca/sources.ts';
import { ADDRESS_COLUMNS } from '../../schemas/tables/addresses.ts';
import { localityKey, streetKey } from '../../schemas/tables/address-key.ts';
import { pointCellId } from '../core/point-cell.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { TableWriter, cleanStaleTemporaries, fileSize } from '../core/table-writer.ts';
import { createProgress } from '../core/progress.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * MUNICIPALITE codes of Montreal's roll and the municipality they designate (the street suffixes
 * of the published file say which: (MTL), (WMT), (CSL), (KRK), (MTR), (MTE)).
 */
export const ROLL_MUNICIPALITIES: Record<string, { code: string; name: string }> = {
  '50': { code: '66023', name: 'Montréal' },
  '29': { code: '66032', name: 'Westmount' },
  '04': { code: '66058', name: 'Côte-Saint-Luc' },
  '10': { code: '66102', name: 'Kirkland' },
  '13': { code: '66072', name: 'Mont-Royal' },
  '14': { code: '66007', name: 'Montréal-Est' },
};

const ROLL_COLUMNS = ['ID_UEV', 'CIVIQUE_DEBUT', 'NOM_RUE', 'MUNICIPALITE', 'LETTRE_DEBUT'] as const;

export const RollRow = z.object({
  ID_UEV: z.string().trim().min(1, 'ID_UEV empty'),
  CIVIQUE_DEBUT: z.string().trim().regex(/^\d{1,5}$/, 'CIVIQUE_DEBUT is not a civic number').refine((v) => v !== '99999', 'civic number 99999: a lot without an address'),
  // "rue Eadie  (MTL)": the odonym, then the codes of the municipalities the street crosses.
  NOM_RUE: z.string().trim().min(1, 'NOM_RUE empty').transform((s) => s.replace(/\s*\([A-Z+]+\)\s*$/, '').trim()),
  MUNICIPALITE: z.string().trim().refine((c) => c in ROLL_MUNICIPALITIES, 'MUNICIPALITE is not a known municipality code of the roll'),
  LETTRE_DEBUT: z.string().trim().optional().default(''),
});

interface Known { number: number; lng: number; lat: number }

/**
 * A position for a number missing from the official addresses of its street: interpolated by
 * number between the nearest published numbers on the same side (same parity) below and above.
 */
export function interpolate(known: Known[], n: number): { lng: number; lat: number } | null {
  const side = known.filter((k) => k.number % 2 === n % 2);
  let lo: Known | undefined, hi: Known | undefined;
  for (const k of side) {
    if (k.number < n && (!lo || k.number > lo.number)) lo = k;
    if (k.number > n && (!hi || k.number < hi.number)) hi = k;
  }
  if (!lo || !hi) return null;
  const t = (n - lo.number) / (hi.number - lo.number);
  const r = (v: number) => Math.round(v * 1e7) / 1e7;
  return { lng: r(lo.lng + t * (hi.lng - lo.lng)), lat: r(lo.lat + t * (hi.lat - lo.lat)) };
}

/**
 * Montreal's assessment roll units (uniteevaluationfonciere.csv) as addresses where they add a
 * civic number the official addresses lack (spec 2.6: their zipcode is null). The roll has no
 * coordinates: a unit is placed along its street between the official numbers around it, and
 * refused when the street has no such numbers. Reads the `ca/addresses` already ingested.
 */
export async function ingestMontrealRoll(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path);
  requireColumns(header, ROLL_COLUMNS, "Montreal's uniteevaluationfonciere.csv");
  const partition = `roll.${basename(input.path).replace(/\.csv(\.gz)?$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`;
  const official = await officialStreets(ctx.dataDir, partition);
  if (official.size === 0) throw new Error('no official Quebec address ingested yet: run ca.adresses-quebec (or the addresses job) first, the roll is placed along their streets');
  await cleanStaleTemporaries(ctx.dataDir, 'ca', 'addresses');
  const rejects = new Rejects(ctx.dataDir, 'ca', 'addresses', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await TableWriter.open({ dataDir: ctx.dataDir, country: 'ca', table: 'addresses', partition, columns: ADDRESS_COLUMNS, orderBy: 'cell' });
  const progress = createProgress(`ca.montreal-roll ${partition}`, await fileSize(input.path), ctx.progressOut);
  const written = new Set<string>();
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: ',' })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const parsed = RollRow.safeParse(record);
      if (!parsed.success) { rejects.add(line, parsed.error.issues.map((i) => i.message).join('; '), record); continue; }
      const r = parsed.data;
      const municipality = ROLL_MUNICIPALITIES[r.MUNICIPALITE]!;
      const number = Number(r.CIVIQUE_DEBUT);
      const rep = r.LETTRE_DEBUT === '' ? null : r.LETTRE_DEBUT.toLowerCase();
      const key = `${localityKey(municipality.name)}|${streetKey(r.NOM_RUE)}`;
      const known = official.get(key);
      // Several units (condominiums) share an address; an address already published is not repeated.
      const id = `${key}|${number}|${rep ?? ''}`;
      if (written.has(id) || known?.some((k) => k.number === number)) continue;
      if (!known) { rejects.add(line, `no official address on ${r.NOM_RUE} in ${municipality.name} to place the unit along`, record); continue; }
      const at = interpolate(known, number);
      if (!at) { rejects.add(line, `no official number on both sides of ${number} ${r.NOM_RUE} to place the unit between`, record); continue; }
      written.add(id);
      writer.append([
        r.ID_UEV, pointCellId(at.lat, at.lng), at.lng, at.lat, number, rep, r.NOM_RUE, null, municipality.code, municipality.name,
        `${number}${rep ? ` ${rep}` : ''}, ${r.NOM_RUE}, ${municipality.name}`, streetKey(r.NOM_RUE), localityKey(municipality.name),
        'interpolated', null, montrealRollSource.id,
      ]);
      if ((total & 1023) === 0) progress.tick(total);
    }
    progress.tick(total);
    progress.done();
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'ca', 'ca.montreal-roll', montrealRollSource, input, partition, [{ table: 'addresses', prepared: await writer.prepare() }], rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}

/** Official numbers per locality and street of ca/addresses, without the roll's own partition. */
async function officialStreets(dataDir: string, ownPartition: string): Promise<Map<string, Known[]>> {
  const dir = tableDir(dataDir, 'ca', 'addresses');
  const out = new Map<string, Known[]>();
  if (!existsSync(dir)) return out;
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const glob = quotedString(join(dir, '*.parquet'));
    const own = `${ownPartition}.parquet`;
    const reader = await c.runAndReadAll(
      `SELECT locality_key, street_key, number, longitude, latitude FROM read_parquet(${glob}, filename = true, union_by_name = true)
       WHERE number IS NOT NULL AND NOT ends_with(filename, $1) AND source <> $2`, [own, montrealRollSource.id],
    );
    for (const r of reader.getRowObjectsJS() as { locality_key: string; street_key: string; number: number; longitude: number; latitude: number }[]) {
      const key = `${r.locality_key}|${r.street_key}`;
      const list = out.get(key) ?? [];
      list.push({ number: r.number, lng: r.longitude, lat: r.latitude });
      out.set(key, list);
    }
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  return out;
}
