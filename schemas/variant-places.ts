import { z } from 'zod';
import { type CodeCatalogue, enumOf } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Place } from './place.ts';
import { Pagination, PlaceCounts } from './places.ts';

/**
 * The multi-country variant's amenities and transport (spec 2.12), computed from the places and
 * access of each country (spec 2.11): the same places, under the variant's names, each with the
 * source that publishes it (an id of meta.sources when the catalogue describes it).
 */

/** A Place of the variant: spec 2.5's Place with `source`. */
export const VariantPlace = Place.extend({
  source: z.string().describe('identifier of the source publishing the place (meta.sources; a GTFS feed is <country>.gtfs.<agencies>)'),
});
export type VariantPlace = z.infer<typeof VariantPlace>;

/**
 * data.amenities: the country's data.places (counts per group within the radius, default 1000 m,
 * whatever is listed; the first page of places nearest first), each place with its source.
 */
export const Amenities = z.object({
  status: DomainStatus,
  radius_m: z.number().int().describe('radius of the counts and the list, meters'),
  counts: PlaceCounts,
  items: z.array(VariantPlace),
  pagination: Pagination,
  missing: Missing,
});
export type Amenities = z.infer<typeof Amenities>;

/** Modes of a transit line (GTFS route_type, basic and extended types, grouped). */
export const TRANSPORT_MODES = {
  rail: { fr: 'Train', en: 'Rail' },
  metro: { fr: 'Métro', en: 'Metro' },
  tram: { fr: 'Tramway', en: 'Tram' },
  bus: { fr: 'Bus', en: 'Bus' },
  ferry: { fr: 'Bateau', en: 'Ferry' },
  cable: { fr: 'Transport par câble', en: 'Cable transport' },
} as const satisfies CodeCatalogue<string>;
export const TransportMode = enumOf(TRANSPORT_MODES);
export type TransportMode = z.infer<typeof TransportMode>;
export const TRANSPORT_MODE_CODES = Object.keys(TRANSPORT_MODES) as TransportMode[];

/** A line calling at a stop, as its feed's routes.txt publishes it. */
export const TransportLine = z.object({
  short_name: z.string().nullable(),
  long_name: z.string().nullable(),
  mode: TransportMode.nullable().describe('null when the route_type is none the service knows'),
  color: z.string().regex(/^#[0-9A-F]{6}$/).nullable().describe('route_color as #RRGGBB; null when the feed gives none'),
});
export type TransportLine = z.infer<typeof TransportLine>;

/** A transit stop or station within the radius (spec 2.12). */
export const TransportStop = z.object({
  id: z.string().regex(/^plc_/).describe('the place id of data.amenities'),
  name: z.string().nullable(),
  modes: z.array(TransportMode).describe('modes of its lines; without lines published, the mode of its category (a train station: rail); empty when unknown'),
  lines: z.array(TransportLine).describe('lines calling at the stop (its twins\' too); empty when the feed publishes no trips'),
  wheelchair_accessible: z.boolean().nullable().describe('GTFS wheelchair_boarding: true when a stop point has an accessible path, false when none has, null when not published'),
  latitude: z.number(),
  longitude: z.number(),
  distance_m: z.number().int(),
  source: z.string(),
});
export type TransportStop = z.infer<typeof TransportStop>;

/** Stops within the radius serving each mode (a stop of two modes counts in both); null while no stop is ingested for the country. */
export const StopsByMode = z.object(Object.fromEntries(TRANSPORT_MODE_CODES.map((m) => [m, z.number().int().min(0).nullable()])) as Record<TransportMode, z.ZodNullable<z.ZodNumber>>);

/**
 * data.transport (spec 2.12): the transit stops within the radius (default 1000 m) nearest first
 * (the first TRANSPORT_STOP_ITEMS), how many serve each mode, and the nearest train station, airport,
 * road access (motorway access) and charging station however far within the country.
 */
export const Transport = z.object({
  status: DomainStatus,
  radius_m: z.number().int(),
  stops: z.array(TransportStop),
  stops_by_mode: StopsByMode,
  nearest: z.object({
    train_station: VariantPlace.nullable(),
    airport: VariantPlace.nullable(),
    road_access: VariantPlace.nullable().describe('the nearest motorway access (access.nearest.highway_access of the country routes)'),
    charging_station: VariantPlace.nullable(),
  }),
  missing: Missing,
});
export type Transport = z.infer<typeof Transport>;

/** A domain of the variant answered without being computed here: status and missing only. */
export const VariantPendingDomain = z.object({ status: DomainStatus, missing: Missing });
