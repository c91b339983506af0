import { z } from 'zod';

/**
 * Row of `building_links` (data/fr/building_links/rnb-<department>.parquet): what names a building
 * besides its footprint: a BAN address (`address`), a cadastral parcel (`parcel`), the RNB id
 * (`rnb`), the BDNB group (`bdnb`). Written by fr.buildings; read to find the building of an
 * address and the buildings of a parcel (sales are attached through the parcel).
 */
export const BuildingLinkRow = z.object({
  building_id: z.string().describe('bld_ id of ours'),
  kind: z.enum(['address', 'parcel', 'rnb', 'bdnb']),
  key: z.string().describe('BAN address id, 14-character parcel id, RNB id or BDNB group id'),
});
export type BuildingLinkRow = z.infer<typeof BuildingLinkRow>;
export const BUILDING_LINK_COLUMNS = { building_id: 'VARCHAR', kind: 'VARCHAR', key: 'VARCHAR' } as const satisfies Record<keyof BuildingLinkRow, string>;

/** One source's value of a building characteristic, as the Feature of spec 2.5 serves it. */
export const SourcedValue = z.object({
  value: z.union([z.number(), z.string()]),
  document: z.object({ type: z.literal('building_record'), date: z.string().nullable() }),
  source: z.string().describe('catalogue id of the source (fr.bdnb, fr.rnb) and, after a colon, the producer of the value inside it (ffo, bdtopo)'),
});

/**
 * The attributes of a building in the areas table `buildings` (layer `building`, id = bld_ id,
 * geometry = RNB footprint): each characteristic with the values its sources give, most reliable
 * first (the domain serves the first and keeps the others as alternatives).
 */
export const BuildingAttributes = z.object({
  rnb_id: z.string(),
  bdnb_id: z.string().nullable(),
  department: z.string(),
  type: z.enum(['apartment_building', 'house', 'mixed_use', 'other']).nullable(),
  address_ids: z.array(z.string()),
  parcels: z.array(z.string()),
  footprint_m2: z.number().nullable(),
  construction_year: z.array(SourcedValue),
  levels: z.array(SourcedValue),
  dwellings: z.array(SourcedValue),
  height_m: z.array(SourcedValue),
  materials: z.object({ walls: z.string().nullable(), roof: z.string().nullable() }),
  /** BDNB's Mérimée columns: the nearest historic monument within 500 m, null when none; absent when the export had no such columns. */
  historic_monument: z.object({ name: z.string(), distance_m: z.number() }).nullable().optional(),
  /** BDNB's Enedis columns: residential kWh per meter and year; absent when the export had none. */
  electricity_per_meter: z.array(z.object({ year: z.number().int(), kwh: z.number() })).optional(),
  /** BDNB's RPLS column: social dwellings of the group, null when the RPLS names none; absent when the export had no such column. */
  social_housing_dwellings: z.number().int().nullable().optional(),
  /** BDNB's owner tables: the legal persons owning premises in the group, most premises first; absent when the export's owner tables were not read. */
  legal_owners: z.array(z.object({ name: z.string(), siren: z.string().nullable(), legal_form: z.string().nullable(), premises: z.number().int().nullable() })).optional(),
});
export type BuildingAttributes = z.infer<typeof BuildingAttributes>;
