/**
 * The property resource in its 3.2 shape (the internal model) and its write payload, identical
 * for every version (spec section 4). Older versions' read shapes are in ./v3_0.ts.
 *
 * Surfaces: `area` is the living area in the unit it was entered in (`area_unit`);
 * `area_converted` gives it in both units. Money amounts are numbers in `financial.currency`.
 */
import { z } from 'zod';
import { bodyInt, INT8, INT4, queryDecimal, queryInt, safeText } from '../inputs.ts';
import { CurrencyCode, Formatted, MlsBoard, PageQuery, Timestamp, TimestampFilter, oneOf, pageOf, updateOf } from './common.ts';

export const PROPERTY_STATUSES = ['draft', 'active', 'pending', 'sold', 'rented', 'withdrawn', 'expired'] as const;
export const PROPERTY_TYPES = ['house', 'condo', 'apartment', 'duplex', 'triplex', 'multiplex', 'cottage', 'land', 'farm', 'commercial', 'other'] as const;
export const TRANSACTION_TYPES = ['sale', 'rent'] as const;
export const AREA_UNITS = ['square-meter', 'square-foot'] as const;
export const AMENITIES = [
  'air_conditioning', 'balcony', 'elevator', 'fireplace', 'furnished', 'garage', 'garden',
  'parking', 'pool', 'storage', 'terrace', 'wheelchair_access',
] as const;

export const PropertyStatus = z.enum(PROPERTY_STATUSES);
export const PropertyType = z.enum(PROPERTY_TYPES);
export const TransactionType = z.enum(TRANSACTION_TYPES);
export const AreaUnit = z.enum(AREA_UNITS);
export const Amenity = z.enum(AMENITIES);

const Amount = z.number().nonnegative().max(1e12);
const Area = z.number().positive().max(1e9);
const Text = (max: number) => z.string().trim().min(1).max(max);

/* ---------------------------------------------------------------- */
/* Write payload (create; update takes any subset of its fields)     */
/* ---------------------------------------------------------------- */

export const AddressInput = z.strictObject({
  street_number: Text(20).nullable().default(null),
  street_name: Text(200).nullable().default(null),
  unit_number: Text(20).nullable().default(null).describe('apartment or unit number'),
  city: Text(100),
  region: Text(100).nullable().default(null).describe('province, department or region'),
  postal_code: Text(20).nullable().default(null),
  country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals'),
  latitude: z.number().min(-90).max(90).nullable().default(null),
  longitude: z.number().min(-180).max(180).nullable().default(null),
});

export const PhotoInput = z.strictObject({
  url: z.url().max(2000),
  caption: Text(300).nullable().default(null),
});

export const RoomInput = z.strictObject({
  name: Text(100).describe('room name, e.g. Kitchen, Cuisine'),
  level: Text(50).nullable().default(null).describe('floor, e.g. ground floor, 2'),
  area: Area.nullable().default(null).describe('in the unit of surface_areas.unit'),
  dimensions: Text(50).nullable().default(null).describe('as measured, e.g. 12 x 14 ft'),
  flooring: Text(100).nullable().default(null),
});

export const LotInput = z.strictObject({
  kind: z.enum(['lot', 'frontage', 'depth', 'easement', 'other']).default('lot'),
  area: Area.nullable().default(null).describe('in the unit of surface_areas.unit'),
  cadastre_number: Text(50).nullable().default(null),
});

/** Life lease (viager): amounts are numbers in every version when written (spec 2.2). */
export const LifeLeaseInput = z.strictObject({
  venal_value: Amount.nullable().default(null).describe('market value of the property'),
  life_annuity: Amount.nullable().default(null).describe('periodic annuity paid to the seller'),
});

export const SurfaceAreasInput = z.strictObject({
  unit: AreaUnit.default('square-meter'),
  living_area: Area.nullable().default(null),
  lot_area: Area.nullable().default(null),
  building_area: Area.nullable().default(null),
});

export const PropertyInput = z.strictObject({
  agency_id: bodyInt(INT8, { min: 1 }).nullable().default(null),
  user_id: bodyInt(INT8, { min: 1 }).nullable().default(null).describe('listing broker; must belong to agency_id'),
  status: PropertyStatus.default('draft'),
  transaction_type: TransactionType,
  property_type: PropertyType,
  price: Amount.nullable().default(null).describe('asking price (sale)'),
  rent: Amount.nullable().default(null).describe('monthly rent (rent)'),
  sold_price: Amount.nullable().default(null),
  currency: CurrencyCode,
  bedrooms: z.number().int().min(0).max(200).nullable().default(null),
  bathrooms: z.number().int().min(0).max(200).nullable().default(null),
  year_built: z.number().int().min(1500).max(2100).nullable().default(null),
  description: z.string().trim().max(20_000).nullable().default(null),
  address: AddressInput,
  surface_areas: SurfaceAreasInput.default({ unit: 'square-meter', living_area: null, lot_area: null, building_area: null }),
  rooms_details: z.array(RoomInput).max(100).default([]),
  lot_details: z.array(LotInput).max(50).default([]),
  life_lease: LifeLeaseInput.nullable().default(null),
  amenities: z.array(Amenity).max(AMENITIES.length).default([]),
  photos: z.array(PhotoInput).max(100).default([]),
  gateway_ids: z.array(bodyInt(INT8, { min: 1 })).max(100).default([]).describe('gateways the listing is published to'),
});
export type PropertyInput = z.output<typeof PropertyInput>;

/** Update: any subset of the create fields; a nested object or list given replaces the stored one. */
export const PropertyUpdate = updateOf(PropertyInput.shape);
export type PropertyUpdate = z.output<typeof PropertyUpdate>;

/* ---------------------------------------------------------------- */
/* Read shapes, 3.2 (and 3.1: spec 2.5)                              */
/* ---------------------------------------------------------------- */

const Money = z.number().nullable();

export const AreaInUnit = z.strictObject({ area: z.number().nullable(), area_formatted: Formatted.nullable() });
export const AreaConverted = z.strictObject({ 'square-meter': AreaInUnit, 'square-foot': AreaInUnit });

export const Address = z.strictObject({
  street_number: z.string().nullable(),
  street_name: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
/** The detail's address carries the unit number (spec 2.3). */
export const AddressDetail = Address.extend({ unit_number: z.string().nullable() });

export const Photo = z.strictObject({ url: z.string(), caption: z.string().nullable(), position: z.number().int() });

export const Room = z.strictObject({
  name: z.string(),
  level: z.string().nullable(),
  area: z.number().nullable(),
  area_formatted: Formatted.nullable(),
  dimensions: z.string().nullable(),
  flooring: z.string().nullable(),
});
export const Lot = z.strictObject({
  kind: z.string(),
  area: z.number().nullable(),
  area_formatted: Formatted.nullable(),
  cadastre_number: z.string().nullable(),
});
export const LifeLease = z.strictObject({ venal_value: Money, life_annuity: Money });
export const SurfaceAreas = z.strictObject({
  unit: AreaUnit,
  living_area: z.number().nullable(),
  lot_area: z.number().nullable(),
  building_area: z.number().nullable(),
  formatted: z.strictObject({ living_area: Formatted.nullable(), lot_area: Formatted.nullable(), building_area: Formatted.nullable() }),
});

/** A property as search results serve it. */
export const PropertySummary = z.strictObject({
  id: z.number().int(),
  mls_board: MlsBoard,
  agency_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  status: PropertyStatus,
  transaction_type: TransactionType,
  property_type: PropertyType,
  price: Money,
  rent: Money,
  sold_price: Money,
  financial: z.strictObject({ currency: CurrencyCode }),
  price_formatted: Formatted.nullable().describe('price (or rent when for rent) in financial.currency, per locale'),
  area: z.number().nullable().describe('living area in area_unit'),
  area_unit: AreaUnit,
  area_formatted: Formatted.nullable(),
  area_converted: AreaConverted,
  bedrooms: z.number().int().nullable(),
  bathrooms: z.number().int().nullable(),
  address: Address,
  amenities: z.array(Amenity),
  photos: z.array(Photo),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type PropertySummary = z.infer<typeof PropertySummary>;

/** A property as get, create and update serve it. */
export const PropertyDetail = PropertySummary.extend({
  address: AddressDetail,
  description: z.string().nullable(),
  year_built: z.number().int().nullable(),
  surface_areas: SurfaceAreas,
  rooms_details: z.array(Room),
  lot_details: z.array(Lot),
  life_lease: LifeLease.nullable(),
  gateway_ids: z.array(z.number().int()),
});
export type PropertyDetail = z.infer<typeof PropertyDetail>;

export const PropertyPage = pageOf(PropertySummary);
export const PropertyOne = oneOf(PropertyDetail);

/** Filters of GET /properties and /properties/search (identical in every version). */
const csv = <T extends z.ZodType<unknown, string>>(item: T) =>
  z.string().transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== '')).pipe(z.array(item).min(1));
const num = queryDecimal({ max: 1e12 });
export const PropertySearchQuery = z.strictObject({
  ...PageQuery,
  status: csv(PropertyStatus).optional().describe('comma-separated statuses'),
  property_type: csv(PropertyType).optional().describe('comma-separated property types'),
  transaction_type: TransactionType.optional(),
  agency_id: queryInt(INT8, { min: 1 }).optional(),
  user_id: queryInt(INT8, { min: 1 }).optional(),
  city: safeText({ max: 100, trim: true }).optional().describe('exact city name, case and accents ignored'),
  postal_code: safeText({ max: 20, trim: true }).optional().describe('postal code prefix, spaces ignored'),
  min_price: num.optional(), max_price: num.optional(),
  min_rent: num.optional(), max_rent: num.optional(),
  min_bedrooms: queryInt(INT4, { min: 0 }).optional(), max_bedrooms: queryInt(INT4, { min: 0 }).optional(),
  min_bathrooms: queryInt(INT4, { min: 0 }).optional(),
  min_area: num.optional().describe('living area in square meters'), max_area: num.optional(),
  amenities: csv(Amenity).optional().describe('comma-separated; a property must have all of them'),
  updated_since: TimestampFilter.optional(),
});
export type PropertySearchQuery = z.output<typeof PropertySearchQuery>;
