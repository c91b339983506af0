import { createProgress } from '../core/progress.ts';
import { basename } from 'node:path';
import { contaminatedLandSource, CA_CONTAMINATED_CATEGORY } from '../../datasets/ca/contaminated-land/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { openGeoPackage } from '../core/readers/geopackage.ts';
import { Rejects } from '../core/rejects.ts';
import { requireColumns } from '../core/columns.ts';

/** Layers of the Répertoire's GeoPackage and the columns the job reads. */
const POINT = { table: 'point', columns: ['NO_MEF_LIEU', 'LATITUDE', 'LONGITUDE', 'ADR_CIV_LIEU'] };
const FILES = { table: 'detailsFiches', columns: ['NO_MEF_LIEU', 'NO_SEQ_DOSSIER', 'ETAT_REHAB', 'DATE_CRE_MAJ'] };

export type CaSiteStatus = 'confirmed' | 'under_treatment' | 'remediated' | 'unknown';

/**
 * State of the rehabilitation of one file (ETAT_REHAB) -> the spec's status: Initiée (works
 * started) under_treatment; Non débutée (contamination recorded, nothing done yet) confirmed;
 * Non nécessaire (recorded, no works required for the land's use: the contamination stays)
 * confirmed; Terminée remediated. Empty or another value: unknown, never guessed.
 */
export function fileStatus(etat: string | null): CaSiteStatus {
  const t = (etat ?? '').normalize('NFC').trim().toLowerCase();
  if (t.startsWith('initi')) return 'under_treatment';
  if (t.startsWith('non début') || t.startsWith('non debut')) return 'confirmed';
  if (t.startsWith('non nécess') || t.startsWith('non necess')) return 'confirmed';
  if (t.startsWith('termin')) return 'remediated';
  return 'unknown';
}

/**
 * A site's status from its files: works under way on any file win, then a file still
 * contaminated; remediated only when every file is; unknown when no file says.
 */
export function siteStatus(files: CaSiteStatus[]): CaSiteStatus {
  for (const s of ['under_treatment', 'confirmed'] as const) if (files.includes(s)) return s;
  if (files.length > 0 && files.every((s) => s === 'remediated')) return 'remediated';
  return 'unknown';
}

const num = (v: string | null) => (v === null || v.trim() === '' ? NaN : Number(v.trim().replace(',', '.')));

/**
 * The Répertoire des terrains contaminés (GeoPackage as published) into ca/polluted_sites: one
 * point per site (NO_MEF_LIEU) at its LATITUDE/LONGITUDE (NAD83 degrees, within a metre of WGS84),
 * address ADR_CIV_LIEU, status from its files' ETAT_REHAB, updated_on the latest DATE_CRE_MAJ of
 * its files. The Répertoire names no site: name is null. A file without the layers or columns
 * fails naming them, before anything is written; a site without a position or out of Quebec's
 * bounds is refused to the rejects file (line = its row in the point layer).
 */
export async function ingestContaminatedLand(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const gpkg = await openGeoPackage(input.path);
  try {
    const tables = gpkg.tables();
    for (const layer of [POINT, FILES]) {
      if (!tables.includes(layer.table)) throw new Error(`not the Répertoire des terrains contaminés: no layer ${layer.table} in the GeoPackage; found ${tables.join(', ') || 'none'}`);
      const cols = gpkg.columns(layer.table);
      requireColumns(cols, layer.columns, `the Répertoire's layer ${layer.table}`);
    }
    const files = new Map<string, { statuses: CaSiteStatus[]; updated: string | null }>();
    for (const f of gpkg.rows(FILES.table, FILES.columns)) {
      const id = (f.NO_MEF_LIEU ?? '').trim();
      const e = files.get(id) ?? { statuses: [], updated: null };
      e.statuses.push(fileStatus(f.ETAT_REHAB));
      const d = (f.DATE_CRE_MAJ ?? '').trim().slice(0, 10);
      if (/^\d{4}-\d{2}-\d{2}$/.test(d) && (e.updated === null || d > e.updated)) e.updated = d;
      files.set(id, e);
    }
    const partition = contaminatedLandSource.id;
    const rejects = new Rejects(ctx.dataDir, 'ca', 'polluted_sites', partition, ctx.maxRejectShare);
    await rejects.init();
    const writer = await PointsWriter.open(ctx.dataDir, 'ca', 'polluted_sites', partition, contaminatedLandSource.id);
    let total = 0;
    // The file is read whole: the share of its points processed stands for the share of bytes.
    const points = gpkg.count(POINT.table);
    const progress = createProgress(`ca.contaminated-land ${basename(input.path)}`, points, ctx.progressOut);
    try {
      for (const p of gpkg.rows(POINT.table, POINT.columns)) {
        total++;
        progress.tick(total, total);
        const id = (p.NO_MEF_LIEU ?? '').trim();
        if (!id) { rejects.add(total, 'NO_MEF_LIEU: no identifier', p); continue; }
        const [lat, lng] = [num(p.LATITUDE), num(p.LONGITUDE)];
        if (!Number.isFinite(lat) || !Number.isFinite(lng)) { rejects.add(total, 'no position (LATITUDE, LONGITUDE empty or not numbers)', p); continue; }
        // Quebec's extent: a position outside is a swapped or projected pair, not a site here.
        if (!(lat >= 44.9 && lat <= 63 && lng >= -80 && lng <= -57)) { rejects.add(total, `position ${lat}, ${lng} outside Quebec (swapped or projected coordinates?)`, p); continue; }
        const f = files.get(id);
        const why = writer.add({
          id: `${contaminatedLandSource.id}:${id}`, latitude: lat, longitude: lng, category: CA_CONTAMINATED_CATEGORY, name: null,
          attributes: { address: (p.ADR_CIV_LIEU ?? '').replace(/\s+/g, ' ').trim() || null, status: siteStatus(f?.statuses ?? []), updated_on: f?.updated ?? null },
        });
        if (why) rejects.add(total, why, p);
      }
      progress.done();
      if (total === 0) throw new Error(`no site in the point layer of ${input.path}`);
      rejects.check(total);
      await rejects.close();
      return await publish(ctx, 'ca', contaminatedLandSource.id, contaminatedLandSource, input, partition, await writer.prepare(), rejects);
    } catch (e) {
      await rejects.close();
      await writer.abort();
      throw e;
    }
  } finally { gpkg.close(); }
}
