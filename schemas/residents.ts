import { z } from 'zod';
import { DomainStatus, Missing } from './domain.ts';
import { Measure } from './measure.ts';

/**
 * data.residents in France (spec 2.11 leaves its fields to the service; issue 14): incomes from
 * INSEE Filosofi, households and housing from the census. Every field is always present, null with
 * its reason in `missing` when there is no value (spec 2.2).
 */
export const FrResidents = z.object({
  status: DomainStatus,
  income: z.object({
    median_disposable_per_unit: Measure.nullable().describe('median disposable income per consumption unit, EUR/year (Filosofi)'),
    poverty_rate: Measure.nullable().describe('share of people below 60 % of the national median standard of living, % (Filosofi)'),
    median_declared_per_unit: Measure.nullable().describe('median declared income per consumption unit, EUR/year, at IRIS (Filosofi): before taxes and non-taxable benefits, another measure than the disposable median'),
  }),
  households: z.object({ count: Measure.nullable() }),
  housing: z.object({
    dwellings: Measure.nullable(),
    houses_share: Measure.nullable(),
    owners_share: Measure.nullable(),
    social_housing_share: Measure.nullable(),
  }),
  missing: Missing,
});
export type FrResidents = z.infer<typeof FrResidents>;

/** data.residents in Belgium (spec 2.11), with the mean per return the municipal file allows (a measure of its own name). */
export const BeResidents = z.object({
  status: DomainStatus,
  income: z.object({
    taxable_median: Measure.nullable().describe('median net taxable income per tax return, EUR/year, at statistical sector (Statbel)'),
    taxable_mean_per_return: Measure.nullable().describe('mean net taxable income per tax return, EUR/year, at municipality (Statbel totals divided by returns)'),
  }),
  housing: z.object({ dwellings: Measure.nullable(), houses_share: Measure.nullable() }),
  missing: Missing,
});
export type BeResidents = z.infer<typeof BeResidents>;

/** data.residents in Quebec (spec 2.11): the average total income of the forward sortation area. */
export const CaResidents = z.object({
  status: DomainStatus,
  income: z.object({
    total_mean: Measure.nullable().describe("average total income of recipients aged 15 and over in private households, CAD/year, at forward sortation area (Statistics Canada's census)"),
  }),
  missing: Missing,
});
export type CaResidents = z.infer<typeof CaResidents>;
