import { z } from 'zod';
import { PLACE_GROUP_CODES } from './categories.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Place } from './place.ts';

/**
 * Pagination of a list route (spec 4.1: page, per_page up to 100; spec 4.5 leaves the shape to the
 * service): the page served (from 1), its size, and the number of items of the whole list.
 */
export const Pagination = z.object({
  page: z.number().int().min(1).describe('page served, from 1'),
  per_page: z.number().int().min(1).max(100).describe('items per page, at most 100'),
  total: z.number().int().min(0).describe('items of the whole list (every page)'),
});

/**
 * Number of places within the radius per group of the taxonomy, whatever the `category` filter;
 * every group present: 0 when none is around, null (missing: unavailable) when no source of the
 * group is ingested for the country.
 */
export const PlaceCounts = z.object(Object.fromEntries(PLACE_GROUP_CODES.map((g) => [g, z.number().int().min(0).nullable()])) as Record<(typeof PLACE_GROUP_CODES)[number], z.ZodNullable<z.ZodNumber>>);

/**
 * data.places (spec 2.11): places within the radius (default 1000 m), nearest first; `category`
 * restricts items and counts to a group or category. A place published by several sources is
 * served once (docs/places.md, the merge rule). In a report the list is its first page.
 */
export const Places = z.object({
  status: DomainStatus,
  radius_m: z.number().int().describe('radius of the list, meters'),
  counts: PlaceCounts,
  items: z.array(Place),
  pagination: Pagination,
  missing: Missing,
});
export type Places = z.infer<typeof Places>;

/**
 * data.access (spec 2.11): the nearest station, airport, motorway access and school however far
 * within the country (null when none is published there), and the lists of each kind within the radius.
 */
export const Access = z.object({
  status: DomainStatus,
  radius_m: z.number().int(),
  nearest: z.object({ station: Place.nullable(), airport: Place.nullable(), highway_access: Place.nullable(), school: Place.nullable() }),
  stations: z.array(Place),
  airports: z.array(Place),
  highway_accesses: z.array(Place),
  fuel_stations: z.array(Place),
  charging_stations: z.array(Place),
  missing: Missing,
});
export type Access = z.infer<typeof Access>;
