import { z } from 'zod';
import { IsoDate } from './common.ts';
import { DomainStatus, Missing } from './domain.ts';
import { Hazard, HazardLevel, HazardType } from './hazard.ts';

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
  missing: Missing,
});
export type FrRisks = z.infer<typeof FrRisks>;
