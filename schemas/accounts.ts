/**
 * The shared account model: boards (MLS boards / real-estate boards) hold
 * agencies, agencies hold users. One model serves sign-in (user-info),
 * marketplace (client profiles) and the listing API (rights per board).
 *
 * Identifiers are integers in the database; the sign-in user-info serves
 * them as strings (OpenID Connect `sub`), the marketplace as integers.
 */
import { z } from 'zod';
import { bodyInt, INT8 } from './inputs.ts';

export const LANGUAGE = z
  .string()
  .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'a language code such as fr, en or fr-CA');

export const BoardInput = z.object({
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and hyphens, starting with a letter or digit'),
  name: z.string().trim().min(1).max(200),
  default_language: LANGUAGE,
});
export type BoardInput = z.infer<typeof BoardInput>;

export const AgencyInput = z.object({
  board_id: bodyInt(INT8, { min: 1 }),
  name: z.string().trim().min(1).max(200),
  country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals, such as FR, CA or BE'),
});
export type AgencyInput = z.infer<typeof AgencyInput>;

export const UserInput = z.object({
  agency_id: bodyInt(INT8, { min: 1 }),
  email: z.email().max(320),
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().min(1).max(100),
  /** Remote id given by the system that created the account; generated when absent. */
  uid: z.string().trim().min(1).max(200).optional(),
  username: z.string().trim().min(1).max(100).optional(),
  languages: z.array(LANGUAGE).default([]),
  phone: z.string().trim().min(1).max(40).nullable().default(null),
  image_url: z.url().nullable().default(null),
  /** Plain password, hashed before storage; absent means the user cannot sign in with a password. */
  password: z.string().min(10, 'at least 10 characters').max(200).optional(),
});
export type UserInput = z.input<typeof UserInput>;

export interface Board {
  id: number;
  slug: string;
  name: string;
  default_language: string;
  created_at: Date;
}

export interface Agency {
  id: number;
  board_id: number;
  name: string;
  country: string;
  created_at: Date;
}

export interface User {
  id: number;
  uid: string;
  agency_id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string | null;
  languages: string[];
  phone: string | null;
  image_url: string | null;
  sign_in_count: number;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A user with the agency and board it belongs to (what user-info and profiles need). */
export interface UserWithAffiliation extends User {
  agency: Agency;
  board: Board;
}
