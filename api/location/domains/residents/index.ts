import { FrResidents } from '../../../../schemas/residents.ts';
import type { DomainModule } from '../types.ts';
import { RESIDENTS_FIELDS } from './fields.ts';
import { frResidentsResolver, frZoneResidentsResolver } from './fr.ts';

/** Residents (spec 2.11): incomes, households, housing. France from Filosofi (issue 14); Quebec and Belgium to come. */
export const residentsDomain: DomainModule = {
  id: 'residents',
  fields: RESIDENTS_FIELDS,
  catalogFields: { be: ['income.taxable_median', 'housing.dwellings', 'housing.houses_share'] },
  paths: { be: ['/residents', '/zones/{level}/{code}', '/report'] },
  resolvers: { fr: frResidentsResolver },
  schema: FrResidents,
  zoneResolvers: { fr: frZoneResidentsResolver },
  zoneSchema: FrResidents,
  tables: { fr: ['zone_values'] },
};
