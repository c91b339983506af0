import { fileProgress } from '../core/progress.ts';
import { stationsSource } from '../../datasets/fr/stations/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * SNCF's passenger stations (gares-de-voyageurs.csv) -> fr/places as transport.train_station, one
 * partition for the national file. The file publishes no lines: a station's lines are an empty
 * list (`lines_published: false`); the same station in a GTFS feed is served once (docs/places.md).
 */
/**
 * The portal exports the dataset with its field labels (`use_labels=true`, the download button's
 * default) or its field names: both are read. Fields of the dataset (data.sncf.com,
 * gares-de-voyageurs): nom, libellecourt (the trigramme), segment_drg, position_geographique
 * (a geo point, "lat, lon" in CSV), codeinsee, codes_uic; newer exports add id and niveau_de_service.
 */
const LABELS = { name: 'Nom', code: 'Trigramme', position: 'Position géographique', commune: 'Code commune', uic: 'Code(s) UIC' } as const;
const FIELDS = { name: 'nom', code: 'libellecourt', position: 'position_geographique', commune: 'codeinsee', uic: 'codes_uic' } as const;
export const STATIONS_PARTITION = 'fr.stations';

export async function ingestStations(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const header = await readCsvHeader(input.path, { separator: ';' });
  const COLUMNS = header.includes(FIELDS.name) && header.includes(FIELDS.position) ? FIELDS : LABELS;
  requireColumns(header, [COLUMNS.name, COLUMNS.code, COLUMNS.position], `SNCF's gares-de-voyageurs file (an export of field names has ${[FIELDS.name, FIELDS.code, FIELDS.position].join(', ')})`);
  const rejects = new Rejects(ctx.dataDir, 'fr', 'places', STATIONS_PARTITION, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'fr', 'places', STATIONS_PARTITION, stationsSource.id);
  let total = 0;
  try {
    for await (const { line, record, error } of readCsv(input.path, { separator: ';', progress: fileProgress(ctx, 'fr.stations', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      // "lat, lon" in one field (the portal's geo point).
      const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(record[COLUMNS.position] ?? '');
      if (!m) { rejects.add(line, `${COLUMNS.position} is not "lat, lon"`, record); continue; }
      const code = (record[COLUMNS.code] ?? '').trim();
      if (code === '') { rejects.add(line, `${COLUMNS.code} is empty`, record); continue; }
      const uic = (record[COLUMNS.uic] ?? '').split(/[;,\s]+/).filter((u) => u !== '');
      const why = writer.add({
        id: `${stationsSource.id}.${code}`, latitude: Number(m[1]), longitude: Number(m[2]), category: 'transport.train_station', name: record[COLUMNS.name] ?? null,
        attributes: { lines: [], lines_published: false, uic, commune_code: (record[COLUMNS.commune] ?? '').trim() || null },
      });
      if (why) rejects.add(line, why, record);
    }
    rejects.check(total);
    await rejects.close();
    return await publish(ctx, 'fr', 'fr.stations', stationsSource, input, STATIONS_PARTITION, await writer.prepare(), rejects);
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
