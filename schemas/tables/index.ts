import type { z } from 'zod';
import { AddressRow } from './addresses.ts';
import { MarketIndicatorRow } from './market-indicators.ts';
import { PointRow } from './points.ts';
import { SaleRow } from './sales.ts';
import { ZoneCellRow, ZoneRow } from './zones.ts';
import { ZoneValueRow } from './zone-values.ts';
import { AreaCellRow, AreaRow } from './areas.ts';
import { DiagnosisRow } from './diagnoses.ts';
import { BuildingLinkRow } from './buildings.ts';
import { PropertyEventRow, PropertyRow } from './properties.ts';
import { IdMergeRow, IdRegistryRow } from './id-registry.ts';
import { CoproRow } from './copro.ts';

/**
 * Every table of data/<country>/ by name, with its row schema: what jobs declare they read and
 * write (ingest/*.job.ts), what sources feed (datasets/), one name per table. Tables of the
 * generic kinds (schemas/tables/points.ts, areas.ts, zone-values.ts) are listed under their name.
 */
export const TABLES = {
  addresses: AddressRow,
  zones: ZoneRow,
  zone_cells: ZoneCellRow,
  sales: SaleRow,
  market_indicators: MarketIndicatorRow,
  zone_values: ZoneValueRow,
  places: PointRow,
  hazard_areas: AreaRow,
  hazard_areas_cells: AreaCellRow,
  polluted_sites: PointRow,
  parcels: AreaRow,
  parcels_cells: AreaCellRow,
  protected_areas: AreaRow,
  protected_areas_cells: AreaCellRow,
  id_registry: IdRegistryRow,
  id_merges: IdMergeRow,
  diagnoses: DiagnosisRow,
  buildings: AreaRow,
  buildings_cells: AreaCellRow,
  building_links: BuildingLinkRow,
  properties: PropertyRow,
  property_events: PropertyEventRow,
  copro: CoproRow,
} as const satisfies Record<string, z.ZodType>;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];
