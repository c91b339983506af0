import { z } from 'zod';
import { IsoDate } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Feature } from './feature.ts';
import { Hazard } from './hazard.ts';
import { Amount, Measure, Series } from './measure.ts';

/** data.building.type (spec 2.7). */
export const BuildingType = z.enum(['apartment_building', 'house', 'mixed_use', 'other']);

/** One diagnosis of the building (spec 2.7 energy_diagnoses[]). */
export const BuildingDiagnosis = z.object({
  date: IsoDate,
  energy_class: z.string().nullable(),
  energy_per_m2: z.number().nullable(),
  surface: z.number().nullable(),
  floor: z.number().int().nullable(),
  number: z.string(),
  property_id: z.string().nullable(),
});

/** One sale of the building (spec 2.7 sales[]): a DVF mutation on one of its parcels. */
export const BuildingSale = z.object({
  date: IsoDate,
  lot: z.string().nullable().describe('co-ownership lots of the deed, separated by |'),
  property_id: z.string().nullable(),
  type: z.enum(['apartment', 'house', 'other']),
  rooms: z.number().int().nullable(),
  surface: z.number().nullable(),
  price: Amount.nullable(),
  price_per_m2: Amount.nullable(),
});

/**
 * One legal person owning premises in the building (spec 2.7 legal_owners), as DGFiP's fichiers
 * des locaux des personnes morales name it through the BDNB; natural persons are never published.
 */
export const LegalOwner = z.object({
  name: z.string().describe('denomination of the legal person'),
  siren: z.string().regex(/^\d{9}$/).nullable().describe('SIREN number, null when the file gives none'),
  legal_form: z.string().nullable().describe('abbreviated legal form as published (SCI, SA, SARL...), null when none'),
  premises: z.number().int().nullable().describe('premises (locaux) it holds in the building'),
});

/**
 * data.building for France (spec 2.7): computed at precision building, address or input only;
 * otherwise the domain answers `insufficient_precision`. Characteristics not ingested yet
 * (protected area, fiber, energy potential; heritage, social housing, owners and electricity when
 * the BDNB export lacks their columns or tables) are null with their reason in `missing`; `copro` is the co-ownership registry's entry attached to the building.
 */
export const FrBuilding = z.object({
  status: DomainStatus,
  id: z.string().regex(/^bld_/),
  type: BuildingType.nullable(),
  address: z.string().nullable(),
  construction_year: Feature.nullable(),
  levels: Feature.nullable(),
  dwellings: Feature.nullable(),
  height_m: Feature.nullable(),
  footprint_m2: z.number().nullable(),
  materials: z.object({ walls: z.string().nullable(), roof: z.string().nullable() }),
  heritage: z.object({ historic_monument: z.object({ name: z.string(), distance_m: z.number() }).nullable(), protected_area: z.string().nullable()
    .describe('heritage easements containing the building (the centroid of its footprint, or a point inside it when the centroid falls outside): "<category> <type>: <name>" per area, e.g. "AC4 Périmètre du SPR: Site patrimonial remarquable de Paris - Le Marais", the monument itself first, then the site, then abords, joined by "; "; null when none') }),
  social_housing: z.object({ dwellings: z.number().int().nullable() }),
  fiber: z.string().nullable(),
  legal_owners: z.object({ owners: z.array(LegalOwner).min(1).describe('most premises first') }).nullable(),
  copro: z.object({
    name: z.string().nullable(), registration_number: z.string(), registered_on: IsoDate.nullable(), regulation_on: IsoDate.nullable(),
    construction_period: z.string().nullable(), lots: z.object({ total: z.number().int().nullable(), dwellings: z.number().int().nullable(), parking: z.number().int().nullable() }),
    manager: z.object({ type: z.string().nullable(), name: z.string().nullable(), siret: z.string().nullable(), mandate_active: z.boolean().nullable(), mandate_ends_on: IsoDate.nullable() }).nullable(),
    attachment: z.object({ level: z.enum(['sure', 'probable']), reason: z.string(), label: z.string() })
      .describe('how the registry entry is tied to this building: sure (its parcel, or a diagnosis naming it), probable (its address or point)'),
  }).nullable(),
  electricity_per_meter: Series.nullable(),
  energy_potential: z.object({
    solar_pv_mwh_year: z.number().nullable(), solar_thermal: z.string().nullable(), geothermal_probe: z.string().nullable(),
    geothermal_aquifer: z.string().nullable(), heat_network_distance_m: z.number().nullable(),
  }).nullable(),
  energy_diagnoses: z.array(BuildingDiagnosis),
  sales: z.array(BuildingSale),
  sales_attachment: z.literal('parcel'),
  median_price_per_m2_24m: Measure.nullable(),
  vs_sublocality_level2: z.number().nullable(),
  risks: z.array(Hazard),
  missing: Missing,
});
export type FrBuilding = z.infer<typeof FrBuilding>;
