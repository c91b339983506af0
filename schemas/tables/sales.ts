import { z } from 'zod';

/** property_type of a sale: the kind of its dwellings (spec 2.9). */
export const SalePropertyType = z.enum(['apartment', 'house', 'other']);
export type SalePropertyType = z.infer<typeof SalePropertyType>;

/**
 * One dwelling of a deed, told apart from the others by the file: its parcel and its own lots, with
 * the surface, rooms and Carrez surface of its line. The deed's price is the whole deed's.
 */
export const SaleUnit = z.object({
  parcel: z.string(),
  lots: z.array(z.string()).nullable().describe('its lots, sorted; null for an unlotted dwelling (a house on its parcel)'),
  kind: z.enum(['apartment', 'house']),
  surface: z.number().nullable().describe('surface_reelle_bati of its line').meta({ unit: 'm²' }),
  rooms: z.number().int().nullable(),
  carrez: z.number().nullable().describe('sum of the Carrez surfaces published for its lots').meta({ unit: 'm²' }),
});
export type SaleUnit = z.infer<typeof SaleUnit>;
export const SALE_UNIT_TYPE = 'STRUCT(parcel VARCHAR, lots VARCHAR[], kind VARCHAR, surface DOUBLE, rooms INTEGER, carrez DOUBLE)[]';

/**
 * Row of the table `sales` (data/fr/sales/<partition>.parquet): one sale (a DVF mutation, all its
 * lines), with its parcels and lots, sorted by `cell`. Written by fr.dvf from Etalab's geolocated
 * files and the DGFiP's raw files; read by the market routes and by analysts.
 */
export const SaleRow = z.object({
  id: z.string().describe('mutation identifier: Etalab id_mutation, or dgfip-<hash> for a raw DGFiP mutation'),
  date: z.string().describe('date of the deed, YYYY-MM-DD (DuckDB DATE)'),
  nature: z.string().describe('nature_mutation as published (Vente, Echange, Adjudication...)'),
  market_sale: z.boolean().describe("true for Vente and Vente en l'état futur d'achèvement: the sales market indicators read"),
  price: z.number().nullable().describe('valeur_fonciere of the mutation, EUR').meta({ unit: 'EUR' }),
  property_type: SalePropertyType.describe('apartment or house when every dwelling sold is of that kind; other otherwise (land, shops, outbuildings only, mixed)'),
  dwellings: z.number().int().describe('distinct houses and apartments in the sale'),
  surface: z.number().nullable().describe('built surface of the dwellings (surface_reelle_bati), m2; outbuildings (Dépendance) and shops excluded').meta({ unit: 'm²' }),
  rooms: z.number().int().nullable().describe('main rooms of the dwellings'),
  price_per_m2: z.number().nullable().describe('price / surface, only for a market sale of exactly one dwelling and no shop or industrial premises').meta({ unit: 'EUR/m²' }),
  land_surface: z.number().nullable().describe('land of the parcels, m2 (each land line once)').meta({ unit: 'm²' }),
  outbuildings: z.number().int().describe('Dépendance locals (cellars, parking spaces)'),
  parcels: z.array(z.string()).describe('cadastral parcel ids (14 characters), sorted'),
  lots: z.array(z.string()).nullable().describe('co-ownership lot numbers, sorted; null when the deed names none'),
  carrez_area: z.number().nullable().describe('Carrez surface of the lots of its houses and apartments (Surface Carrez du 1er lot .. 5eme lot, each lot once), m2; null when the deed publishes none').meta({ unit: 'm²' }),
  units: z.array(SaleUnit).nullable().describe('the dwellings of the deed the file tells apart (one dwelling line alone on its parcel with lots of its own, or alone and unlotted on its parcel); null when none is'),
  address: z.string().nullable().describe('address of the first line: number, suffix, street, postcode, commune'),
  commune_code: z.string().describe('INSEE commune code (Paris, Lyon, Marseille: the commune, not the arrondissement)'),
  arrondissement_code: z.string().nullable().describe('municipal arrondissement (Paris, Lyon, Marseille)'),
  department_code: z.string(),
  region_code: z.string().nullable(),
  iris_code: z.string().nullable().describe('IRIS containing the position, from the zones table at ingest; null without position or IRIS'),
  longitude: z.number().nullable().describe('WGS84: centre of the first parcel published with coordinates, else the BAN position of its address').meta({ unit: 'degree' }),
  latitude: z.number().nullable().meta({ unit: 'degree' }),
  position_source: z.enum(['parcel', 'address']).nullable().describe("parcel: Etalab's parcel centre; address: the line's address found in the BAN addresses table; null: no position"),
  cell: z.bigint().nullable().describe('H3 cell at resolution 15 of the position, BIGINT (signed 64-bit: every H3 index is below 2^63); null without position'),
  source: z.string().describe('source id of the catalogue (fr.dvf or fr.dvf-dgfip)'),
});
export type SaleRow = z.infer<typeof SaleRow>;

export const SALE_COLUMNS = {
  id: 'VARCHAR', date: 'DATE', nature: 'VARCHAR', market_sale: 'BOOLEAN', price: 'DOUBLE', property_type: 'VARCHAR',
  dwellings: 'INTEGER', surface: 'DOUBLE', rooms: 'INTEGER', price_per_m2: 'DOUBLE', land_surface: 'DOUBLE', outbuildings: 'INTEGER',
  parcels: 'VARCHAR[]', lots: 'VARCHAR[]', carrez_area: 'DOUBLE', units: SALE_UNIT_TYPE, address: 'VARCHAR', commune_code: 'VARCHAR', arrondissement_code: 'VARCHAR',
  department_code: 'VARCHAR', region_code: 'VARCHAR', iris_code: 'VARCHAR', longitude: 'DOUBLE', latitude: 'DOUBLE', position_source: 'VARCHAR', cell: 'BIGINT', source: 'VARCHAR',
} as const satisfies Record<keyof SaleRow, string>;
