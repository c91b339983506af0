/**
 * The listing view of an agency: the shared account model's agency (schemas/accounts.ts) with
 * the listing's own contact fields (table listing_agency_profiles).
 */
import { z } from 'zod';
import { safeText } from '../inputs.ts';
import { AgencyInput as AccountAgencyInput } from '../accounts.ts';
import { MlsBoard, PageQuery, Timestamp, oneOf, pageOf, updateOf } from './common.ts';

const Text = (max: number) => z.string().trim().min(1).max(max);

export const AgencyInput = z.strictObject({
  name: AccountAgencyInput.shape.name,
  country: AccountAgencyInput.shape.country,
  phone: Text(40).nullable().default(null),
  email: z.email().max(320).nullable().default(null),
  website: z.url().max(2000).nullable().default(null),
  license_number: Text(50).nullable().default(null),
});
export type AgencyInput = z.output<typeof AgencyInput>;
export const AgencyUpdate = updateOf(AgencyInput.shape);
export type AgencyUpdate = z.output<typeof AgencyUpdate>;

export const Agency = z.strictObject({
  id: z.number().int(),
  mls_board: MlsBoard,
  name: z.string(),
  country: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  license_number: z.string().nullable(),
  created_at: Timestamp,
});
export type Agency = z.infer<typeof Agency>;
export const AgencyPage = pageOf(Agency);
export const AgencyOne = oneOf(Agency);

export const AgencyListQuery = z.strictObject({
  ...PageQuery,
  country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals').optional(),
  name: safeText({ max: 200, trim: true }).optional().describe('part of the name, case ignored'),
});
