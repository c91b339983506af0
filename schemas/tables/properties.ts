import { z } from 'zod';

/**
 * Row of `properties` (data/fr/properties/<department>.parquet): one property (a flat by its lots,
 * a house by its parcels, a dwelling named by a diagnosis), its prp_ id of ours from the registry.
 * Written by fr.properties from sales, diagnoses and building links; read by the property domain.
 */
export const PropertyRow = z.object({
  id: z.string().describe('prp_ id of ours'),
  building_id: z.string().nullable().describe('bld_ id: the one building of its parcel or of its address'),
  type: z.enum(['apartment', 'house']),
  lot: z.string().nullable().describe('co-ownership lots of the deed (flats), separated by |'),
  parcel: z.string().nullable(),
  floor: z.number().int().nullable().describe('from its latest diagnosis'),
  living_area_m2: z.number().nullable().describe('from its latest diagnosis, else its latest sale'),
  rooms: z.number().int().nullable().describe('from its latest sale'),
  carrez_area_m2: z.number().nullable().describe('Carrez surface of its lots in its latest sale publishing one (DVF Surface Carrez du Nème lot)'),
  last_event_on: z.string().describe('DATE'),
  department_code: z.string(),
});
export const PROPERTY_COLUMNS = {
  id: 'VARCHAR', building_id: 'VARCHAR', type: 'VARCHAR', lot: 'VARCHAR', parcel: 'VARCHAR', floor: 'INTEGER', living_area_m2: 'DOUBLE', rooms: 'INTEGER', carrez_area_m2: 'DOUBLE', last_event_on: 'DATE', department_code: 'VARCHAR',
} as const satisfies Record<keyof z.infer<typeof PropertyRow>, string>;

/** Attachment reasons of an event to a property (spec 2.5), with their labels. */
export const ATTACHMENT_REASONS = {
  lot_in_deed: { level: 'sure', fr: "L'acte de vente désigne les lots du bien", en: 'The deed names the lots of the property' },
  parcel_in_deed: { level: 'sure', fr: "L'acte de vente désigne la parcelle de la maison", en: 'The deed names the parcel of the house' },
  dwelling_in_diagnosis: { level: 'sure', fr: 'Le diagnostic désigne le logement (invariant fiscal, numéro RPLS ou le diagnostic lui-même)', en: 'The diagnosis names the dwelling (tax invariant, RPLS number or the diagnosis itself)' },
  surface_matches_lot: { level: 'probable', fr: 'Même bâtiment, surface à 3 % de celle de la vente', en: 'Same building, surface within 3 % of the sale' },
} as const;
export type AttachmentReason = keyof typeof ATTACHMENT_REASONS;

/** Row of `property_events`: an event (sale, diagnosis) attached to a property, sure or probable, with its coded reason. */
export const PropertyEventRow = z.object({
  property_id: z.string(),
  event_id: z.string(),
  type: z.enum(['sale', 'energy_diagnosis']),
  date: z.string().describe('DATE'),
  level: z.enum(['sure', 'probable']),
  reason: z.enum(Object.keys(ATTACHMENT_REASONS) as [AttachmentReason, ...AttachmentReason[]]),
  ref: z.string().describe('the sale id (sales.id) or the diagnosis number (diagnoses.number)'),
  part: z.string().nullable().describe("for a deed of several dwellings, the unit of the sale this property is (sales.units: '<parcel>:<lots>'); null when the event is the whole deed"),
  department_code: z.string(),
});
export const PROPERTY_EVENT_COLUMNS = {
  property_id: 'VARCHAR', event_id: 'VARCHAR', type: 'VARCHAR', date: 'DATE', level: 'VARCHAR', reason: 'VARCHAR', ref: 'VARCHAR', part: 'VARCHAR', department_code: 'VARCHAR',
} as const satisfies Record<keyof z.infer<typeof PropertyEventRow>, string>;
