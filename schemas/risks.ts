import { z } from 'zod';
import { IsoDate } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Hazard, HazardLevel, HazardType } from './hazard.ts';
import { Zone } from './zone.ts';

/** summary of data.risks (spec 2.10): notable is every hazard of level moderate or above. */
export const RisksSummary = z.object({
  highest_level: HazardLevel.nullable().describe('level of the first hazard (hazards are highest first); null when none is assessed'),
  notable: z.array(HazardType).describe('types of the hazards of level moderate or above (present included)'),
  assessed: z.array(HazardType).describe('types assessed at this point'),
  not_assessed: z.array(HazardType).describe('types not assessable here, or the point is outside mapped sectors'),
});

/** France's polluted-site types (spec 2.10). */
export const FrPollutedSiteType = z.enum(['former_industrial_activity', 'soil_information_area', 'contaminated_land', 'suspected_land']);

/** A site near the point (spec 2.10), nearest first. */
export const FrPollutedSiteItem = z.object({
  type: FrPollutedSiteType,
  status: z.string().nullable(),
  name: z.string().nullable(),
  address: z.string().nullable(),
  distance_m: z.number().int().nonnegative(),
  updated_on: IsoDate.nullable(),
});

/** polluted_sites of France (spec 2.10): areas containing the point, counts per type within the radius, nearest items. */
const Count = z.number().int().nonnegative().nullable().describe('null when the type\'s source is not served here (reason in missing)');
export const FrPollutedSites = z.object({
  inside: z.array(z.object({ type: FrPollutedSiteType, status: z.string().nullable(), name: z.string().nullable(), updated_on: IsoDate.nullable() }))
    .nullable().describe('null while the SIS areas are not served here (reason in missing)'),
  counts: z.object({ former_industrial_activity: Count, soil_information_area: Count, contaminated_land: Count, suspected_land: Count }),
  items: z.array(FrPollutedSiteItem),
});

/**
 * What is known of the commune (spec 2.10: "the domain also carries information of the commune"):
 * GASPAR's list of the major risks of the commune. These are not hazards at the point: a risk
 * listed for the commune says nothing of where in it (a flood plain is a part of the commune), so
 * they are not in hazards[] and the types remain in not_assessed where no map is served (spec 2.5).
 */
export const FrLocalityRisks = z.object({
  zone: Zone.describe('the commune the list is published for'),
  known_risks: z.array(z.object({
    code: z.string().describe("the risk's code in GASPAR's nomenclature (11 flood, 112 slow river overflow, 127 differential settlement...)"),
    label: z.string().describe("the nomenclature's label, in the requested language"),
    type: HazardType.nullable().describe('the hazard type of spec 2.5 the risk concerns; null for risks of no such type (technological, atmospheric, mining...)'),
  })).nullable().describe("GASPAR's risks listed for the commune, by code as text (a family, then its kinds); null when the commune is not in the file (reason in missing)"),
  updated_on: IsoDate.nullable().describe('publication date of the GASPAR file; its import date only for a file ingested before publication dates were required, with a publication_date_unknown warning'),
});

/**
 * data.risks in France (spec 2.10): hazards highest first, the types not assessed here, the
 * summary, the legal obligations of the commune, the polluted sites around. A part whose source
 * is not served is null, its reason in `missing` (spec 2.2).
 */
export const FrRisks = z.object({
  status: DomainStatus,
  hazards: z.array(Hazard),
  not_assessed: z.array(HazardType),
  summary: RisksSummary,
  obligations: z.object({ brush_clearing: z.boolean() }).nullable(),
  polluted_sites: FrPollutedSites.nullable(),
  locality: FrLocalityRisks.nullable().describe('what is known of the commune of the point (GASPAR); null when not served here or the commune is unknown (reason in missing)'),
  missing: Missing,
});
export type FrRisks = z.infer<typeof FrRisks>;

/** Quebec's contaminated-land statuses (spec 2.10), from the Répertoire des terrains contaminés. */
export const CaSiteStatus = z.enum(['confirmed', 'under_treatment', 'remediated', 'unknown']);
export type CaSiteStatus = z.infer<typeof CaSiteStatus>;

/** A contaminated site near the point in Quebec (spec 2.10), nearest first. */
export const CaPollutedSiteItem = z.object({
  type: z.literal('contaminated_land'),
  status: CaSiteStatus,
  name: z.string().nullable(),
  address: z.string().nullable(),
  distance_m: z.number().int().nonnegative(),
  updated_on: IsoDate.nullable(),
});

/**
 * data.risks in Quebec (spec 2.10): flood, landslide and coastal-erosion hazards where a mapped
 * sector contains the point (outside, the type is in not_assessed), and the contaminated sites of
 * the Répertoire around. `inside` is null: the Répertoire publishes points, not parcels.
 */
export const CaRisks = z.object({
  status: DomainStatus,
  hazards: z.array(Hazard),
  not_assessed: z.array(HazardType),
  summary: RisksSummary,
  polluted_sites: z.object({
    inside: z.array(z.object({ type: z.literal('contaminated_land'), status: CaSiteStatus })).nullable().describe('null: the Répertoire des terrains contaminés publishes points, not parcels (reason in missing)'),
    counts: z.object({ contaminated_land: Count }),
    items: z.array(CaPollutedSiteItem),
  }).nullable(),
  missing: Missing,
});
export type CaRisks = z.infer<typeof CaRisks>;

/** Brussels' soil-status types and statuses (spec 2.10); a parcel recognised as unpolluted is never served. */
export const BeSiteType = z.enum(['contaminated_land', 'suspected_land']);
export const BeSiteStatus = z.enum(['suspected', 'confirmed', 'under_treatment']);

/**
 * data.risks in Belgium (spec 2.10), Brussels-Capital Region only (elsewhere the domain answers
 * not_covered): flood hazard where the map's zone contains the point, and the parcels of the
 * soil-status inventory containing the point (inside) and around it (counts, nearest items).
 */
export const BeRisks = z.object({
  status: DomainStatus,
  hazards: z.array(Hazard),
  not_assessed: z.array(HazardType),
  summary: RisksSummary,
  polluted_sites: z.object({
    inside: z.array(z.object({ type: BeSiteType, status: BeSiteStatus })).describe('parcels of the inventory containing the point, to be reported to a buyer'),
    counts: z.object({ contaminated_land: Count, suspected_land: Count }),
    items: z.array(z.object({ type: BeSiteType, status: BeSiteStatus, distance_m: z.number().int().nonnegative().describe('to the centroid of the parcel') })),
  }).nullable(),
  missing: Missing,
});
export type BeRisks = z.infer<typeof BeRisks>;
