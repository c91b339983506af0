/**
 * Read shapes of version 3.0 where they differ from 3.1/3.2 (spec 2.1 to 2.4). Written from
 * the 3.2 shapes so the differences are visible here and nowhere else.
 */
import { z } from 'zod';
import { oneOf, pageOf } from './common.ts';
import { Address, Amenity, Lot, PropertyDetail, PropertySummary, Room, SurfaceAreas } from './property.ts';

/** 2.1: formatted surfaces are plain strings, in the locale of the path. */
const FormattedString = z.string().nullable();
const AreaInUnit30 = z.strictObject({ area: z.number().nullable(), area_formatted: FormattedString });
const AreaConverted30 = z.strictObject({ 'square-meter': AreaInUnit30, 'square-foot': AreaInUnit30 });

/** 2.2: a life-annuity amount as integer cents and a lowercase currency code. */
export const Cents = z.strictObject({ cents: z.number().int(), currency_iso: z.string().regex(/^[a-z]{3}$/) });
const LifeLease30 = z.strictObject({ venal_value: Cents.nullable(), life_annuity: Cents.nullable() });

export const PropertySummary30 = PropertySummary.extend({
  area_formatted: FormattedString,
  area_converted: AreaConverted30,
  /** 2.4: the misspelt alias of amenities, same content. */
  amenties: z.array(Amenity),
});

export const PropertyDetail30 = PropertyDetail.extend({
  area_formatted: FormattedString,
  area_converted: AreaConverted30,
  /** 2.3: no unit_number before 3.1. */
  address: Address,
  surface_areas: SurfaceAreas.extend({
    formatted: z.strictObject({ living_area: FormattedString, lot_area: FormattedString, building_area: FormattedString }),
  }),
  rooms_details: z.array(Room.extend({ area_formatted: FormattedString })),
  lot_details: z.array(Lot.extend({ area_formatted: FormattedString })),
  life_lease: LifeLease30.nullable(),
});

export const PropertyPage30 = pageOf(PropertySummary30);
export const PropertyOne30 = oneOf(PropertyDetail30);
