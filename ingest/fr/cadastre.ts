import { fileProgress } from '../core/progress.ts';
import type { MultiPolygon, Polygon } from 'geojson';
import { PARCEL_LAYER, cadastreSource } from '../../datasets/fr/cadastre/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { AreasWriter } from '../core/kinds/areas.ts';
import { StageDatabase, fileSha256, type PreparedTable } from '../core/table-writer.ts';
import { withManifestBatch } from '../core/manifest.ts';
import { basename } from 'node:path';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { reprojectGeometry, toWgs84, type ToWgs84 } from '../core/reproject.ts';

/** The table of parcels (areas table kind: schemas/tables/areas.ts). */
export const PARCELS_TABLE = 'parcels';
/** Properties every parcel feature of Etalab's file carries; a file without them is not this layer. */
const REQUIRED = ['id', 'commune', 'prefixe', 'section', 'numero'] as const;

/** Parcel id: commune (2A/2B in Corsica), prefix, section (2 characters, 0-padded), number (4 digits). */
const PARCEL_ID = /^(\d{2}|2A|2B)\d{3}\d{3}[0-9A-Z]{2}\d{4}$/;

/** The cadastral reference as written on a deed: `[prefix] section number` (`AB 237`, `012 A 5`). */
export function parcelReference(prefixe: string, section: string, numero: string): string {
  const prefix = prefixe && prefixe !== '000' ? `${prefixe} ` : '';
  return `${prefix}${section.replace(/^0/, '')} ${Number(numero)}`;
}

/** What fr/parcels keeps of a parcel (attributes of its area row). */
export interface ParcelAttributes { parcel_id: string; reference: string; area_m2: number | null; commune: string; updated: string | null }

/** A feature's properties as a parcel, or why it is refused. */
export function parcelOf(props: Record<string, unknown>): ParcelAttributes | string {
  const text = (k: string) => (props[k] === null || props[k] === undefined ? '' : String(props[k]).trim());
  const id = text('id'), commune = text('commune'), prefixe = text('prefixe'), section = text('section'), numero = text('numero');
  if (!PARCEL_ID.test(id)) return `id ${JSON.stringify(props.id ?? null)} is not a 14-character parcel id`;
  if (!/^(\d{2}|2A|2B)\d{3}$/.test(commune)) return `commune ${JSON.stringify(props.commune ?? null)} is not an INSEE code`;
  if (!/^\d{3}$/.test(prefixe) || !/^[0-9A-Z]{1,2}$/.test(section) || !/^\d{1,4}$/.test(numero)) return `prefixe/section/numero ${JSON.stringify([props.prefixe, props.section, props.numero])} are not a cadastral reference`;
  const built = `${commune}${prefixe}${section.padStart(2, '0')}${numero.padStart(4, '0')}`;
  if (built !== id) return `id ${id} disagrees with commune, prefixe, section and numero (${built})`;
  // contenance is absent on some parcels: the area is unknown (null), never zero.
  let area: number | null = null;
  if (props.contenance !== undefined && props.contenance !== null) {
    const n = Number(props.contenance);
    if (typeof props.contenance === 'boolean' || !Number.isInteger(n) || n < 0) return `contenance ${JSON.stringify(props.contenance)} is not a whole number of square meters`;
    area = n;
  }
  const updated = /^\d{4}-\d{2}-\d{2}$/.test(text('updated')) ? text('updated') : null;
  return { parcel_id: id, reference: parcelReference(prefixe, section, numero), area_m2: area, commune, updated };
}

/** The partition of a parcel: its commune, as Etalab names its files (`cadastre-91326`). */
export const parcelPartition = (commune: string) => `cadastre-${commune}`;

/**
 * Etalab's cadastre parcels (`cadastre-<insee>-parcelles.json[.gz]`, a FeatureCollection in
 * WGS84) into fr/parcels and its cover fr/parcels_cells, one partition per commune named from the
 * rows' `commune` (a file of several communes lands in each; the same commune under any file name
 * replaces the same partition). Rows whose id disagrees with its parts, whose contenance is not a
 * whole number, or whose geometry is not a polygon are refused with their feature number; a file
 * without the parcel properties fails naming them, before anything is written.
 */
export async function ingestCadastre(ctx: JobContext, input: JobInput, run?: CadastreRun): Promise<PartitionSummary[]> {
  const parts = new Map<string, { writer: AreasWriter; rejects: Rejects; total: number }>();
  const partOf = async (commune: string) => {
    const partition = parcelPartition(commune);
    let p = parts.get(partition);
    if (!p) {
      // In a run of several files, a commune comes from one file: which one would win would otherwise depend on the files' order.
      const earlier = run?.fileOf.get(partition);
      if (earlier !== undefined) throw new Error(`commune ${commune} is both in ${earlier} and in ${basename(input.path)}: give each commune in one file`);
      const rejects = new Rejects(ctx.dataDir, 'fr', PARCELS_TABLE, partition, ctx.maxRejectShare);
      await rejects.init();
      p = { writer: await AreasWriter.open(ctx.dataDir, 'fr', PARCELS_TABLE, partition, cadastreSource.id, run?.stage), rejects, total: 0 };
      parts.set(partition, p);
    }
    return p;
  };
  // Rows without a usable commune are counted against the file's first commune.
  const orphans: { index: number; reason: string; props: unknown }[] = [];
  let total = 0;
  let project: { crs: string | null; fn: ToWgs84 } | null = null;
  try {
    for await (const { index, feature, crs } of readFeatures(input.path, { progress: fileProgress(ctx, 'fr.cadastre', input.path) })) {
      total++;
      const props = (feature.properties ?? {}) as Record<string, unknown>;
      if (total === 1) {
        const missing = REQUIRED.filter((k) => !(k in props));
        if (missing.length > 0) throw new Error(`not Etalab's cadastre parcels: the features lack the propert${missing.length > 1 ? 'ies' : 'y'} ${missing.join(', ')}; found ${Object.keys(props).slice(0, 8).join(', ') || 'none'}`);
      }
      if (!project || project.crs !== crs) project = { crs, fn: toWgs84(crs) };
      const parcel = parcelOf(props);
      const commune = typeof parcel === 'string' ? String(props.commune ?? '') : parcel.commune;
      if (!/^(\d{2}|2A|2B)\d{3}$/.test(commune)) { orphans.push({ index, reason: typeof parcel === 'string' ? parcel : 'no commune', props }); continue; }
      const p = await partOf(commune);
      p.total++;
      if (typeof parcel === 'string') { p.rejects.add(index, parcel, props); continue; }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { p.rejects.add(index, `geometry must be a Polygon or MultiPolygon, not ${g?.type ?? 'none'}`, props); continue; }
      const why = p.writer.add({ id: `${cadastreSource.id}:${parcel.parcel_id}`, layer: PARCEL_LAYER, geometry: reprojectGeometry(g, project.fn) as Polygon | MultiPolygon, attributes: { ...parcel } });
      if (why) p.rejects.add(index, why, props);
    }
    if (total === 0) throw new Error(`no feature in ${input.path}`);
    if (parts.size === 0) throw new Error(`no parcel of ${input.path} names a commune: ${orphans[0]?.reason}`);
    const first = [...parts.values()][0]!;
    for (const o of orphans) { first.rejects.add(o.index, o.reason, o.props); first.total++; }
    const prepared: { partition: string; rejects: Rejects; tables: { table: string; prepared: PreparedTable }[] }[] = [];
    for (const [partition, p] of parts) {
      p.rejects.check(p.total);
      await p.rejects.close();
      prepared.push({ partition, rejects: p.rejects, tables: await p.writer.prepare() });
    }
    // The input's checksum once, not once per commune of a department file.
    const hashed = { ...input, sha256: input.sha256 ?? await fileSha256(input.path) };
    const out: PartitionSummary[] = [];
    for (const p of prepared) {
      run?.fileOf.set(p.partition, basename(input.path));
      out.push(...await publish(ctx, 'fr', cadastreSource.id, cadastreSource, hashed, p.partition, p.tables, p.rejects));
    }
    return out;
  } catch (e) {
    for (const p of parts.values()) { await p.rejects.close(); await p.writer.abort(); }
    throw e;
  }
}

/** What the files of one run share: its staging database, and the file each commune came from. */
export interface CadastreRun { stage: StageDatabase; fileOf: Map<string, string> }

/**
 * Several of Etalab's files in one run (a folder of `cadastre-<insee>-parcelles.json[.gz]`, as
 * published per commune or per department): each file as ingestCadastre reads it, but one staging
 * database for the run instead of two per commune, the leftovers of killed runs removed once, and
 * the manifest written once at the end (withManifestBatch). A file's partitions are published
 * when it is done; a file that fails stops the run, the files before it stay published and
 * recorded. A commune found in two files of the run fails the second (which would win would
 * depend on the order of the files): the partitions are the rows' communes, whatever the names.
 */
export async function ingestCadastreFiles(ctx: JobContext, inputs: JobInput[]): Promise<PartitionSummary[]> {
  await AreasWriter.cleanStale(ctx.dataDir, 'fr', PARCELS_TABLE);
  const run: CadastreRun = { stage: await StageDatabase.open(ctx.dataDir, 'fr', 'cadastre'), fileOf: new Map() };
  try {
    return await withManifestBatch(ctx.dataDir, async () => {
      const out: PartitionSummary[] = [];
      for (const [i, input] of inputs.entries()) {
        // A fresh database now and then: what the dropped tables leave (file, cache) does not build up over a national run.
        if (i > 0 && i % STAGE_FILES === 0) { await run.stage.close(); run.stage = await StageDatabase.open(ctx.dataDir, 'fr', 'cadastre'); }
        out.push(...await ingestCadastre(ctx, input, run));
      }
      return out;
    });
  } finally {
    await run.stage.close();
  }
}

/** Files staged in one database before it is replaced by a new one. */
const STAGE_FILES = 500;
