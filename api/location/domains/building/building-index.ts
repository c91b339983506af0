import type { Warehouse } from '../../../core/warehouse.ts';
import { indexCache } from '../../search/warehouse-index.ts';

/** A diagnosis as the building serves it (energy_diagnoses[] and the Features' alternatives). */
export type BuildingDiagnosisRow = { number: string; date: string; energy_class: string | null; energy_per_m2: number | null; surface: number | null; floor: number | null; construction_year: number | null; building_levels: number | null; building_dwellings: number | null };
/** A sale as the building serves it (sales[]). */
export type BuildingSaleRow = { id: string; date: string; lots: string | null; property_type: 'apartment' | 'house' | 'other'; rooms: number | null; surface: number | null; price: number | null; price_per_m2: number | null };

/**
 * What a building report reads besides its record, by the keys it reads them by: the diagnoses
 * of a BAN address (replaced ones left out), the sales since 2014 of a parcel, the one property an
 * event is attached to, the properties of a building. Without it each report scans fr/diagnoses, fr/sales and
 * fr/property_events (sorted by cell and by property, not by these keys).
 */
export interface BuildingIndex {
  diagnoses(banIds: readonly string[]): BuildingDiagnosisRow[];
  sales(parcels: readonly string[]): BuildingSaleRow[];
  owner(ref: string): string | undefined;
  /** The properties of a building, most recently active first (fr.properties). */
  properties(buildingId: string): BuildingPropertyRow[];
  readonly rows: number;
}

/** A property as the building's list and the property domain read it. */
export type BuildingPropertyRow = { id: string; building_id: string | null; type: 'apartment' | 'house'; lot: string | null; parcel: string | null; floor: number | null; living_area_m2: number | null; rooms: number | null; last_event_on: string };

/** Rows past which the index is not built (the DuckDB path answers): about 1.5 GB of heap, a few large departments. */
export const BUILDING_INDEX_MAX_ROWS = 6_000_000;

const byDateDesc = <T extends { date: string }>(key: (x: T) => string) => (a: T, b: T) => (a.date > b.date ? -1 : a.date < b.date ? 1 : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

async function count(warehouse: Warehouse, sql: string): Promise<number> {
  return Number((await warehouse.query<{ n: bigint }>(sql))[0]!.n);
}

/** Reads the three tables into maps by key; null when none is published or they are past the budget. */
export async function buildBuildingIndex(warehouse: Warehouse, maxRows = BUILDING_INDEX_MAX_ROWS): Promise<BuildingIndex | null> {
  const [d, s, e, p] = [warehouse.has('fr', 'diagnoses'), warehouse.has('fr', 'sales'), warehouse.has('fr', 'property_events'), warehouse.has('fr', 'properties')];
  if (!d && !s) return null;
  const total = (d ? await count(warehouse, 'SELECT count(*) AS n FROM fr_diagnoses') : 0) + (s ? await count(warehouse, 'SELECT count(*) AS n FROM fr_sales') : 0)
    + (e ? await count(warehouse, 'SELECT count(*) AS n FROM fr_property_events') : 0) + (p ? await count(warehouse, 'SELECT count(*) AS n FROM fr_properties') : 0);
  if (total > maxRows) return null;
  const diagnoses = new Map<string, BuildingDiagnosisRow[]>();
  if (d) {
    await warehouse.scan(`SELECT ban_id, number, strftime(date, '%Y-%m-%d') AS date, energy_class, energy_per_m2, surface, floor, construction_year, building_levels, building_dwellings
      FROM fr_diagnoses WHERE NOT superseded AND ban_id IS NOT NULL`, (c) => {
      for (let i = 0; i < c[0]!.length; i++) {
        const ban = c[0]![i] as string;
        const row: BuildingDiagnosisRow = { number: c[1]![i] as string, date: c[2]![i] as string, energy_class: c[3]![i] as string | null, energy_per_m2: c[4]![i] as number | null,
          surface: c[5]![i] as number | null, floor: c[6]![i] as number | null, construction_year: c[7]![i] as number | null, building_levels: c[8]![i] as number | null, building_dwellings: c[9]![i] as number | null };
        const list = diagnoses.get(ban);
        if (list) list.push(row); else diagnoses.set(ban, [row]);
      }
    });
  }
  const sales = new Map<string, BuildingSaleRow[]>();
  if (s) {
    await warehouse.scan(`SELECT array_to_string(parcels, '|') AS parcels, id, strftime(date, '%Y-%m-%d') AS date, array_to_string(lots, '|') AS lots, property_type, rooms, surface, price, price_per_m2
      FROM fr_sales WHERE date >= DATE '2014-01-01'`, (c) => {
      for (let i = 0; i < c[0]!.length; i++) {
        const row: BuildingSaleRow = { id: c[1]![i] as string, date: c[2]![i] as string, lots: c[3]![i] as string | null, property_type: c[4]![i] as BuildingSaleRow['property_type'],
          rooms: c[5]![i] as number | null, surface: c[6]![i] as number | null, price: c[7]![i] as number | null, price_per_m2: c[8]![i] as number | null };
        for (const p of (c[0]![i] as string).split('|')) {
          if (p === '') continue;
          const list = sales.get(p);
          if (list) list.push(row); else sales.set(p, [row]);
        }
      }
    });
  }
  const owners = new Map<string, string>();
  if (e) {
    // A deed split into several properties (one per dwelling) names none of them as a whole.
    await warehouse.scan(`SELECT ref, any_value(property_id) AS property_id FROM fr_property_events GROUP BY ref HAVING count(DISTINCT property_id) = 1`, (c) => {
      for (let i = 0; i < c[0]!.length; i++) owners.set(c[0]![i] as string, c[1]![i] as string);
    });
  }
  const properties = new Map<string, BuildingPropertyRow[]>();
  if (p) {
    await warehouse.scan(`SELECT id, building_id, type, lot, parcel, floor, living_area_m2, rooms, strftime(last_event_on, '%Y-%m-%d') AS last_event_on
      FROM fr_properties WHERE building_id IS NOT NULL ORDER BY last_event_on DESC, id`, (c) => {
      for (let i = 0; i < c[0]!.length; i++) {
        const row: BuildingPropertyRow = { id: c[0]![i] as string, building_id: c[1]![i] as string, type: c[2]![i] as BuildingPropertyRow['type'], lot: c[3]![i] as string | null,
          parcel: c[4]![i] as string | null, floor: c[5]![i] as number | null, living_area_m2: c[6]![i] as number | null, rooms: c[7]![i] as number | null, last_event_on: c[8]![i] as string };
        const list = properties.get(row.building_id!);
        if (list) list.push(row); else properties.set(row.building_id!, [row]);
      }
    });
  }
  const diagnosisOrder = byDateDesc<BuildingDiagnosisRow>((x) => x.number);
  const saleOrder = byDateDesc<BuildingSaleRow>((x) => x.id);
  return {
    rows: total,
    diagnoses: (banIds) => {
      const seen = new Set<string>();
      return banIds.flatMap((b) => diagnoses.get(b) ?? []).filter((x) => !seen.has(x.number) && seen.add(x.number)).sort(diagnosisOrder);
    },
    sales: (parcels) => {
      const seen = new Set<string>();
      return parcels.flatMap((p) => sales.get(p) ?? []).filter((x) => !seen.has(x.id) && seen.add(x.id)).sort(saleOrder);
    },
    owner: (ref) => owners.get(ref),
    properties: (buildingId) => (p ? properties.get(buildingId) ?? [] : []),
  };
}

const cache = indexCache<BuildingIndex>(['diagnoses', 'sales', 'property_events', 'properties'], (warehouse) => buildBuildingIndex(warehouse));

/** The index of the current files, built in the background on first use after a refresh that changed them; null meanwhile (the SQL path answers the same). */
export function buildingIndexOf(warehouse: Warehouse): BuildingIndex | null {
  return cache.of(warehouse, 'fr');
}

/** Resolves when the current index is built (null: no table, or over budget). */
export function buildingIndexReady(warehouse: Warehouse): Promise<BuildingIndex | null> {
  return cache.ready(warehouse, 'fr');
}
