/**
 * The user-info of spec section 2.1 in the OpenID Connect user-info form,
 * built from the shared account model. Pure: the edges fetch the user.
 */
import type { UserWithAffiliation } from '../../schemas/accounts.ts';
import type { UserInfo } from '../../schemas/signin.ts';

/** The claim names served for scope `public` (and `openid`): spec 2.1, in order. */
export const USERINFO_CLAIMS = [
  'id', 'name', 'email', 'first_name', 'last_name', 'location', 'description', 'image', 'phone', 'urls', 'languages', 'extra',
] as const;

export function userInfo(u: UserWithAffiliation): UserInfo {
  const id = String(u.id);
  return {
    sub: id,
    id,
    name: `${u.first_name} ${u.last_name}`,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    // The account model has no location, description or urls: always null (spec: null when absent).
    location: null,
    description: null,
    image: u.image_url,
    phone: u.phone,
    urls: null,
    languages: u.languages,
    extra: {
      agency: { id: String(u.agency.id), name: u.agency.name, country: u.agency.country },
      board: { id: String(u.board.id), name: u.board.name, slug: u.board.slug, default_language: u.board.default_language },
    },
  };
}
