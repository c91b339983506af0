/**
 * Pure shaping of marketplace rows into the contracts of schemas/marketplace.ts, and the
 * calendar arithmetic of subscription periods.
 */
import type { UserWithAffiliation } from '../../schemas/accounts.ts';
import type {
  ClientProfileFields,
  EndpointAuthorization,
  EventType,
  Mode,
  PlanOption,
  Profile,
  WebhookAuthorization,
  WebhookEnvelope,
} from '../../schemas/marketplace.ts';

/** 2026-11-20T10:00:30+00:00: the endpoint's timestamps carry their UTC offset (spec 2.4). */
export function offsetTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** YYYY-MM-DD in UTC: the webhooks' dates (spec 2.4). */
export function utcDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * `anchor` plus `months` calendar months in UTC, the day clamped to the month's last day.
 * Periods are always counted from the purchase (not from the previous end) so that a
 * subscription bought on 31 January renews on 28/29 February, then 31 March.
 */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(y, m, Math.min(anchor.getUTCDate(), lastDay), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

/** Months in one period of a plan (tokens plans: their validity). */
export function periodMonths(mode: Mode, validityMonths: number): number {
  return mode === 'plan_month' ? 1 : mode === 'plan_year' ? 12 : validityMonths;
}

/** An authorization as read from the database with its plan and product. */
export interface AuthorizationRow {
  id: number;
  store_id: number;
  user_id: number;
  product_id: number;
  pricing_sku: string;
  product_sku: string;
  plan_name: string;
  product_name: string;
  mode: Mode;
  status: 'active' | 'inactive';
  validity_start: Date;
  validity_end: Date;
  inactive_at: Date | null;
  tokens: number | null;
  debited: boolean;
  extras: PlanOption[];
}

function base(a: AuthorizationRow) {
  return {
    id: a.id,
    pricing_sku: a.pricing_sku,
    product_sku: a.product_sku,
    status: a.status,
    name: `${a.product_name} (${a.plan_name})`,
    mode: a.mode,
    extras: a.extras,
  };
}

export function endpointAuthorization(a: AuthorizationRow): EndpointAuthorization {
  return {
    ...base(a),
    validity_date_start: offsetTimestamp(a.validity_start),
    validity_date_end: offsetTimestamp(a.validity_end),
    ...(a.mode === 'tokens' ? { tokens: a.tokens ?? 0, updated: a.debited } : {}),
  };
}

export function webhookAuthorization(a: AuthorizationRow): WebhookAuthorization {
  return {
    ...base(a),
    validity_date_start: utcDate(a.validity_start),
    validity_date_end: utcDate(a.validity_end),
    inactive_date: a.inactive_at ? utcDate(a.inactive_at) : null,
    ...(a.mode === 'tokens' ? { tokens: a.tokens ?? 0 } : {}),
  };
}

export interface ClientIdentity {
  id: number;
  uid: string;
  email: string;
  first_name: string;
  last_name: string;
}

export function envelope(type: EventType, store: { id: number; slug: string }, client: ClientIdentity, a: AuthorizationRow): WebhookEnvelope {
  return {
    webhook: type,
    store: { id: store.id, slug: store.slug },
    client: { id: client.id, uid: client.uid, email: client.email, first_name: client.first_name, last_name: client.last_name },
    data: webhookAuthorization(a),
  };
}

/** A client row: the marketplace-only fields of spec 2.3 beside the shared user. */
export interface ClientRow {
  id: number;
  user_id: number;
  reference: number;
  profile: ClientProfileFields;
  created_at: Date;
  updated_at: Date;
}

/** The profile of spec 2.3: the shared user and agency, and the client's own fields. */
export function profileOf(user: UserWithAffiliation, client: ClientRow): Profile {
  const p = client.profile;
  return {
    id: user.id,
    reference: client.reference,
    profile_id: client.id,
    agency_id: user.agency_id,
    uid: user.uid,
    username: user.username ?? '',
    country: user.agency.country,
    sign_in_count: user.sign_in_count,
    phone_visibility: p.phone_visibility,
    corporate_account: p.corporate_account,
    public_email: p.public_email ?? user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone ?? '',
    phone_sms: p.phone_sms,
    phone_office: p.phone_office,
    picture_url: user.image_url ?? '',
    website: p.website,
    spoken_languages: user.languages.join(','),
    facebook_url: p.facebook_url,
    twitter_url: p.twitter_url,
    linkedin_url: p.linkedin_url,
    pinterest_url: p.pinterest_url,
    google_plus_url: p.google_plus_url,
    instagram_url: p.instagram_url,
    youtube_url: p.youtube_url,
    color1: p.color1,
    color2: p.color2,
    color1_print: p.color1_print,
    color2_print: p.color2_print,
    company_name: p.company_name,
    company_email: p.company_email,
    company_logo_url: p.company_logo_url,
    presentation_text: p.presentation_text,
    bio: p.bio,
    baseline: p.baseline,
    billing_address: p.billing_address,
    shipping_address: p.shipping_address,
    created_at: offsetTimestamp(client.created_at),
    updated_at: offsetTimestamp(client.updated_at > user.updated_at ? client.updated_at : user.updated_at),
    uids: [{ uid: user.uid, provider: 'account' }, ...p.uids],
  };
}
