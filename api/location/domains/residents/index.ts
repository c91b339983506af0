import { z } from 'zod';
import { BeResidents, CaResidents, FrResidents } from '../../../../schemas/residents.ts';
import { caResidents } from './ca.ts';
import type { DomainModule } from '../types.ts';
import { beResidents } from './be.ts';
import { RESIDENTS_FIELDS } from './fields.ts';
import { frResidents } from './fr.ts';
import { residentsRoute } from './routes.ts';

const Residents = z.union([FrResidents, BeResidents, CaResidents]);

/** Residents (spec 2.11): incomes, households, housing. France from Filosofi and the census, Belgium from Statbel, Quebec from the census profile (issue 14). */
export const residentsDomain: DomainModule = {
  id: 'residents',
  fields: RESIDENTS_FIELDS,
  catalogFields: { be: ['income.taxable_median', 'income.taxable_mean_per_return', 'housing.dwellings', 'housing.houses_share'] },
  paths: { be: ['/residents', '/zones/{level}/{code}', '/report'] },
  resolvers: { fr: frResidents.report, be: beResidents.report, ca: caResidents.report },
  schema: Residents,
  zoneResolvers: { fr: frResidents.zone, be: beResidents.zone, ca: caResidents.zone },
  zoneSchema: Residents,
  tables: { fr: ['zone_values'], be: ['zone_values'], ca: ['zone_values'] },
  routes: { be: (deps) => [residentsRoute('be', deps, beResidents.report, BeResidents)] },
};
