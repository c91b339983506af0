import { COUNTRIES } from '../../datasets/countries.ts';
import type { Manifests } from '../core/manifests.ts';
import type { Warehouse } from '../core/warehouse.ts';
import { salesIndexReady } from './domains/market/sales-index.ts';
import { buildingIndexReady } from './domains/building/building-index.ts';
import { addressIndexReady } from './search/address-index.ts';
import { zoneIndexReady } from './zones/zone-index.ts';
import { zoneValuesIndexReady } from './kinds/zone-values-index.ts';

/** Has the promise settled? (without waiting for it: one turn of the event loop). */
const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);

/**
 * The location module is ready when the warehouse answers and the in-memory indexes of the tables
 * present are built (DuckDB answers meanwhile, slower): a load balancer sends traffic after that.
 */
export async function locationReady(warehouse: Warehouse): Promise<{ ready: boolean; waiting: string[] }> {
  const waiting: string[] = [];
  try { await warehouse.query('SELECT 1'); } catch { waiting.push('warehouse'); }
  for (const c of COUNTRIES) {
    if (warehouse.has(c, 'addresses') && !(await settled(addressIndexReady(warehouse, c)))) waiting.push(`${c}.addresses index`);
    if (warehouse.has(c, 'zone_cells') && !(await settled(zoneIndexReady(warehouse, c)))) waiting.push(`${c}.zone_cells index`);
    if (warehouse.has(c, 'zone_values') && !(await settled(zoneValuesIndexReady(warehouse, c, 'zone_values')))) waiting.push(`${c}.zone_values index`);
  }
  if (warehouse.has('fr', 'sales') && !(await settled(salesIndexReady(warehouse)))) waiting.push('fr.sales index');
  // Until the building reads' stores are open, a report's building and property are scans (seconds at national counts).
  if (warehouse.has('fr', 'buildings') && !(await settled(buildingIndexReady(warehouse)))) waiting.push('fr.building reads');
  return { ready: waiting.length === 0, waiting };
}

/** Rows and last import of every published table, for the metrics. */
export async function tableFigures(manifests: Manifests) {
  const out: { country: string; table: string; rows: number; imported_at: string | null }[] = [];
  for (const c of COUNTRIES) {
    const byTable = new Map<string, { rows: number; imported_at: string | null }>();
    for (const p of (await manifests.get(c)).partitions) {
      const e = byTable.get(p.table) ?? { rows: 0, imported_at: null };
      e.rows += p.rows;
      if (!e.imported_at || p.imported_at > e.imported_at) e.imported_at = p.imported_at;
      byTable.set(p.table, e);
    }
    for (const [table, e] of byTable) out.push({ country: c, table, ...e });
  }
  return out;
}
