import { z } from 'zod';

/** Scheme of an energy diagnosis: ADEME's DPE since July 2021, for new or existing dwellings. */
export const DpeScheme = z.enum(['dpe_v2_new', 'dpe_v2_existing']);
export const EnergyClass = z.enum(['A', 'B', 'C', 'D', 'E', 'F', 'G']);

/**
 * Row of `diagnoses` (data/fr/diagnoses/<scheme>-<department>.parquet): one published DPE, with
 * the event id of ours it is given (id registry, kind evt: a diagnosis replacing another keeps its
 * event id). Written by fr.dpe; read by the building and property domains.
 */
export const DiagnosisRow = z.object({
  number: z.string().describe('N°DPE, 13 characters'),
  replaces: z.string().nullable().describe('N°_DPE_remplacé: the diagnosis this one corrects'),
  superseded: z.boolean().describe('a later diagnosis of the same input replaces this one: kept for the record, not served'),
  event_id: z.string().describe('evt_ id of ours (id registry), shared with the diagnosis it replaces'),
  date: z.string().describe('Date_établissement_DPE, YYYY-MM-DD'),
  scheme: DpeScheme,
  level: z.enum(['dwelling', 'building']).describe('dwelling: one flat or house; building: the whole building (Type_bâtiment immeuble)'),
  dwelling_type: z.enum(['apartment', 'house', 'building']),
  energy_class: EnergyClass.nullable(),
  energy_per_m2: z.number().nullable().describe('primary energy, 5 uses, kWh/m2/year'),
  climate_class: EnergyClass.nullable(),
  climate_per_m2: z.number().nullable().describe('greenhouse gases, 5 uses, kgCO2/m2/year'),
  surface: z.number().nullable().describe('living area of the dwelling (of the building for a building-level diagnosis), m2'),
  floor: z.number().int().nullable(),
  heating_energy: z.string().nullable(),
  heating_system: z.string().nullable().describe('individuel or collectif, as published'),
  building_number: z.string().nullable().describe('N°_DPE_immeuble_associé: the building-level diagnosis of the building'),
  rpls: z.string().nullable().describe('N°_RPLS_logement: social-housing dwelling id'),
  tax_invariant: z.string().nullable().describe('Invariant_fiscal_logement (NC read as null)'),
  copro_number: z.string().nullable().describe('N°_immatriculation_copropriété (RNIC)'),
  construction_year: z.number().int().nullable().describe('Année_construction (existing dwellings only)'),
  building_levels: z.number().int().nullable().describe('Nombre_niveau_immeuble'),
  building_dwellings: z.number().int().nullable().describe('Nombre_appartement: dwellings of the building'),
  ban_id: z.string().nullable().describe('Identifiant__BAN of the address'),
  address: z.string().nullable(),
  commune_code: z.string().nullable(),
  department_code: z.string(),
  longitude: z.number().nullable().describe('WGS84, from the Lambert-93 BAN coordinates'),
  latitude: z.number().nullable(),
  source: z.string(),
});
export type DiagnosisRow = z.infer<typeof DiagnosisRow>;

export const DIAGNOSIS_COLUMNS = {
  number: 'VARCHAR', replaces: 'VARCHAR', superseded: 'BOOLEAN', event_id: 'VARCHAR', date: 'DATE', scheme: 'VARCHAR', level: 'VARCHAR', dwelling_type: 'VARCHAR',
  energy_class: 'VARCHAR', energy_per_m2: 'DOUBLE', climate_class: 'VARCHAR', climate_per_m2: 'DOUBLE', surface: 'DOUBLE', floor: 'INTEGER',
  heating_energy: 'VARCHAR', heating_system: 'VARCHAR', building_number: 'VARCHAR', rpls: 'VARCHAR', tax_invariant: 'VARCHAR', copro_number: 'VARCHAR',
  construction_year: 'INTEGER', building_levels: 'INTEGER', building_dwellings: 'INTEGER',
  ban_id: 'VARCHAR', address: 'VARCHAR', commune_code: 'VARCHAR', department_code: 'VARCHAR', longitude: 'DOUBLE', latitude: 'DOUBLE', source: 'VARCHAR',
} as const satisfies Record<keyof DiagnosisRow, string>;
