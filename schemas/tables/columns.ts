import { ADDRESS_COLUMNS } from './addresses.ts';
import { AREA_CELL_COLUMNS, AREA_COLUMNS } from './areas.ts';
import type { TableName } from './index.ts';
import { MARKET_INDICATOR_COLUMNS } from './market-indicators.ts';
import { POINT_COLUMNS } from './points.ts';
import { SALE_COLUMNS } from './sales.ts';
import { ZONE_CELL_COLUMNS, ZONE_COLUMNS } from './zones.ts';
import { ZONE_VALUE_COLUMNS } from './zone-values.ts';
import { BUILDING_LINK_COLUMNS } from './buildings.ts';
import { DIAGNOSIS_COLUMNS } from './diagnoses.ts';
import { ID_MERGE_COLUMNS, ID_REGISTRY_COLUMNS } from './id-registry.ts';
import { PROPERTY_COLUMNS, PROPERTY_EVENT_COLUMNS } from './properties.ts';
import { COPRO_COLUMNS } from './copro.ts';

/**
 * The DuckDB column types of every table of TABLES, in file order: what the writers stage, what
 * the layout migration converts old files to, and the types of the data dictionary
 * (docs/data-dictionary.md). A table added to TABLES without its line here fails the type check.
 */
export const TABLE_COLUMNS: Record<TableName, Readonly<Record<string, string>>> = {
  addresses: ADDRESS_COLUMNS,
  zones: ZONE_COLUMNS,
  zone_cells: ZONE_CELL_COLUMNS,
  sales: SALE_COLUMNS,
  market_indicators: MARKET_INDICATOR_COLUMNS,
  zone_values: ZONE_VALUE_COLUMNS,
  places: POINT_COLUMNS,
  hazard_areas: AREA_COLUMNS,
  hazard_areas_cells: AREA_CELL_COLUMNS,
  polluted_sites: POINT_COLUMNS,
  parcels: AREA_COLUMNS,
  parcels_cells: AREA_CELL_COLUMNS,
  protected_areas: AREA_COLUMNS,
  protected_areas_cells: AREA_CELL_COLUMNS,
  id_registry: ID_REGISTRY_COLUMNS,
  id_merges: ID_MERGE_COLUMNS,
  diagnoses: DIAGNOSIS_COLUMNS,
  buildings: AREA_COLUMNS,
  buildings_cells: AREA_CELL_COLUMNS,
  building_links: BUILDING_LINK_COLUMNS,
  properties: PROPERTY_COLUMNS,
  property_events: PROPERTY_EVENT_COLUMNS,
  copro: COPRO_COLUMNS,
};
