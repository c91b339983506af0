import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { cellAndAncestors } from '../../../../schemas/tables/cells.ts';
import { ZONE_COVER_RES } from '../../../../schemas/tables/zones.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import type { KeyedStore } from '../../../core/keyed-store.ts';
import { areasAt, byLayerThenId } from '../../kinds/areas.ts';

/**
 * What a building report and a property report read besides the building's record, by the keys
 * they read them by, answered either by SQL over the warehouse or from key-sorted stores built
 * from the very same SELECTs (building-index.ts): the same rows, in the same order.
 */

/** A diagnosis as the building serves it (energy_diagnoses[] and the Features' alternatives). */
export type BuildingDiagnosisRow = { number: string; date: string; energy_class: string | null; energy_per_m2: number | null; surface: number | null; floor: number | null; construction_year: number | null; building_levels: number | null; building_dwellings: number | null };
/** A sale as the building serves it (sales[]). */
export type BuildingSaleRow = { id: string; date: string; lots: string | null; property_type: 'apartment' | 'house' | 'other'; rooms: number | null; surface: number | null; price: number | null; price_per_m2: number | null };
/** A property as the building's list and the property domain read it. */
export type PropertyRow = { id: string; building_id: string | null; type: 'apartment' | 'house'; lot: string | null; parcel: string | null; floor: number | null; living_area_m2: number | null; rooms: number | null; last_event_on: string };
/** A property by id: its row, with the Carrez surface of its latest sale naming one. */
export type PropertyRecordRow = PropertyRow & { carrez_area_m2: number | null };
/** An event of a property (fr/property_events). */
export type EventRow = { event_id: string; type: 'sale' | 'energy_diagnosis'; date: string; level: 'sure' | 'probable'; reason: string; ref: string; part: string | null };
/** A deed as the property reads it (fr/sales by id). */
export type DeedRow = { id: string; date: string; price: number | null; price_per_m2: number | null; surface: number | null; rooms: number | null; market_sale: boolean; outbuildings: number; property_type: string; address: string | null;
  iris_code: string | null; arrondissement_code: string | null; commune_code: string; department_code: string; region_code: string | null; dwellings: number; carrez_area: number | null; units: string | null };
/** A diagnosis as the property reads it (fr/diagnoses by number). */
export type PropertyDiagnosisRow = { number: string; date: string; scheme: string; energy_class: string | null; energy_per_m2: number | null; climate_class: string | null; climate_per_m2: number | null; surface: number | null; floor: number | null; heating_energy: string | null; heating_system: string | null; address: string | null };

export interface BuildingReads {
  /** Diagnoses at these BAN addresses, replaced ones left out, most recent first (each once). */
  diagnosesAt(banIds: readonly string[]): Promise<BuildingDiagnosisRow[]>;
  /** Sales since 2014 naming one of these parcels, of the first parcel's commune (or arrondissement), most recent first (each once). */
  salesOn(parcels: readonly string[]): Promise<BuildingSaleRow[]>;
  /** The one property each sale or diagnosis is attached to (a deed split into several properties names none). */
  owners(refs: readonly string[]): Promise<Map<string, string>>;
  /** The properties of a building, most recently active first. */
  propertiesOf(buildingId: string): Promise<PropertyRow[]>;
  /** A property by id, or null. */
  property(id: string): Promise<PropertyRecordRow | null>;
  /** The events of a property, most recent first. */
  eventsOf(propertyId: string): Promise<EventRow[]>;
  /** Deeds by id, most recent first. */
  deeds(ids: readonly string[]): Promise<DeedRow[]>;
  /** Diagnoses by number (replaced ones included), most recent first. */
  diagnosesByNumber(numbers: readonly string[]): Promise<PropertyDiagnosisRow[]>;
  /** The label of an address, or null. */
  addressLabel(id: string): Promise<string | null>;
  /**
   * The partition (file name without .parquet) of fr/buildings holding a building, null when no
   * building has this id; undefined when not known (SQL reads every partition).
   */
  buildingPartition(id: string): Promise<string | null | undefined>;
  /** The buildings whose footprint contains the point, by layer then id (the areas reader's answer, areas.ts). */
  buildingsAt(lng: number, lat: number): Promise<string[]>;
  /** The buildings the RNB links to an address (its BAN id) or a parcel (its id), each once, by id. */
  buildingsLinked(kind: 'address' | 'parcel', key: string): Promise<string[]>;
}

const day = (c: string) => `strftime(${c}, '%Y-%m-%d')`;

/** Columns of each read: name -> SQL expression, in the order the stores write them. */
export const READ_COLUMNS = {
  diagnosesAt: { number: 'number', date: day('date'), energy_class: 'energy_class', energy_per_m2: 'energy_per_m2', surface: 'surface', floor: 'floor', construction_year: 'construction_year', building_levels: 'building_levels', building_dwellings: 'building_dwellings' },
  salesOn: { id: 'id', date: day('date'), lots: `array_to_string(lots, '|')`, property_type: 'property_type', rooms: 'rooms', surface: 'surface', price: 'price', price_per_m2: 'price_per_m2' },
  propertiesOf: { id: 'id', building_id: 'building_id', type: 'type', lot: 'lot', parcel: 'parcel', floor: 'floor', living_area_m2: 'living_area_m2', rooms: 'rooms', last_event_on: day('last_event_on') },
  property: { id: 'id', building_id: 'building_id', type: 'type', lot: 'lot', parcel: 'parcel', floor: 'floor', living_area_m2: 'living_area_m2', rooms: 'rooms', last_event_on: day('last_event_on'), carrez_area_m2: 'carrez_area_m2' },
  eventsOf: { event_id: 'event_id', type: 'type', date: day('date'), level: 'level', reason: 'reason', ref: 'ref', part: 'part' },
  deeds: { id: 'id', date: day('date'), price: 'price', price_per_m2: 'price_per_m2', surface: 'surface', rooms: 'rooms', market_sale: 'market_sale', outbuildings: 'outbuildings', property_type: 'property_type', address: 'address',
    iris_code: 'iris_code', arrondissement_code: 'arrondissement_code', commune_code: 'commune_code', department_code: 'department_code', region_code: 'region_code', dwellings: 'dwellings', carrez_area: 'carrez_area', units: 'to_json(units)::VARCHAR' },
  diagnosesByNumber: { number: 'number', date: day('date'), scheme: 'scheme', energy_class: 'energy_class', energy_per_m2: 'energy_per_m2', climate_class: 'climate_class', climate_per_m2: 'climate_per_m2', surface: 'surface', floor: 'floor',
    heating_energy: 'heating_energy', heating_system: 'heating_system', address: 'address' },
} as const;

export const selectList = (cols: Record<string, string>) => Object.entries(cols).map(([name, e]) => (e === name ? name : `${e} AS ${name}`)).join(', ');

/** Most recent first, then by a key: the ORDER BY date DESC, <key> of the SQL. */
export const byDateDesc = <T extends { date: string }>(key: (x: T) => string) => (a: T, b: T) => (a.date > b.date ? -1 : a.date < b.date ? 1 : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
const once = <T>(key: (x: T) => string) => { const seen = new Set<string>(); return (x: T) => !seen.has(key(x)) && !!seen.add(key(x)); };
const list = (xs: readonly string[]) => xs.join('|');

/** The SQL path: scans of the tables (sorted by cell, number, property), before the stores are built and as their reference. */
export function sqlReads(warehouse: Warehouse): BuildingReads {
  const has = (t: string) => warehouse.has('fr', t);
  const C = READ_COLUMNS;
  return {
    diagnosesAt: async (banIds) => banIds.length === 0 || !has('diagnoses') ? [] : warehouse.query<BuildingDiagnosisRow>(
      `SELECT ${selectList(C.diagnosesAt)} FROM fr_diagnoses WHERE NOT superseded AND list_contains(string_split($1, '|'), ban_id) ORDER BY date DESC, number`, [list(banIds)]),
    salesOn: async (parcels) => parcels.length === 0 || !has('sales') ? [] : warehouse.query<BuildingSaleRow>(
      `SELECT ${selectList(C.salesOn)} FROM fr_sales
       WHERE (commune_code = $2 OR arrondissement_code = $2) AND list_has_any(parcels, string_split($1, '|')) AND date >= DATE '2014-01-01'
       ORDER BY date DESC, id`, [list(parcels), parcels[0]!.slice(0, 5)]),
    owners: async (refs) => new Map(refs.length === 0 || !has('property_events') ? [] : (await warehouse.query<{ ref: string; property_id: string }>(
      `SELECT ref, any_value(property_id) AS property_id FROM fr_property_events WHERE list_contains(string_split($1, '|'), ref) GROUP BY ref HAVING count(DISTINCT property_id) = 1`, [list(refs)]))
      .map((r) => [r.ref, r.property_id] as [string, string])),
    propertiesOf: async (buildingId) => !has('properties') ? [] : warehouse.query<PropertyRow>(
      `SELECT ${selectList(C.propertiesOf)} FROM fr_properties WHERE building_id = $1 ORDER BY last_event_on DESC, id`, [buildingId]),
    property: async (id) => !has('properties') ? null : (await warehouse.query<PropertyRecordRow>(
      `SELECT ${selectList(C.property)} FROM fr_properties WHERE id = $1 LIMIT 1`, [id]))[0] ?? null,
    eventsOf: async (propertyId) => !has('property_events') ? [] : warehouse.query<EventRow>(
      `SELECT ${selectList(C.eventsOf)} FROM fr_property_events WHERE property_id = $1 ORDER BY date DESC, event_id`, [propertyId]),
    deeds: async (ids) => ids.length === 0 || !has('sales') ? [] : warehouse.query<DeedRow>(
      `SELECT ${selectList(C.deeds)} FROM fr_sales WHERE list_contains(string_split($1, '|'), id) ORDER BY date DESC, id`, [list(ids)]),
    diagnosesByNumber: async (numbers) => numbers.length === 0 || !has('diagnoses') ? [] : warehouse.query<PropertyDiagnosisRow>(
      `SELECT ${selectList(C.diagnosesByNumber)} FROM fr_diagnoses WHERE list_contains(string_split($1, '|'), number) ORDER BY date DESC, number`, [list(numbers)]),
    addressLabel: async (id) => !has('addresses') ? null : (await warehouse.query<{ label: string }>(`SELECT label FROM fr_addresses WHERE id = $1 LIMIT 1`, [id]))[0]?.label ?? null,
    buildingPartition: async () => undefined,
    buildingsAt: async (lng, lat) => (await areasAt(warehouse, 'fr', 'buildings', lng, lat)).map((h) => h.id),
    buildingsLinked: async (kind, key) => !has('building_links') ? [] : (await warehouse.query<{ building_id: string }>(
      `SELECT DISTINCT building_id FROM fr_building_links WHERE kind = $1 AND key = $2 ORDER BY building_id`, [kind, key])).map((r) => r.building_id),
  };
}

/**
 * One store per read: its source tables (every one published, or no store), the SELECT of its rows (columns `k`, the key, and `v`, the
 * row as a JSON array of READ_COLUMNS' columns) and its order (by key, then the SQL path's order).
 */
export interface StoreSpec { tables: readonly string[]; select: string; order: string }

const row = (cols: Record<string, string>, extra: string[] = []) => `json_array(${[...Object.values(cols), ...extra].join(', ')})`;

export const READ_STORES = {
  // Rows by BAN address: the SQL path's filter, its columns.
  diagnosesAt: { tables: ['diagnoses'], select: `SELECT ban_id AS k, ${row(READ_COLUMNS.diagnosesAt)} AS v, date, number FROM fr_diagnoses WHERE NOT superseded`, order: 'k, date DESC, number' },
  // One row per parcel a sale names, with the commune and arrondissement the SQL path filters on.
  salesOn: { tables: ['sales'], select: `SELECT unnest(parcels) AS k, ${row(READ_COLUMNS.salesOn, ['commune_code', 'arrondissement_code'])} AS v, date, id FROM fr_sales WHERE date >= DATE '2014-01-01'`, order: 'k, date DESC, id' },
  // Every (ref, property) pair, sorted: the read keeps a ref with one property (the SQL path's
  // count(DISTINCT) = 1). A sort spills within DuckDB's limit; the GROUP BY took 54 s and 2 GB of
  // RSS over 27 M refs at national counts (755 MB and 10 s sorted).
  owners: { tables: ['property_events'], select: `SELECT ref AS k, json_array(property_id) AS v, property_id FROM fr_property_events`, order: 'k, property_id' },
  propertiesOf: { tables: ['properties'], select: `SELECT building_id AS k, ${row(READ_COLUMNS.propertiesOf)} AS v, last_event_on, id FROM fr_properties`, order: 'k, last_event_on DESC, id' },
  // By id: the SQL path read it from every properties file (50 ms at 0.1 of the national counts, 96 files).
  property: { tables: ['properties'], select: `SELECT id AS k, ${row(READ_COLUMNS.property)} AS v FROM fr_properties`, order: 'k' },
  eventsOf: { tables: ['property_events'], select: `SELECT property_id AS k, ${row(READ_COLUMNS.eventsOf)} AS v, date, event_id FROM fr_property_events`, order: 'k, date DESC, event_id' },
  deeds: { tables: ['sales'], select: `SELECT id AS k, ${row(READ_COLUMNS.deeds)} AS v, date FROM fr_sales`, order: 'k, date DESC' },
  diagnosesByNumber: { tables: ['diagnoses'], select: `SELECT number AS k, ${row(READ_COLUMNS.diagnosesByNumber)} AS v, date FROM fr_diagnoses`, order: 'k, date DESC' },
  addressLabel: { tables: ['addresses'], select: `SELECT id AS k, json_array(label) AS v FROM fr_addresses`, order: 'k' },
  // The stores' views carry each row's file (read_parquet's filename).
  buildingPartition: { tables: ['buildings'], select: `SELECT id AS k, json_array(parse_filename(filename, true)) AS v FROM fr_buildings`, order: 'k' },
  // The cover by cell (cellKey), each row with its building's layer, extent and, on a border cell, outline:
  // the areas reader's two queries (cover, then outlines) in one read.
  buildingsAt: { tables: ['buildings', 'buildings_cells'], select: `SELECT lpad(hex(c.cell), 16, '0') AS k,
      json_array(c.id, c.interior, b.layer, b.min_lng, b.min_lat, b.max_lng, b.max_lat, CASE WHEN c.interior THEN NULL ELSE b.geometry END) AS v, c.id
    FROM fr_buildings_cells c JOIN fr_buildings b ON b.id = c.id`, order: 'k, id' },
  // By `<kind>:<key>`: the links files are sorted by key within each department's file, so the SQL
  // path probes every department's file (an address names no department).
  buildingsLinked: { tables: ['building_links'], select: `SELECT kind || ':' || key AS k, json_array(building_id) AS v, building_id FROM fr_building_links WHERE kind IN ('address', 'parcel')`, order: 'k, building_id' },
} as const satisfies Record<keyof BuildingReads, StoreSpec>;

/** The key of a cover cell in the buildingsAt store: 16 upper-case hexadecimal digits (DuckDB's hex, zero-padded), sorting as the cells. */
export const cellKey = (cell: bigint) => cell.toString(16).toUpperCase().padStart(16, '0');

export type ReadStores = Partial<Record<keyof BuildingReads, KeyedStore>>;

/** A store's row (a JSON array) as the object the SQL path returns. */
function asObject<T>(names: readonly string[], v: unknown[]): T {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) o[names[i]!] = v[i];
  return o as T;
}

/**
 * The stores' path: the SQL path's answers from key-sorted files. A read whose table has no
 * store (not published when the stores were built) answers as the SQL path does without it.
 */
export function storeReads(stores: ReadStores): BuildingReads {
  const names = Object.fromEntries(Object.entries(READ_COLUMNS).map(([k, cols]) => [k, Object.keys(cols)])) as Record<keyof typeof READ_COLUMNS, string[]>;
  const rows = <T>(read: keyof typeof READ_COLUMNS, keys: readonly string[]): T[] => (stores[read]?.get(keys) ?? []).map((v) => asObject<T>(names[read], v as unknown[]));
  return {
    diagnosesAt: async (banIds) => rows<BuildingDiagnosisRow>('diagnosesAt', banIds).filter(once((x) => x.number)).sort(byDateDesc((x) => x.number)),
    salesOn: async (parcels) => {
      if (parcels.length === 0 || !stores.salesOn) return [];
      const commune = parcels[0]!.slice(0, 5);
      const n = names.salesOn.length;
      return stores.salesOn.get(parcels).filter((v) => (v as unknown[])[n] === commune || (v as unknown[])[n + 1] === commune)
        .map((v) => asObject<BuildingSaleRow>(names.salesOn, v as unknown[])).filter(once((x) => x.id)).sort(byDateDesc((x) => x.id));
    },
    owners: async (refs) => {
      const out = new Map<string, string>();
      if (!stores.owners) return out;
      for (const r of refs) {
        const ids = new Set(stores.owners.get([r]).map((v) => (v as string[])[0]!));
        if (ids.size === 1) out.set(r, [...ids][0]!);
      }
      return out;
    },
    propertiesOf: async (buildingId) => rows<PropertyRow>('propertiesOf', [buildingId]),
    property: async (id) => rows<PropertyRecordRow>('property', [id])[0] ?? null,
    eventsOf: async (propertyId) => rows<EventRow>('eventsOf', [propertyId]),
    deeds: async (ids) => rows<DeedRow>('deeds', ids).sort(byDateDesc((x) => x.id)),
    diagnosesByNumber: async (numbers) => rows<PropertyDiagnosisRow>('diagnosesByNumber', numbers).sort(byDateDesc((x) => x.number)),
    addressLabel: async (id) => ((stores.addressLabel?.get([id])[0] as string[] | undefined)?.[0] ?? null),
    buildingPartition: async (id) => (stores.buildingPartition ? ((stores.buildingPartition.get([id])[0] as string[] | undefined)?.[0] ?? null) : undefined),
    buildingsAt: async (lng, lat) => {
      if (!stores.buildingsAt) return [];
      // As areasAtSql: an area interior on any of the point's cells contains it; on a border cell only, its outline is tested.
      const met = new Map<string, { interior: boolean; layer: string; box: number[]; geometry: string | null }>();
      for (const v of stores.buildingsAt.get(cellAndAncestors(lat, lng, ZONE_COVER_RES).map(cellKey)) as [string, boolean, string, number, number, number, number, string | null][]) {
        const [id, interior, layer, ...rest] = v;
        const m = met.get(id);
        if (m) { m.interior ||= interior; m.geometry ??= rest[4]; } else met.set(id, { interior, layer, box: rest.slice(0, 4) as number[], geometry: rest[4] });
      }
      const hits: { id: string; layer: string }[] = [];
      for (const [id, m] of met) {
        // Outside the extent (boundary included) is outside the outline: its text is not parsed.
        const [x0, y0, x1, y1] = m.box as [number, number, number, number];
        if (m.interior || (lng >= x0 && lng <= x1 && lat >= y0 && lat <= y1 && m.geometry !== null && booleanPointInPolygon([lng, lat], JSON.parse(m.geometry) as Polygon | MultiPolygon))) hits.push({ id, layer: m.layer });
      }
      return hits.sort(byLayerThenId).map((h) => h.id);
    },
    buildingsLinked: async (kind, key) => [...new Set((stores.buildingsLinked?.get([`${kind}:${key}`]) ?? []).map((v) => (v as string[])[0]!))],
  };
}
