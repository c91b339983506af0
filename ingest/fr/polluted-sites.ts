import { basename } from 'node:path';
import { pollutedSiteCategory, pollutedSitesSource } from '../../datasets/fr/polluted-sites/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { requireColumns } from '../core/columns.ts';

/** Site types of France kept as points (spec 2.10); SIS soil information areas are polygons. */
export const POINT_SITE_TYPES = ['former_industrial_activity', 'contaminated_land', 'suspected_land'] as const;
export type PointSiteType = (typeof POINT_SITE_TYPES)[number];

/** Where each field of a site is in the producer's CSV (columns named by the operator). */
export interface PollutedSitesMapping {
  type: PointSiteType;
  id: string; lat: string; lng: string;
  name?: string; address?: string; status?: string; updated?: string;
  /** A geocoded export: the geocoder's score column, and the score under which a position is refused. */
  score?: string; minScore?: number;
}

const num = (v: string | undefined) => { const t = (v ?? '').trim(); return t === '' ? NaN : Number(t.replace(',', '.')); };

/**
 * Sites as points into fr/polluted_sites (category polluted_site.<type>), partition
 * `<type>.<file name>` (one whole-territory or regional file per partition). A row without a
 * position, with a position out of WGS84 bounds or, in a geocoded export, a geocoding score under
 * the minimum, is refused to the rejects file with its line and reason: a wrong position would put
 * a polluted site next to the wrong house.
 */
export async function ingestPollutedSites(ctx: JobContext, input: JobInput, m: PollutedSitesMapping): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path);
  const named = [m.id, m.lat, m.lng, m.name, m.address, m.status, m.updated, m.score].filter((c): c is string => c !== undefined);
  requireColumns(header, named, `the sites file this mapping reads (${m.type})`);
  const partition = `${m.type}.${basename(input.path).replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '_')}`;
  const rejects = new Rejects(ctx.dataDir, 'fr', 'polluted_sites', partition, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'fr', 'polluted_sites', partition, pollutedSitesSource.id);
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { progress: { label: `fr.polluted-sites ${basename(input.path)}`, out: ctx.progressOut } })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      const id = (record[m.id] ?? '').trim();
      if (!id) { rejects.add(line, `${m.id}: no identifier`, record); continue; }
      const [lat, lng] = [num(record[m.lat]), num(record[m.lng])];
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) { rejects.add(line, `no position (${m.lat}, ${m.lng} empty or not numbers)`, record); continue; }
      if (m.score && m.minScore !== undefined) {
        const score = num(record[m.score]);
        if (!(score >= m.minScore)) { rejects.add(line, `geocoding score ${record[m.score] || 'empty'} under ${m.minScore}`, record); continue; }
      }
      const text = (c?: string) => (c ? (record[c] ?? '').trim() || null : null);
      const updated = text(m.updated);
      const why = writer.add({
        id: `${pollutedSitesSource.id}:${id}`, latitude: lat, longitude: lng, category: pollutedSiteCategory(m.type), name: text(m.name),
        attributes: { address: text(m.address), status: text(m.status), updated_on: updated && /^\d{4}-\d{2}-\d{2}/.test(updated) ? updated.slice(0, 10) : null },
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
