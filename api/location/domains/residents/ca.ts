import { residentsResolvers } from './resolve.ts';

/** Quebec (spec 2.11): the average total income of the point's forward sortation area, from the census profile (ca.census). */
export const caResidents = residentsResolvers({
  country: 'ca',
  levels: ['postal_code_prefix'],
  fields: [{ path: 'income.total_mean', indicator: 'income.total_mean' }],
});
