import { chargingSource } from '../../datasets/fr/charging/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import type { PointInput } from '../core/kinds/points.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';
import { inFrance } from './territory.ts';

/**
 * The consolidated IRVE file (static schema 2.x, comma-separated, UTF-8) -> fr/places as
 * transport.charging_station, partition fr.charging. The file has one row per charging point
 * (pdc); a place is a station: its rows are one point with the number of points and the highest
 * nominal power. A station is its roaming id (`id_station_itinerance`); one published "Non
 * concerné" (not open to roaming) is its operator's SIREN and local id.
 */
export const CHARGING_COLUMNS = {
  station: 'id_station_itinerance', localStation: 'id_station_local', siren: 'siren_amenageur', name: 'nom_station', address: 'adresse_station',
  position: 'coordonneesXY', point: 'id_pdc_itinerance', power: 'puissance_nominale', operator: 'nom_operateur', access: 'condition_acces', commune: 'code_insee_commune',
} as const;
const C = CHARGING_COLUMNS;
const REQUIRED = [C.station, C.localStation, C.siren, C.name, C.address, C.position, C.point, C.power];
export const CHARGING_PARTITION = 'fr.charging';

/** coordonneesXY as the schema writes it: "[longitude, latitude]" (brackets optional, spaces allowed). */
export function parseXY(raw: string): [number, number] | null {
  const m = /^\s*\[?\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]?\s*$/.exec(raw);
  if (!m) return null;
  const lng = decimal(m[1]), lat = decimal(m[2]);
  return Number.isFinite(lng) && Number.isFinite(lat) ? [lng, lat] : null;
}

export function chargingRow(r: Record<string, string>): RowOutcome {
  const roaming = (r[C.station] ?? '').trim();
  const local = (r[C.localStation] ?? '').trim(), siren = (r[C.siren] ?? '').trim();
  const notRoaming = roaming === '' || /^non concern/i.test(roaming);
  if (notRoaming && (local === '' || siren === '')) return { reject: `${C.station} is "${roaming}" and ${C.siren}/${C.localStation} do not name the station` };
  const xy = parseXY(r[C.position] ?? '');
  if (!xy) return { reject: `${C.position} "${r[C.position]}" is not "[longitude, latitude]"` };
  const [lng, lat] = xy;
  if (!inFrance(lng, lat)) return { reject: `${C.position} [${lng}, ${lat}] is not in France (swapped longitude and latitude?)` };
  const power = decimal(r[C.power]);
  return {
    id: `${chargingSource.id}.${notRoaming ? `local.${siren}.${local}` : roaming}`, longitude: lng, latitude: lat, category: 'transport.charging_station',
    name: (r[C.name] ?? '').trim() || null,
    attributes: {
      address: (r[C.address] ?? '').trim() || null, operator: (r[C.operator] ?? '').trim() || null, access: (r[C.access] ?? '').trim() || null,
      points: 1, max_power_kw: Number.isFinite(power) ? power : null, commune_code: (r[C.commune] ?? '').trim() || null,
    },
  };
}

/** The rows of one station: points added, the highest power kept, the first row's position and name. */
export function mergeChargingPoints(first: PointInput, next: PointInput): PointInput {
  const a = first.attributes as { points: number; max_power_kw: number | null }, b = next.attributes as { points: number; max_power_kw: number | null };
  const powers = [a.max_power_kw, b.max_power_kw].filter((p): p is number => p !== null);
  return { ...first, attributes: { ...first.attributes, points: a.points + b.points, max_power_kw: powers.length > 0 ? Math.max(...powers) : null } };
}

export function ingestCharging(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country: 'fr', job: 'fr.charging', source: chargingSource, partition: CHARGING_PARTITION, layout: 'the consolidated IRVE file (static schema 2.x)',
    separator: ',', required: REQUIRED, row: chargingRow, merge: mergeChargingPoints,
  });
}
