import { z } from 'zod';

/** How a registered co-ownership is attached to a building (spec 2.5 attachment levels), with its labels. */
export const COPRO_ATTACHMENTS = {
  parcel_in_registry: { level: 'sure', fr: 'Le registre des copropriétés désigne la parcelle du bâtiment', en: 'The co-ownership registry names the parcel of the building' },
  copro_in_diagnosis: { level: 'sure', fr: "Un diagnostic à l'adresse du bâtiment porte le numéro d'immatriculation", en: 'A diagnosis at the address of the building carries the registration number' },
  address_matches: { level: 'probable', fr: "L'adresse de référence du registre est une adresse du bâtiment", en: 'The reference address of the registry is an address of the building' },
  position_in_footprint: { level: 'probable', fr: "Le point du registre est dans l'emprise du bâtiment", en: 'The point of the registry falls in the footprint of the building' },
} as const;
export type CoproAttachment = keyof typeof COPRO_ATTACHMENTS;

/**
 * Row of `copro` (data/tables/copro/country=fr/rnic-<department>.parquet): one co-ownership of the
 * national registry (RNIC, ANAH) per building it is attached to, sorted by building; a co-ownership
 * attached to none is kept once with a null building. Written by fr.copro; read by the building
 * domain (building.copro).
 */
export const CoproRow = z.object({
  registration_number: z.string().describe("numero_immatriculation: the registry's number (two letters, seven digits)"),
  building_id: z.string().nullable().describe('bld_ id of the building it is attached to; null when none is found'),
  attachment: z.enum(['sure', 'probable']).nullable(),
  attachment_reason: z.enum(Object.keys(COPRO_ATTACHMENTS) as [CoproAttachment, ...CoproAttachment[]]).nullable(),
  name: z.string().nullable().describe('nom_usage_copropriete'),
  registered_on: z.string().nullable().describe('date_immatriculation (DATE)'),
  regulation_on: z.string().nullable().describe('date_reglement_copropriete (DATE)'),
  construction_period: z.string().nullable().describe('periode_construction as a code of ours: before_1949, 1949_1960, 1961_1974, 1975_1993, 1994_2000, 2001_2010, 2011_or_later'),
  lots_total: z.number().int().nullable(),
  lots_dwellings: z.number().int().nullable().describe('nombre_lots_habitation'),
  lots_parking: z.number().int().nullable().describe('nombre_lots_stationnement'),
  manager_type: z.enum(['professional', 'volunteer', 'cooperative']).nullable().describe('type_syndic'),
  manager_name: z.string().nullable().describe('raison_sociale_representant_legal (a volunteer manager is not named in the open data)'),
  manager_siret: z.string().nullable(),
  mandate_active: z.boolean().nullable().describe('mandat_en_cours'),
  mandate_ends_on: z.string().nullable().describe('date_fin_dernier_mandat (DATE)'),
  address: z.string().nullable().describe('adresse_reference as published'),
  parcels: z.array(z.string()).describe('the parcels of the registry as 14-character cadastre ids (Paris, Lyon, Marseille brought from the city code and arrondissement prefix to the arrondissement code)'),
  commune_code: z.string().nullable(),
  longitude: z.number().nullable().describe('WGS84 as published').meta({ unit: 'degree' }),
  latitude: z.number().nullable().meta({ unit: 'degree' }),
  updated_on: z.string().nullable().describe('date_derniere_maj (DATE)'),
  department_code: z.string(),
});
export type CoproRow = z.infer<typeof CoproRow>;
export const COPRO_COLUMNS = {
  registration_number: 'VARCHAR', building_id: 'VARCHAR', attachment: 'VARCHAR', attachment_reason: 'VARCHAR', name: 'VARCHAR', registered_on: 'DATE', regulation_on: 'DATE',
  construction_period: 'VARCHAR', lots_total: 'INTEGER', lots_dwellings: 'INTEGER', lots_parking: 'INTEGER', manager_type: 'VARCHAR', manager_name: 'VARCHAR',
  manager_siret: 'VARCHAR', mandate_active: 'BOOLEAN', mandate_ends_on: 'DATE', address: 'VARCHAR', parcels: 'VARCHAR[]', commune_code: 'VARCHAR',
  longitude: 'DOUBLE', latitude: 'DOUBLE', updated_on: 'DATE', department_code: 'VARCHAR',
} as const satisfies Record<keyof CoproRow, string>;
