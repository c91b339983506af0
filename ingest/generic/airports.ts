import { AIRPORTS_SOURCES } from '../../datasets/ourairports/source.ts';
import { profileOf } from '../../datasets/countries.ts';
import type { Country } from '../../schemas/common.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';

/**
 * OurAirports' airports.csv (comma-separated, UTF-8, strings quoted; ourairports.com/help/
 * data-dictionary.html) -> <country>/places as transport.airport, partition `<cc>.airports`, id the
 * row's `id` (OurAirports keeps it when the airport's codes change).
 *
 * Which airports count (access.nearest.airport answers "where do I take a plane"): a row of the
 * country's ISO codes (the profile's isoCodes: France's overseas departments are RE, GP...) whose
 * `type` is large_airport or medium_airport and whose `scheduled_service` is "yes". Left out and
 * counted: other countries, small airfields, heliports, seaplane bases, closed sites, and airports
 * without scheduled airline service (Paris-Le Bourget, Mirabel, air bases). Refused: a row without
 * an id or a WGS84 position.
 */
export const AIRPORT_COLUMNS = {
  id: 'id', ident: 'ident', type: 'type', name: 'name', latitude: 'latitude_deg', longitude: 'longitude_deg', country: 'iso_country',
  scheduled: 'scheduled_service',
  // Optional: served when present (icao_code was added to the file in 2024; older copies lack it).
  region: 'iso_region', municipality: 'municipality', iata: 'iata_code', icao: 'icao_code',
} as const;
const C = AIRPORT_COLUMNS;
const REQUIRED = [C.id, C.ident, C.type, C.name, C.latitude, C.longitude, C.country, C.scheduled];
/** OurAirports types with airline traffic (its map legend: large and medium airports). */
export const AIRPORT_TYPES: ReadonlySet<string> = new Set(['large_airport', 'medium_airport']);

export const airportsPartition = (country: Country) => `${country}.airports`;

/** The row as a place of `country`, or why it is left out or refused. */
export function airportRow(country: Country, r: Record<string, string>): RowOutcome {
  const iso = (r[C.country] ?? '').trim();
  if (!profileOf(country).isoCodes.includes(iso)) return { skip: 'in other countries' };
  const type = (r[C.type] ?? '').trim();
  if (!AIRPORT_TYPES.has(type)) return { skip: `of type ${type || '(empty)'}` };
  if ((r[C.scheduled] ?? '').trim() !== 'yes') return { skip: 'without scheduled airline service' };
  const id = (r[C.id] ?? '').trim();
  if (!/^\d+$/.test(id)) return { reject: `${C.id} "${id}" is not OurAirports' integer identifier` };
  const lat = decimal(r[C.latitude]), lng = decimal(r[C.longitude]);
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return { reject: `${C.latitude}/${C.longitude} "${r[C.latitude] ?? ''}"/"${r[C.longitude] ?? ''}" is not a WGS84 position` };
  const text = (k: string) => (r[k] ?? '').trim() || null;
  return {
    id: `${AIRPORTS_SOURCES[country].id}.${id}`, latitude: lat, longitude: lng, category: 'transport.airport', name: text(C.name),
    attributes: {
      ident: text(C.ident), iata: text(C.iata), icao: text(C.icao), type, municipality: text(C.municipality), region: text(C.region), iso_country: iso,
    },
  };
}

export function ingestAirports(ctx: JobContext, country: Country, input: JobInput): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country, job: 'airports', source: AIRPORTS_SOURCES[country], partition: airportsPartition(country), layout: "OurAirports' airports.csv",
    separator: ',', required: REQUIRED, row: (r) => airportRow(country, r),
  });
}
