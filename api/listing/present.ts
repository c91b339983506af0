/**
 * A stored property (its write payload plus ids and dates) in the 3.2 read shape: formatted
 * values and converted surfaces are computed here, never stored. Pure.
 */
import type { PropertyDetail, PropertyInput, PropertySummary } from '../../schemas/listing/property.ts';
import { convertArea, formatArea, formatMoney } from './format.ts';

export interface PropertyRecord {
  id: number;
  mls_board: string;
  input: Omit<PropertyInput, 'gateway_ids'>;
  gateway_ids: number[];
  created_at: Date;
  updated_at: Date;
}

export function presentSummary(r: PropertyRecord): PropertySummary {
  const p = r.input;
  const unit = p.surface_areas.unit;
  const area = p.surface_areas.living_area;
  const inUnit = (to: 'square-meter' | 'square-foot') => {
    const v = area === null ? null : convertArea(area, unit, to);
    return { area: v, area_formatted: formatArea(v, to) };
  };
  const a = p.address;
  // Built field by field: jsonb does not keep the key order of the write payload.
  const address = {
    street_number: a.street_number, street_name: a.street_name, city: a.city, region: a.region,
    postal_code: a.postal_code, country: a.country, latitude: a.latitude, longitude: a.longitude,
  };
  return {
    id: r.id,
    mls_board: r.mls_board,
    agency_id: p.agency_id,
    user_id: p.user_id,
    status: p.status,
    transaction_type: p.transaction_type,
    property_type: p.property_type,
    price: p.price,
    rent: p.rent,
    sold_price: p.sold_price,
    financial: { currency: p.currency },
    price_formatted: formatMoney(p.transaction_type === 'rent' ? p.rent : p.price, p.currency),
    area,
    area_unit: unit,
    area_formatted: formatArea(area, unit),
    area_converted: { 'square-meter': inUnit('square-meter'), 'square-foot': inUnit('square-foot') },
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    address,
    amenities: p.amenities,
    photos: p.photos.map((ph, i) => ({ url: ph.url, caption: ph.caption, position: i + 1 })),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function presentDetail(r: PropertyRecord): PropertyDetail {
  const p = r.input;
  const s = p.surface_areas;
  return {
    ...presentSummary(r),
    address: { ...presentSummary(r).address, unit_number: p.address.unit_number },
    description: p.description,
    year_built: p.year_built,
    surface_areas: {
      unit: s.unit, living_area: s.living_area, lot_area: s.lot_area, building_area: s.building_area,
      formatted: { living_area: formatArea(s.living_area, s.unit), lot_area: formatArea(s.lot_area, s.unit), building_area: formatArea(s.building_area, s.unit) },
    },
    rooms_details: p.rooms_details.map((room) => ({
      name: room.name, level: room.level, area: room.area, area_formatted: formatArea(room.area, s.unit), dimensions: room.dimensions, flooring: room.flooring,
    })),
    lot_details: p.lot_details.map((lot) => ({ kind: lot.kind, area: lot.area, area_formatted: formatArea(lot.area, s.unit), cadastre_number: lot.cadastre_number })),
    life_lease: p.life_lease === null ? null : { venal_value: p.life_lease.venal_value, life_annuity: p.life_lease.life_annuity },
    gateway_ids: r.gateway_ids,
  };
}
