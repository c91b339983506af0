import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Feature } from '../../../../schemas/feature.ts';
import type { FrBuilding } from '../../../../schemas/building.ts';
import { BuildingAttributes } from '../../../../schemas/tables/buildings.ts';
import { COPRO_ATTACHMENTS, type CoproAttachment } from '../../../../schemas/tables/copro.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { BUILDING_PRECISIONS } from '../../buildings.ts';
import { buildingIndexOf, buildingReadsOf, buildingsFrom, type BuildingIndex } from './building-index.ts';
import { protectedAreaOf } from './protected-area.ts';
import type { Resolved, Resolver } from '../types.ts';
import { placeFields, type BuildingDeps } from './place.ts';

/** Characteristics of spec 2.7 whose sources are not ingested yet: null with reason unavailable. */
const PENDING: Record<string, string> = {
  'heritage.historic_monument': 'Mérimée historic monuments', 'heritage.protected_area': 'protected areas (AC1, SPR)',
  'social_housing.dwellings': 'RPLS', fiber: 'ARCEP fibre deployment', legal_owners: 'legal persons owning premises',
  electricity_per_meter: 'Enedis consumption per address', energy_potential: 'solar and geothermal potential',
};

/**
 * Enedis's residential consumption per meter (BDNB's dle_elec_<year>_conso_res_par_pdl) as a yearly
 * series at the building (spec 2.7, kWh per year); null when no year has a value.
 */
function electricitySeries(years: BuildingAttributes['electricity_per_meter']): FrBuilding['electricity_per_meter'] {
  if (!years || years.length === 0) return null;
  const points = [...years].sort((x, y) => x.year - y.year).map((y) => ({ period: { start: `${y.year}-01-01`, end: `${y.year}-12-31` }, value: y.kwh, sample_size: null }));
  const byYear = new Map(years.map((y) => [y.year, y.kwh]));
  const last = points.at(-1)!, lastYear = Number(last.period.start.slice(0, 4));
  const change = (back: number) => { const v = byYear.get(lastYear - back); return v === undefined || v === 0 ? null : Math.round(((last.value - v) / v) * 1000) / 10; };
  return { unit: 'kWh/year', zone: null, points, changes: { '1y': change(1), '5y': change(5), since_start: points.length > 1 ? change(lastYear - Number(points[0]!.period.start.slice(0, 4))) : null } };
}

type CoproDbRow = { registration_number: string; attachment: 'sure' | 'probable'; attachment_reason: CoproAttachment; name: string | null; registered_on: string | null; regulation_on: string | null;
  construction_period: string | null; lots_total: number | null; lots_dwellings: number | null; lots_parking: number | null; manager_type: string | null; manager_name: string | null;
  manager_siret: string | null; mandate_active: boolean | null; mandate_ends_on: string | null };

/**
 * The co-ownership registry's entry of a building (fr.copro), or null: a sure attachment before a
 * probable one, then the most recently registered (a building may carry a main and a secondary
 * syndicate, or a duplicate registration).
 */
export async function coproOf(warehouse: Warehouse, buildingId: string, locale: Locale): Promise<FrBuilding['copro']> {
  const day = (c: string) => `strftime(${c}, '%Y-%m-%d') AS ${c}`;
  const r = (await warehouse.query<CoproDbRow>(
    `SELECT registration_number, attachment, attachment_reason, name, ${day('registered_on')}, ${day('regulation_on')}, construction_period, lots_total, lots_dwellings, lots_parking,
       manager_type, manager_name, manager_siret, mandate_active, ${day('mandate_ends_on')}
     FROM fr_copro WHERE building_id = $1 ORDER BY attachment = 'sure' DESC, registered_on DESC NULLS LAST, registration_number LIMIT 1`, [buildingId]))[0];
  if (!r) return null;
  const manager = [r.manager_type, r.manager_name, r.manager_siret, r.mandate_active, r.mandate_ends_on].every((v) => v === null) ? null
    : { type: r.manager_type, name: r.manager_name, siret: r.manager_siret, mandate_active: r.mandate_active, mandate_ends_on: r.mandate_ends_on };
  return {
    name: r.name, registration_number: r.registration_number, registered_on: r.registered_on, regulation_on: r.regulation_on, construction_period: r.construction_period,
    lots: { total: r.lots_total, dwellings: r.lots_dwellings, parking: r.lots_parking }, manager,
    attachment: { level: r.attachment, reason: r.attachment_reason, label: COPRO_ATTACHMENTS[r.attachment_reason][locale] },
  };
}

/** A Feature from the building record's values (most reliable first) and the diagnoses' (most recent first), or null. */
export function featureOf(record: { value: number | string; document: { type: 'building_record'; date: string | null } }[], diagnoses: { value: number; date: string }[], unit: string | null,
  registry: { value: number; date: string | null }[] = []): Feature | null {
  const all = [
    ...record.map((r) => ({ value: r.value, document: r.document })),
    ...diagnoses.map((d) => ({ value: d.value, document: { type: 'energy_diagnosis' as const, date: d.date } })),
    ...registry.map((c) => ({ value: c.value, document: { type: 'copro_registry' as const, date: c.date } })),
  ];
  if (all.length === 0) return null;
  const [first, ...others] = all;
  // Alternatives: other values only, each once, most recent first.
  const seen = new Set([String(first!.value)]);
  const alternatives = others.filter((o) => !seen.has(String(o.value)) && seen.add(String(o.value))).sort((a, b) => ((b.document.date ?? '') < (a.document.date ?? '') ? -1 : 1));
  return { value: first!.value, unit, document: first!.document, alternatives };
}

/** The building's record, or null when the id is not a building served here. */
export async function buildingRecord(warehouse: Warehouse, id: string, index: BuildingIndex | null = buildingIndexOf(warehouse)): Promise<BuildingAttributes | null> {
  if (!warehouse.has('fr', 'buildings')) return null;
  const from = await buildingsFrom(warehouse, id, index);
  if (!from) return null;
  const rows = await warehouse.query<{ attributes: string }>(`SELECT attributes FROM ${from} WHERE id = $1 LIMIT 1`, [id]);
  return rows[0] ? BuildingAttributes.parse(JSON.parse(rows[0].attributes)) : null;
}

/**
 * data.building of one building (spec 2.7), from its record, its diagnoses (by BAN address) and its
 * sales (by parcel): from the key-sorted stores once open, else by SQL (same answers).
 */
export async function describeBuilding(deps: BuildingDeps, id: string, a: BuildingAttributes, locale: Locale, index: BuildingIndex | null = buildingIndexOf(deps.warehouse)): Promise<Resolved> {
  const { warehouse } = deps;
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const reads = buildingReadsOf(warehouse, index);
  const diagnoses = await reads.diagnosesAt(a.address_ids);
  const sales = await reads.salesOn(a.parcels);
  // The property each sale and diagnosis is attached to (fr.properties), when it is.
  const owner = await reads.owners([...sales.map((x) => x.id), ...diagnoses.map((d) => d.number)]);
  const fromDiagnoses = (k: 'construction_year' | 'building_levels' | 'building_dwellings') => diagnoses.filter((d) => d[k] !== null).map((d) => ({ value: d[k]!, date: d.date }));
  const copro = warehouse.has('fr', 'copro') ? await coproOf(warehouse, id, locale) : null;
  // The registry's dwelling lots (spec 2.5 document copro_registry): an alternative to the dwellings the building record counts.
  const registryDwellings = copro?.lots.dwellings != null ? [{ value: copro.lots.dwellings, date: copro.registered_on }] : [];
  const protectedArea = await protectedAreaOf(warehouse, id);
  const building: FrBuilding = {
    status: 'ok', id, type: a.type,
    address: a.address_ids[0] ? await reads.addressLabel(a.address_ids[0]) : null,
    construction_year: featureOf(a.construction_year, fromDiagnoses('construction_year'), null),
    levels: featureOf(a.levels, fromDiagnoses('building_levels'), 'count'),
    dwellings: featureOf(a.dwellings, fromDiagnoses('building_dwellings'), 'count', registryDwellings),
    height_m: featureOf(a.height_m, [], null),
    footprint_m2: a.footprint_m2,
    materials: a.materials,
    heritage: { historic_monument: a.historic_monument ?? null, protected_area: protectedArea.value }, social_housing: { dwellings: a.social_housing_dwellings ?? null }, fiber: null,
    legal_owners: a.legal_owners && a.legal_owners.length > 0 ? { owners: a.legal_owners } : null,
    electricity_per_meter: electricitySeries(a.electricity_per_meter), energy_potential: null, copro,
    energy_diagnoses: diagnoses.map((d) => ({ date: d.date, energy_class: d.energy_class, energy_per_m2: d.energy_per_m2, surface: d.surface, floor: d.floor, number: d.number, property_id: owner.get(d.number) ?? null })),
    sales: sales.map((s) => ({
      date: s.date, lot: s.lots, property_id: owner.get(s.id) ?? null, type: s.property_type, rooms: s.rooms, surface: s.surface,
      price: s.price === null ? null : { value: s.price, unit: 'EUR' }, price_per_m2: s.price_per_m2 === null ? null : { value: Math.round(s.price_per_m2), unit: 'EUR/m2' },
    })),
    sales_attachment: 'parcel', median_price_per_m2_24m: null, vs_sublocality_level2: null, risks: [],
    missing,
  };
  // Its 24-month median, the IRIS comparison and its hazards, read at the building's own point (place.ts).
  const atPlace = await placeFields(deps, id, sales, locale);
  Object.assign(building, atPlace.value); Object.assign(missing, atPlace.missing); warnings.push(...atPlace.warnings);
  for (const [k, f] of [['type', a.type], ['construction_year', building.construction_year], ['levels', building.levels], ['dwellings', building.dwellings], ['height_m', building.height_m], ['footprint_m2', a.footprint_m2], ['materials.walls', a.materials.walls], ['materials.roof', a.materials.roof], ['address', building.address]] as const) {
    if (f === null) missing[k] = 'not_found';
  }
  const pending: Record<string, string> = warehouse.has('fr', 'copro') ? { ...PENDING } : { ...PENDING, copro: 'RNIC co-ownership registry (fr.copro)' };
  // BDNB exports with the Mérimée and Enedis columns feed these; an export without them leaves them unavailable.
  if (a.historic_monument !== undefined) {
    delete pending['heritage.historic_monument'];
    if (a.historic_monument === null) missing['heritage.historic_monument'] = 'not_found';
  }
  // fr.protected-areas (AC1, AC4 easements) ingested: null means no area contains the building.
  if (protectedArea.ingested) {
    delete pending['heritage.protected_area'];
    if (protectedArea.value === null) missing['heritage.protected_area'] = 'not_found';
  }
  if (a.electricity_per_meter !== undefined) {
    delete pending.electricity_per_meter;
    if (building.electricity_per_meter === null) missing.electricity_per_meter = 'not_found';
  }
  // Likewise the RPLS column and the owner tables (a building the RPLS does not name, or owned by natural persons only: not_found).
  if (a.social_housing_dwellings !== undefined) {
    delete pending['social_housing.dwellings'];
    if (a.social_housing_dwellings === null) missing['social_housing.dwellings'] = 'not_found';
  }
  if (a.legal_owners !== undefined) {
    delete pending.legal_owners;
    if (building.legal_owners === null) missing.legal_owners = 'not_found';
  }
  // No registry entry: a house has no co-ownership; a flat building may simply not be registered.
  if (warehouse.has('fr', 'copro') && building.copro === null) missing.copro = a.type === 'house' ? 'not_applicable' : 'not_found';
  for (const [path, source] of Object.entries(pending)) {
    missing[path] = 'unavailable';
    warnings.push({ domain: 'building', code: 'data_unavailable', message: `${path}: not ingested yet (${source})` });
  }
  if (a.parcels.length === 0) missing.sales = 'not_found';
  building.status = 'partial';
  return { value: building, warnings };
}

/** data.building in the report and on /building: the building at the located place (spec 2.7). */
export const frBuilding: Resolver = async (deps, ctx) => {
  const l = ctx.location;
  if (!BUILDING_PRECISIONS.includes(l.precision)) {
    return { value: { status: 'insufficient_precision', missing: { building: 'insufficient_precision' } }, warnings: [{ domain: 'building', code: 'insufficient_precision', message: `position known at ${l.precision} precision only: building-level data is served at address or building precision` }] };
  }
  if (!deps.warehouse.has('fr', 'buildings')) {
    return { value: { status: 'unavailable', missing: { building: 'unavailable' } }, warnings: [{ domain: 'building', code: 'data_unavailable', message: 'buildings are not ingested on this service' }] };
  }
  const record = l.building_id ? await buildingRecord(deps.warehouse, l.building_id) : null;
  if (!l.building_id || !record) return { value: { status: 'not_covered', missing: { building: 'not_found' } }, warnings: [] };
  return describeBuilding(deps, l.building_id, record, ctx.locale);
};
