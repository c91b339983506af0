import type { z } from 'zod';
import type { Country, Locale } from '../../../schemas/common.ts';
import type { Domain, DomainStatus, Warning } from '../../../schemas/domain.ts';
import type { Location } from '../../../schemas/location.ts';
import type { Zone } from '../../../schemas/zone.ts';
import type { Clock } from '../../core/clock.ts';
import type { Manifests } from '../../core/manifests.ts';
import type { AnyRoute } from '../../core/routes.ts';
import type { MemoryTable } from '../../core/warehouse.ts';
import type { LocateDeps } from '../locate.ts';

/** A table of data/<country>/ (schemas/tables/). */
export type TableName = string;

/** What the location module's routes and resolvers are given (passed in, so tests build them on fixtures). */
export interface LocationRouteDeps extends LocateDeps { manifests: Manifests; clock: Clock }

/** A field of GET /catalog/fields: its definition and what backs it. */
export interface FieldDef {
  id: string;
  domain: string;
  label: Record<Locale, string>;
  definition: Record<Locale, string>;
  unit: string | null;
  /** Source ids and table that back the field; none means computed from the request. */
  sources: string[];
  /**
   * Families of sources named at ingest (a GTFS feed is `<cc>.gtfs.<agencies>`): /catalog/fields
   * lists, after `sources`, the ingested sources of `table` whose id starts with a prefix and a dot.
   */
  sourcePrefixes?: string[];
  table: TableName | null;
  countries: Country[];
  /** Territories covered when the source does not cover the whole country (coverage partial). */
  territories?: string[];
}

/** What a report resolver knows of the request: the place already located, and the report parameters. */
export interface ResolveContext {
  country: Country;
  location: Location;
  locale: Locale;
  /** Radius of lists in meters when the request gives one (spec 4.1). */
  radius?: number;
  propertyType?: 'apartment' | 'house';
  /** The property to describe (report parameter property_id): default the place's own. */
  propertyId?: string;
  /** Fields named by `include` (market.price_trend -> ['price_trend']); empty for the whole domain. */
  fields: string[];
}

/** A computed domain: its value (opening with `status`, except location) and its warnings. */
export interface Resolved { value: { status?: DomainStatus; missing?: unknown } & object; warnings: Warning[] }

export type Resolver = (deps: LocationRouteDeps, ctx: ResolveContext) => Promise<Resolved>;

/** What a zone resolver is asked: the values published for one zone (spec 4.4), never a wider zone's. */
export interface ZoneContext { country: Country; zone: Zone; locale: Locale }
export type ZoneResolver = (deps: LocationRouteDeps, ctx: ZoneContext) => Promise<Resolved>;

/**
 * One domain of the report (spec 2.1, 2.6-2.11), in one folder (api/location/domains/<domain>/):
 * its catalog fields, the countries where this service computes it (one resolver each), the tables
 * it reads and its own routes. Adding a (domain, country) pair touches that folder and nothing
 * shared: the report, the catalogs, the coverage route, the warehouse and the keys read this.
 */
export interface DomainModule {
  id: Domain;
  /** Served in every answer whatever `include` and the key say (spec 4.1: location always served). */
  alwaysServed?: boolean;
  /** Definitions of GET /catalog/fields. */
  fields: FieldDef[];
  /** Field names of GET /catalog/domains, per country listing them (spec 4.4). */
  catalogFields: Partial<Record<Country, string[]>>;
  /** Paths under /api/v1/<country> that serve the domain (GET /catalog/domains). */
  paths: Partial<Record<Country, string[]>>;
  /** Where the service computes the domain: one resolver per country; elsewhere it answers unavailable. */
  resolvers: Partial<Record<Country, Resolver>>;
  /** The computed domain's contract in the report, when it has its own shape. */
  schema?: z.ZodType;
  /** Tables of data/<country>/ the domain reads, per country. */
  tables: Partial<Record<Country, TableName[]>>;
  /** Small, hot tables copied into DuckDB's memory at each refresh (api/core/warehouse.ts). */
  memoryTables?: Record<string, MemoryTable>;
  /** The domain's values of one zone on /zones/{level}/{code} (include=<domain>), per country computed. */
  zoneResolvers?: Partial<Record<Country, ZoneResolver>>;
  /** The contract of those zone values, when the domain serves zones. */
  zoneSchema?: z.ZodType;
  /** The domain's own routes in a country (beyond the report). */
  routes?: Partial<Record<Country, (deps: LocationRouteDeps) => AnyRoute[]>>;
}
