import { z } from 'zod';

/**
 * Row of the table `addresses` (data/<country>/addresses/<partition>.parquet): one official
 * address point, WGS84, sorted by `cell`. Written by fr.ban, ca.*, be.* and the generic
 * `addresses` job; read by the location routes and by analysts.
 */
export const AddressRow = z.object({
  id: z.string().describe("producer's identifier of the address (BAN id, ...)"),
  cell: z.bigint().describe('H3 cell at resolution 15 of the point, as BIGINT (signed 64-bit: every H3 index is below 2^63)'),
  longitude: z.number().describe('WGS84 longitude, degrees').meta({ unit: 'degree' }),
  latitude: z.number().describe('WGS84 latitude, degrees').meta({ unit: 'degree' }),
  number: z.number().int().nullable().describe('street number'),
  rep: z.string().nullable().describe('number suffix (bis, ter, a, b...)'),
  street: z.string().describe('street name as published'),
  postcode: z.string().nullable(),
  locality_code: z.string().nullable().describe('official code of the locality (INSEE commune or arrondissement code in France); null when the producer gives none'),
  locality_name: z.string(),
  label: z.string().describe('full address label as shown to users'),
  street_key: z.string().describe('normalised street name used for matching'),
  locality_key: z.string().describe('normalised locality name used for matching'),
  position_kind: z.string().nullable().describe("producer's position type (BAN type_position: entrée, bâtiment, parcelle...)"),
  parcels: z.array(z.string()).nullable().describe('cadastral parcel references as published, in their order (a Parquet list); null when the producer gives none'),
  source: z.string().describe('source id of the catalogue'),
});
export type AddressRow = z.infer<typeof AddressRow>;

/** DuckDB column types of the table, in order (one definition for writer, docs and readers). */
export const ADDRESS_COLUMNS = {
  id: 'VARCHAR', cell: 'BIGINT', longitude: 'DOUBLE', latitude: 'DOUBLE', number: 'INTEGER', rep: 'VARCHAR',
  street: 'VARCHAR', postcode: 'VARCHAR', locality_code: 'VARCHAR', locality_name: 'VARCHAR', label: 'VARCHAR',
  street_key: 'VARCHAR', locality_key: 'VARCHAR', position_kind: 'VARCHAR', parcels: 'VARCHAR[]', source: 'VARCHAR',
} as const satisfies Record<keyof AddressRow, string>;
