import { fileProgress } from '../core/progress.ts';
import { basename } from 'node:path';
import { pollutedSiteCategory, pollutedSitesSource } from '../../datasets/fr/polluted-sites/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { requireColumns } from '../core/columns.ts';
import { toWgs84 } from '../core/reproject.ts';

/** Site types of France kept as points (spec 2.10); SIS soil information areas are polygons. */
export const POINT_SITE_TYPES = ['former_industrial_activity', 'contaminated_land', 'suspected_land'] as const;
export type PointSiteType = (typeof POINT_SITE_TYPES)[number];

/** Where each field of a site is in the producer's CSV (columns named by the operator, or a layout's). */
export interface PollutedSitesMapping {
  type: PointSiteType;
  id: string;
  /** The position: WGS84 columns, or projected columns with the CRS they are in (e.g. Lambert-93). */
  lat?: string; lng?: string;
  x?: string; y?: string; crs?: string;
  name?: string; address?: string; status?: string; updated?: string;
  /** Columns joined (", ") into the address: a file that splits it (street, then commune). */
  addressParts?: string[];
  /** A geocoded export: the geocoder's score column, and the score under which a position is refused. */
  score?: string; minScore?: number;
  /** The file's separator when the header cannot tell it (sniffed otherwise). */
  separator?: string;
}

/**
 * Producers' own files, read by name (`--layout`): the columns each publishes.
 * - basol: BASOL, the sites and soils polluted or potentially polluted calling for public action
 *   (contaminated_land), as Géorisques exported it nationally (basol.csv: semicolon-separated,
 *   UTF-8, `numero_basol` the site's number, `sp2_etat` its state in the procedure, Lambert II
 *   étendu `sp1_x`/`sp1_y` and Lambert-93 `sp1_x93`/`sp1_y93` in metres, `sp1_adresse`,
 *   `nom_commune`, `sp1_insee`, `date_publication`): the Lambert-93 pair is read.
 */
export const SITE_LAYOUTS = {
  basol: {
    type: 'contaminated_land', id: 'numero_basol', x: 'sp1_x93', y: 'sp1_y93', crs: 'EPSG:2154', status: 'sp2_etat',
    addressParts: ['sp1_adresse', 'nom_commune'], updated: 'date_publication', separator: ';',
  },
} as const satisfies Record<string, PollutedSitesMapping>;
export type SiteLayout = keyof typeof SITE_LAYOUTS;

const num = (v: string | undefined) => { const t = (v ?? '').trim(); return t === '' ? NaN : Number(t.replace(',', '.')); };

/** A published date as ISO: 2019-03-05, 2019-03-05 10:00:00 or 05/03/2019; null otherwise. */
function isoDate(v: string | null): string | null {
  if (!v) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) return v.slice(0, 10);
  const m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(v);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/**
 * Sites as points into fr/polluted_sites (category polluted_site.<type>), partition
 * `<type>.<file name>` (one whole-territory or regional file per partition). A row without a
 * position, with a position out of WGS84 bounds or, in a geocoded export, a geocoding score under
 * the minimum, is refused to the rejects file with its line and reason: a wrong position would put
 * a polluted site next to the wrong house.
 */
export async function ingestPollutedSites(ctx: JobContext, input: JobInput, m: PollutedSitesMapping): Promise<PartitionSummary[]> {
  if (!((m.lat && m.lng) || (m.x && m.y && m.crs))) throw new Error('the sites file needs its position columns: --lat-column and --lng-column (WGS84), or --x-column, --y-column and --crs');
  const header = await readCsvHeader(input.path, { separator: m.separator });
  const named = [m.id, m.lat, m.lng, m.x, m.y, m.name, m.address, ...(m.addressParts ?? []), m.status, m.updated, m.score].filter((c): c is string => c !== undefined);
  requireColumns(header, named, `the sites file this mapping reads (${m.type})`);
  const project = m.x && m.y && m.crs ? toWgs84(m.crs) : null;
  const partition = `${m.type}.${basename(input.path).replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '_')}`;
  const rejects = new Rejects(ctx.dataDir, 'fr', 'polluted_sites', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'fr', 'polluted_sites', partition, pollutedSitesSource.id);
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: m.separator, progress: fileProgress(ctx, 'fr.polluted-sites', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const id = (record[m.id] ?? '').trim();
      if (!id) { rejects.add(line, `${m.id}: no identifier`, record); continue; }
      const [a, b] = project ? [num(record[m.x!]), num(record[m.y!])] : [num(record[m.lng!]), num(record[m.lat!])];
      if (!Number.isFinite(a) || !Number.isFinite(b)) { rejects.add(line, `no position (${project ? `${m.x}, ${m.y}` : `${m.lat}, ${m.lng}`} empty or not numbers)`, record); continue; }
      // A projected position of 0 is the producer's "not located", not a point off Africa.
      if (project && (a === 0 || b === 0)) { rejects.add(line, `no position (${m.x}, ${m.y} zero: not located)`, record); continue; }
      const [lng, lat] = project ? project([a, b]) : [a, b];
      if (m.score && m.minScore !== undefined) {
        const score = num(record[m.score]);
        if (!(score >= m.minScore)) { rejects.add(line, `geocoding score ${record[m.score] || 'empty'} under ${m.minScore}`, record); continue; }
      }
      const text = (c?: string) => (c ? (record[c] ?? '').trim() || null : null);
      const address = m.addressParts ? m.addressParts.map((c) => text(c)).filter((t) => t !== null).join(', ') || null : text(m.address);
      const why = writer.add({
        id: `${pollutedSitesSource.id}:${id}`, latitude: lat, longitude: lng, category: pollutedSiteCategory(m.type), name: text(m.name),
        attributes: { address, status: text(m.status), updated_on: isoDate(text(m.updated)) },
      });
      if (why) rejects.add(line, why, record);
    }
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'fr', pollutedSitesSource.id, pollutedSitesSource, input, partition, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
