import { openWarehouse, type Warehouse } from '../core/warehouse.ts';
import { WAREHOUSE_LAYOUT } from './domains/index.ts';

/** The warehouse over data/<country>/ with the tables the domains read (api/location/domains/). */
export function openLocationWarehouse(dataDir: string): Promise<Warehouse> {
  return openWarehouse(dataDir, WAREHOUSE_LAYOUT);
}
