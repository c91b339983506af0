import { z } from 'zod';
import { type CodeCatalogue, IsoDate, enumOf } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Amount, Breakdown, Measure, Series } from './measure.ts';

/** Property types of a sale (spec 2.9 items[].type) with their labels. */
export const SALE_TYPES = {
  apartment: { fr: 'Appartement', en: 'Apartment' },
  house: { fr: 'Maison', en: 'House' },
  other: { fr: 'Autre (terrain, local, dépendance, plusieurs logements)', en: 'Other (land, premises, outbuilding, several dwellings)' },
} as const satisfies CodeCatalogue<string>;
export const SaleType = enumOf(SALE_TYPES);

/** A sale around the point (spec 2.9 sales_nearby.items[]). */
export const NearbySale = z.object({
  date: IsoDate,
  address: z.string().nullable(),
  type: SaleType,
  type_label: z.string(),
  surface: z.number().nullable().describe('built surface of the dwellings, m2 (outbuildings excluded)'),
  rooms: z.number().int().nullable(),
  price: Amount.nullable(),
  price_per_m2: Amount.nullable().describe('null for a sale of several dwellings, of land or premises, or not a market sale'),
  distance_m: z.number().int(),
  same_parcel: z.boolean().describe('the sale includes the parcel of the address'),
});
export type NearbySale = z.infer<typeof NearbySale>;

/**
 * ABC zoning (article D304-1 of the construction code): communes classed by the imbalance between
 * housing supply and demand, from the tensest, with their codes as the ministry writes them.
 */
export const ABC_ZONES = ['Abis', 'A', 'B1', 'B2', 'C'] as const;
/** TLV zoning (article 232 of the tax code, décret 2013-392 as amended): the ministry's classes 1-3. */
export const TENSE_ZONE_CLASSES = {
  tense: { fr: 'Zone tendue', en: 'Tense zone' },
  tense_touristic: { fr: 'Zone tendue et touristique', en: 'Tense and touristic zone' },
  not_tense: { fr: 'Zone non tendue', en: 'Not a tense zone' },
} as const satisfies CodeCatalogue<string>;
export const TenseZoneClass = enumOf(TENSE_ZONE_CLASSES);

/** Rent control (encadrement des loyers, loi ELAN art. 140) in force in the commune; null where it is not. */
export const RentControl = z.object({
  scope: z.enum(['commune', 'part_of_commune']).describe('the whole commune, or only part of it (the reference rents apply by area)'),
  since: IsoDate.describe('first day of rent control in the commune'),
  until: IsoDate.nullable().describe('last day of the experiment unless extended; null when the list gives none'),
  zone: z.object({ level: z.string(), code: z.string(), name: z.string().nullable() }).describe('the commune the list names'),
});
export type RentControl = z.infer<typeof RentControl>;

/** market.regulation of France (spec 2.9), at the point's commune (its arrondissement where the lists name them). */
export const Regulation = z.object({
  tense_zone: z.boolean().describe('in a tense zone of the TLV zoning (tense or tense and touristic)'),
  tense_zone_class: TenseZoneClass,
  tense_zone_label: z.string(),
  rent_control: RentControl.nullable().describe('null when rent control does not apply in the commune (missing gives why)'),
  abc_zone: z.enum(ABC_ZONES),
  updated_on: IsoDate.describe("publication date of the lists' editions (the latest of them); their import date only for a list ingested before publication dates were required, with a publication_date_unknown warning"),
});
export type Regulation = z.infer<typeof Regulation>;

/**
 * rent_estimate.monthly (spec 2.9: {value, unit}): the rent per m² times the surface of the property
 * the report describes, with what it rests on: the property, the surface and its document, the
 * per-m² range scaled the same way, and the service's definition.
 */
export const MonthlyRent = Amount.extend({
  range: z.object({ low: z.number(), high: z.number() }).nullable().describe('the per-m² range times the same surface'),
  property_id: z.string().describe('prp_ id of the property whose surface is used'),
  surface_m2: z.number(),
  surface_basis: z.enum(['energy_diagnosis', 'carrez', 'sale']).describe('energy_diagnosis: living surface of its latest diagnosis; carrez: Carrez surface of its lots in its latest sale; sale: built surface (surface réelle bâtie) of its latest sale'),
  definition: z.string(),
});
export type MonthlyRent = z.infer<typeof MonthlyRent>;

/** France data.market (spec 2.9). */
export const FrMarket = z.object({
  status: DomainStatus,
  sales_nearby: z.object({
    count: z.number().int().describe('sales within the radius, all years held'),
    median_price_per_m2: Measure.nullable(),
    items: z.array(NearbySale).describe('nearest first, abridged in a report'),
  }).nullable(),
  price_trend: Series.nullable(),
  rent_estimate: z.object({ monthly: MonthlyRent.nullable(), per_m2: Measure.nullable(), change_1y: z.number().nullable() }).nullable(),
  gross_yield: Measure.nullable(),
  regulation: Regulation.nullable(),
  permits_nearby: z.object({ count: z.number().int(), dwellings_created: z.number().int().nullable(), items: z.array(z.record(z.string(), z.unknown())) }).nullable(),
  missing: Missing,
});
export type FrMarket = z.infer<typeof FrMarket>;

/** A page of the full list of sales around the point. */
export const SalesPage = z.object({
  sales: z.array(NearbySale),
  pagination: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
});

/** A property type's figures in one zone. */
const ByType = <T extends z.ZodType>(t: T) => z.object({ apartment: t.nullable(), house: t.nullable() });

/**
 * France's market of one zone (zone route, spec 4.2 and 4.4: only values published for that zone):
 * the 24-month median price per m² per property type, and its yearly and quarterly series.
 */
export const FrZoneMarket = z.object({
  status: DomainStatus,
  median_price_per_m2: ByType(Measure),
  yearly: ByType(Series).describe('calendar years, changes 1y, 5y and since the first year'),
  quarterly: ByType(Series).describe('calendar quarters, changes to the same quarter 1 and 5 years before'),
  regulation: Regulation.nullable().describe('of a commune (or an arrondissement a list names); null for another level'),
  missing: Missing,
});
export type FrZoneMarket = z.infer<typeof FrZoneMarket>;

/** Quebec data.market (spec 2.9, Canada): rents and vacancy of the rental-survey neighbourhood; the roll's figures to come. */
export const CaMarket = z.object({
  status: DomainStatus,
  registered_sales: z.object({ count: Measure, change: Measure.nullable(), by_price_band: Breakdown.nullable() }).nullable(),
  assessed_values: z.object({ average_single_family: Measure.nullable(), average_per_dwelling: Measure.nullable(), market_factor: Measure.nullable() }).nullable(),
  average_rent: z.object({
    studio: Measure.nullable(), one_bedroom: Measure.nullable(), two_bedrooms: Measure.nullable(), three_bedrooms_plus: Measure.nullable(),
  }).nullable().describe("CMHC's October survey, CAD/month, of the point's rental-survey neighbourhood"),
  gross_yield: Measure.nullable(),
  property_tax: z.object({
    rates: z.object({ residential: Measure.nullable() }),
    estimate: z.object({ value: z.number(), unit: z.literal('CAD/year'), property_id: z.string(), excludes: z.array(z.string()) }).nullable(),
  }),
  rental_vacancy: Measure.nullable().describe('vacancy rate of all bedroom types, %'),
  permits_nearby: z.object({ count: z.number().int(), dwellings_created: z.number().int().nullable(), items: z.array(z.record(z.string(), z.unknown())) }).nullable(),
  missing: Missing,
});
export type CaMarket = z.infer<typeof CaMarket>;

/** A planning permit around the point (spec 2.9 permits_nearby, Belgium: Flanders only); its items are not specified by the spec. */
const PermitsNearby = z.object({ count: z.number().int(), dwellings_created: z.number().int().nullable(), items: z.array(z.record(z.string(), z.unknown())) });

/**
 * Belgium data.market (spec 2.9): the municipality's median sale price of the year per property
 * type (individual sale prices are not published), and planning permits in Flanders.
 */
export const BeMarket = z.object({
  status: DomainStatus,
  sale_price_median: z.object({ apartment: Measure.nullable(), house: Measure.nullable() }).nullable().describe("Statbel's median sale price of the municipality over the year, EUR"),
  permits_nearby: PermitsNearby.nullable().describe('Flanders only; null with missing not_covered elsewhere'),
  missing: Missing,
});
export type BeMarket = z.infer<typeof BeMarket>;
