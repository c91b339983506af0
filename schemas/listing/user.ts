/**
 * The listing view of a user (broker): the shared account model's user (schemas/accounts.ts)
 * with the listing's own fields (table listing_user_profiles). Passwords are the sign-in
 * module's business and never pass through the listing API.
 */
import { z } from 'zod';
import { INT8, queryInt, safeText } from '../inputs.ts';
import { UserInput as AccountUserInput } from '../accounts.ts';
import { MlsBoard, PageQuery, Timestamp, oneOf, pageOf, updateOf } from './common.ts';

const Text = (max: number) => z.string().trim().min(1).max(max);
const A = AccountUserInput.shape;

export const UserInput = z.strictObject({
  agency_id: A.agency_id,
  email: A.email,
  first_name: A.first_name,
  last_name: A.last_name,
  username: A.username.unwrap().nullable().default(null),
  languages: A.languages,
  phone: A.phone,
  image_url: A.image_url,
  title: Text(100).nullable().default(null).describe('e.g. Residential real estate broker'),
  license_number: Text(50).nullable().default(null),
});
export type UserInput = z.output<typeof UserInput>;
export const UserUpdate = updateOf(UserInput.shape);
export type UserUpdate = z.output<typeof UserUpdate>;

export const User = z.strictObject({
  id: z.number().int(),
  uid: z.string(),
  mls_board: MlsBoard,
  agency_id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string().nullable(),
  languages: z.array(z.string()),
  phone: z.string().nullable(),
  image_url: z.string().nullable(),
  title: z.string().nullable(),
  license_number: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type User = z.infer<typeof User>;
export const UserPage = pageOf(User);
export const UserOne = oneOf(User);

export const UserListQuery = z.strictObject({
  ...PageQuery,
  agency_id: queryInt(INT8, { min: 1 }).optional(),
  email: safeText({ max: 320, trim: true }).optional().describe('exact e-mail, case ignored'),
});
