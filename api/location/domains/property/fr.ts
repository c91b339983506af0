import type { Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Event, Feature } from '../../../../schemas/feature.ts';
import type { FrProperty } from '../../../../schemas/property.ts';
import { ATTACHMENT_REASONS, type AttachmentReason } from '../../../../schemas/tables/properties.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Warehouse } from '../../../core/warehouse.ts';
import { BUILDING_PRECISIONS } from '../../buildings.ts';
import type { Resolved, Resolver, ResolveContext } from '../types.ts';
import { ApiError } from '../../../core/errors.ts';
import { keptId } from '../../ids.ts';
import { buildingReadsOf } from '../building/building-index.ts';
import { type BuildingReads, type DeedRow, type EventRow as ReadEventRow, type PropertyDiagnosisRow, type PropertyRow } from '../building/reads.ts';
import { irisMedian24m, percentDifference } from '../market/indicators.ts';

type Reliability = 'high' | 'medium' | 'low';
type EventRow = ReadEventRow & { reason: AttachmentReason };
/** A sale as it concerns one property: the deed, or its unit when the deed sold several dwellings (price the deed's). */
type PropertySale = DeedRow & { deedDwellings: number | null; carrez: number | null };


/** The properties of a building, most recently active first (from the building reads' stores once open, else SQL). */
export async function propertiesOfBuilding(warehouse: Warehouse, buildingId: string, reads: BuildingReads = buildingReadsOf(warehouse)): Promise<PropertyRow[]> {
  if (!warehouse.has('fr', 'properties')) return [];
  return reads.propertiesOf(buildingId);
}

/** A property by id (from the building reads' stores once open, else SQL), or null. */
export async function propertyRecord(warehouse: Warehouse, id: string, reads: BuildingReads = buildingReadsOf(warehouse)): Promise<PropertyRow | null> {
  if (!warehouse.has('fr', 'properties')) return null;
  const r = await reads.property(id);
  if (!r) return null;
  const { carrez_area_m2: _carrez, ...row } = r;
  return row;
}

/** The sale as it concerns the property: its unit (surface, rooms, Carrez) when the event names one. */
function asPropertySale(s: DeedRow, part: string | null): PropertySale {
  if (part === null) return { ...s, deedDwellings: null, carrez: s.dwellings === 1 ? s.carrez_area : null };
  const units = (s.units ? JSON.parse(s.units) : []) as { parcel: string; lots: string[] | null; surface: number | null; rooms: number | null; carrez: number | null }[];
  const u = units.find((x) => `${x.parcel}:${(x.lots ?? []).join('|')}` === part);
  return { ...s, surface: u?.surface ?? null, rooms: u?.rooms ?? null, price_per_m2: null, deedDwellings: s.dwellings, carrez: u?.carrez ?? null };
}

/** Zone columns of a sale, finest first, as market_indicators levels. */
const LEVELS = [['sublocality_level2', 'iris_code'], ['sublocality_level1', 'arrondissement_code'], ['locality', 'commune_code'], ['administrative_area_level2', 'department_code'], ['administrative_area_level1', 'region_code']] as const;
const ORDER: Reliability[] = ['low', 'medium', 'high'];

/**
 * value_today (spec 2.8, method indexed_last_sale): the last market sale's price times the
 * quarterly median price per m² of the finest zone having a published median both in the sale's
 * quarter and in the latest quarter, divided by the first. Reliability: the lower of the two
 * quarters', one step lower when the sale is more than five years old. Null with the reason otherwise.
 */
export async function indexedLastSale(warehouse: Warehouse, sale: DeedRow | null, type: 'apartment' | 'house'): Promise<{ value: FrProperty['value_today']; reason: Missing[string] | null }> {
  if (!sale || sale.price === null || !sale.market_sale) return { value: null, reason: 'not_found' };
  if (!warehouse.has('fr', 'market_indicators')) return { value: null, reason: 'unavailable' };
  for (const [level, col] of LEVELS) {
    const code = sale[col];
    if (!code) continue;
    const rows = await warehouse.query<{ start: string; end: string; median: number; reliability: Reliability | null }>(
      `SELECT strftime(period_start, '%Y-%m-%d') AS start, strftime(period_end, '%Y-%m-%d') AS end, median, reliability FROM fr_market_indicators
       WHERE level = $1 AND code = $2 AND property_type = $3 AND period = 'quarter' AND reliability IS NOT NULL ORDER BY period_start`, [level, code, type]);
    const at = rows.find((r) => r.start <= sale.date && sale.date <= r.end);
    const last = rows.at(-1);
    if (!at || !last) continue;
    let rel = Math.min(ORDER.indexOf(at.reliability!), ORDER.indexOf(last.reliability!));
    if (Date.parse(last.end) - Date.parse(sale.date) > 5 * 365.25 * 86_400_000) rel = Math.max(0, rel - 1);
    return { value: { value: Math.round(sale.price * last.median / at.median / 100) * 100, unit: 'EUR', as_of: last.end, method: 'indexed_last_sale', reliability: ORDER[rel]! }, reason: null };
  }
  return { value: null, reason: 'insufficient_sample' };
}

const LABEL = (reason: AttachmentReason, locale: Locale) => ATTACHMENT_REASONS[reason][locale];
const fmt = (n: number, locale: Locale) => new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB').format(n);

/** One plain sentence from the events, or null when there is none. */
export function storyOf(type: 'apartment' | 'house', sales: { date: string; price: number | null }[], diagnoses: { date: string; energy_class: string | null }[], locale: Locale): string | null {
  if (sales.length === 0 && diagnoses.length === 0) return null;
  const parts: string[] = [];
  const what = locale === 'fr' ? (type === 'house' ? 'Maison' : 'Appartement') : (type === 'house' ? 'House' : 'Flat');
  if (sales.length > 0) {
    const first = sales.at(-1)!, last = sales[0]!;
    const price = last.price === null ? '' : locale === 'fr' ? ` pour ${fmt(last.price, locale)} €` : ` for EUR ${fmt(last.price, locale)}`;
    parts.push(locale === 'fr'
      ? `${what} vendu${type === 'house' ? 'e' : ''} ${sales.length === 1 ? 'une fois' : `${sales.length} fois depuis ${first.date.slice(0, 4)}`}, dernière vente en ${last.date.slice(0, 4)}${price}`
      : `${what} sold ${sales.length === 1 ? 'once' : `${sales.length} times since ${first.date.slice(0, 4)}`}, last in ${last.date.slice(0, 4)}${price}`);
  }
  const d = diagnoses[0];
  if (d?.energy_class) parts.push(locale === 'fr' ? `${sales.length ? 'diagnostic' : `${what}: diagnostic`} énergétique classe ${d.energy_class} en ${d.date.slice(0, 4)}` : `${sales.length ? 'energy' : `${what}: energy`} class ${d.energy_class} in ${d.date.slice(0, 4)}`);
  return parts.length === 0 ? null : `${parts.join('; ')}.`;
}

/** data.property of one property (spec 2.8): its events, deeds and diagnoses from the building reads' stores once open, else SQL (same answers). */
export async function describeProperty(warehouse: Warehouse, clock: Clock, p: PropertyRow, locale: Locale, reads: BuildingReads = buildingReadsOf(warehouse)): Promise<Resolved> {
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const events = await reads.eventsOf(p.id) as EventRow[];
  const saleIds = events.filter((e) => e.type === 'sale').map((e) => e.ref);
  const dpeIds = events.filter((e) => e.type === 'energy_diagnosis').map((e) => e.ref);
  const deeds = await reads.deeds(saleIds);
  const sales = deeds.map((s) => asPropertySale(s, events.find((e) => e.type === 'sale' && e.ref === s.id)?.part ?? null));
  const diags = await reads.diagnosesByNumber(dpeIds);
  const saleOf = new Map(sales.map((s) => [s.id, s])), diagOf = new Map(diags.map((d) => [d.number, d]));
  // Prices of a deed of several dwellings are not this property's: no price per m², no value from them.
  const ownPrice = (s: PropertySale) => (s.deedDwellings === null ? s.price : null);
  const evs: Event[] = [];
  for (const e of events) {
    const attachment = { level: e.level, reason: e.reason, label: LABEL(e.reason, locale) };
    const s = saleOf.get(e.ref), d = diagOf.get(e.ref);
    if (e.type === 'sale' && s) evs.push({ id: e.event_id, type: 'sale', date: e.date, attachment, sale: {
      price: { value: s.price ?? 0, unit: 'EUR' }, price_per_m2: s.price_per_m2 === null || s.deedDwellings !== null ? null : { value: Math.round(s.price_per_m2), unit: 'EUR/m2', surface_basis: 'surface_reelle_bati' },
      surface: s.surface, rooms: s.rooms, market_sale: s.market_sale, annexes: s.outbuildings > 0 ? [`outbuildings:${s.outbuildings}`] : [],
      ...(s.deedDwellings === null ? {} : { deed_dwellings: s.deedDwellings }) } });
    else if (e.type === 'energy_diagnosis' && d) evs.push({ id: e.event_id, type: 'energy_diagnosis', date: e.date, attachment, energy_diagnosis: {
      number: d.number, scheme: d.scheme, energy_class: d.energy_class, energy_per_m2: d.energy_per_m2, climate_class: d.climate_class, surface: d.surface, floor: d.floor,
      heating: { energy: d.heating_energy, system: d.heating_system } } });
  }
  // A sale without a published price is not an event with a price: drop it rather than serve 0.
  const events2 = evs.filter((e) => e.type !== 'sale' || saleOf.get(events.find((x) => x.event_id === e.id)!.ref)!.price !== null);
  const lastSale = sales[0] ?? null;
  const d0 = diags[0] ?? null;
  const feature = (values: { value: number; type: 'sale' | 'energy_diagnosis'; date: string }[], unit: string | null): Feature | null => {
    if (values.length === 0) return null;
    const [first, ...rest] = values;
    const seen = new Set([first!.value]);
    return { value: first!.value, unit, document: { type: first!.type, date: first!.date }, alternatives: rest.filter((r) => !seen.has(r.value) && seen.add(r.value)).map((r) => ({ value: r.value, document: { type: r.type, date: r.date } })) };
  };
  const areas = [...diags.filter((d) => d.surface !== null).map((d) => ({ value: d.surface!, type: 'energy_diagnosis' as const, date: d.date })), ...sales.filter((s) => s.surface !== null).map((s) => ({ value: s.surface!, type: 'sale' as const, date: s.date }))];
  const valued = sales.find((s) => ownPrice(s) !== null) ?? null;
  const value = await indexedLastSale(warehouse, valued, p.type);
  if (value.reason) missing.value_today = value.reason;
  let vs: number | null = null;
  if (value.value && valued?.iris_code && valued.surface) {
    const median = await irisMedian24m(warehouse, valued.iris_code, p.type);
    if (median !== null) vs = percentDifference(value.value.value / valued.surface, median);
  }
  if (vs === null) missing.vs_sublocality_level2 = value.value ? 'insufficient_sample' : missing.value_today ?? 'not_found';
  const others = p.building_id ? (await propertiesOfBuilding(warehouse, p.building_id, reads)).filter((o) => o.id !== p.id) : [];
  const property: FrProperty = {
    status: 'ok', id: p.id, building_id: p.building_id, type: p.type, address: lastSale?.address ?? d0?.address ?? null, lot: p.lot,
    living_area_m2: feature(areas, 'm2'), carrez_area_m2: feature(sales.filter((s) => s.carrez !== null).map((s) => ({ value: s.carrez!, type: 'sale' as const, date: s.date })), 'm2'),
    rooms: feature(sales.filter((s) => s.rooms !== null).map((s) => ({ value: s.rooms!, type: 'sale' as const, date: s.date })), 'count'),
    energy: d0 ? { scheme: d0.scheme, energy_class: d0.energy_class, energy_per_m2: d0.energy_per_m2, climate_class: d0.climate_class, climate_per_m2: d0.climate_per_m2, number: d0.number, date: d0.date } : null,
    last_sale: lastSale ? { date: lastSale.date, price: ownPrice(lastSale) === null ? null : { value: lastSale.price!, unit: 'EUR' }, price_per_m2: lastSale.price_per_m2 === null || ownPrice(lastSale) === null ? null : { value: Math.round(lastSale.price_per_m2), unit: 'EUR/m2' }, surface_basis: lastSale.price_per_m2 === null || ownPrice(lastSale) === null ? null : 'surface_reelle_bati' } : null,
    value_today: value.value, vs_sublocality_level2: vs, events: events2,
    story: storyOf(p.type, sales.map((s) => ({ date: s.date, price: ownPrice(s) })), diags.map((d) => ({ date: d.date, energy_class: d.energy_class })), locale),
    others: others.map((o) => ({ id: o.id, type: o.type, lot: o.lot, floor: o.floor, living_area_m2: o.living_area_m2, last_event_on: o.last_event_on })),
    missing,
  };
  if (!property.carrez_area_m2) missing.carrez_area_m2 = 'not_found';
  if (!property.energy) missing.energy = 'not_found';
  if (!property.last_sale) missing.last_sale = 'not_found';
  if (!property.rooms) missing.rooms = 'not_found';
  if (!property.living_area_m2) missing.living_area_m2 = 'not_found';
  if (property.story === null) missing.story = 'not_found';
  void clock;
  return { value: property, warnings };
}

/** The property a report describes, or why there is none (the same for data.property and the market's monthly rent). */
export type ReportProperty = { property: PropertyRow; reason: null } | { property: null; reason: 'insufficient_precision' | 'unavailable' | 'not_found' };

/** The property chosen by property_id, else the default of the place (its building's first property of the type asked, location.nearest_property_id). */
export async function reportProperty(deps: { warehouse: Warehouse }, ctx: { location: ResolveContext['location']; propertyType?: 'apartment' | 'house'; propertyId?: string }): Promise<ReportProperty> {
  const l = ctx.location;
  if (!BUILDING_PRECISIONS.includes(l.precision)) return { property: null, reason: 'insufficient_precision' };
  if (!deps.warehouse.has('fr', 'properties')) return { property: null, reason: 'unavailable' };
  if (ctx.propertyId) {
    // The property asked for, wherever it is; a merged id describes the kept property.
    const asked = await propertyRecord(deps.warehouse, await keptId(deps.warehouse, 'fr', 'prp', ctx.propertyId));
    if (!asked) throw new ApiError('property_not_found', `no property ${ctx.propertyId}`, { property_id: ctx.propertyId });
    return { property: asked, reason: null };
  }
  const candidates = l.building_id ? await propertiesOfBuilding(deps.warehouse, l.building_id) : [];
  const ofType = ctx.propertyType ? candidates.filter((c) => c.type === ctx.propertyType) : candidates;
  return ofType[0] ? { property: ofType[0], reason: null } : { property: null, reason: 'not_found' };
}

/** The surface of a property a rent per m² applies to: its latest diagnosis's living surface, else the Carrez surface of its latest sale naming one, else its latest sale's built surface. */
export async function rentSurfaceOf(warehouse: Warehouse, p: PropertyRow, reads: BuildingReads = buildingReadsOf(warehouse)): Promise<{ value: number; basis: 'energy_diagnosis' | 'carrez' | 'sale' } | null> {
  if (warehouse.has('fr', 'diagnoses')) {
    // Its diagnoses, most recent first: the first with a surface.
    const refs = (await reads.eventsOf(p.id)).filter((e) => e.type === 'energy_diagnosis').map((e) => e.ref);
    const d = (await reads.diagnosesByNumber(refs)).find((x) => x.surface !== null && x.surface > 0);
    if (d) return { value: d.surface!, basis: 'energy_diagnosis' };
  }
  const row = warehouse.has('fr', 'properties') ? await reads.property(p.id) : null;
  if (row?.carrez_area_m2 && row.carrez_area_m2 > 0) return { value: row.carrez_area_m2, basis: 'carrez' };
  // Without a diagnosis the table's living surface is its latest sale's built surface.
  if (row?.living_area_m2 && row.living_area_m2 > 0) return { value: row.living_area_m2, basis: 'sale' };
  return null;
}

/** data.property in the report: the property chosen by property_id, else the default of the place (location.nearest_property_id). */
export const frProperty: Resolver = async (deps, ctx) => {
  const chosen = await reportProperty(deps, ctx);
  if (chosen.reason === 'insufficient_precision') {
    return { value: { status: 'insufficient_precision', missing: { property: 'insufficient_precision' } }, warnings: [{ domain: 'property', code: 'insufficient_precision', message: `position known at ${ctx.location.precision} precision only: properties are served at address or building precision` }] };
  }
  if (chosen.reason === 'unavailable') return { value: { status: 'unavailable', missing: { property: 'unavailable' } }, warnings: [{ domain: 'property', code: 'data_unavailable', message: 'properties are not built on this service (fr.properties)' }] };
  if (!chosen.property) return { value: { status: 'not_covered', missing: { property: 'not_found' } }, warnings: [] };
  return describeProperty(deps.warehouse, deps.clock, chosen.property, ctx.locale);
};
