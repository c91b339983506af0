import type { Country } from '../schemas/common.ts';
import { beProfile } from './be/profile.ts';
import { caProfile } from './ca/profile.ts';
import { frProfile } from './fr/profile.ts';
import type { CountryProfile } from './profile.ts';

export type { CountryProfile } from './profile.ts';

/**
 * The covered countries, in the order the multi-country variant tries them (spec 4.5: the same
 * address in two countries is answered for the first the key opens). Adding a country is a
 * profile here and its sources under datasets/<country>/.
 */
export const PROFILES: readonly CountryProfile[] = [frProfile, beProfile, caProfile];

export const COUNTRIES: readonly Country[] = PROFILES.map((p) => p.id);

const BY_ID = new Map(PROFILES.map((p) => [p.id, p]));

export function profileOf(country: Country): CountryProfile {
  return BY_ID.get(country)!;
}
