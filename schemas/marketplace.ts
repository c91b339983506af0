/**
 * Marketplace contracts (spec partner-signin-and-marketplace.md, sections 2.3-2.5, 4.2, 7):
 * the services and debit responses, the webhook envelope, the delivery log, the error body
 * of the marketplace routes, and the operator inputs (store, partner, product, plan, client).
 */
import { z } from 'zod';

/** Timestamp with its UTC offset, as the services endpoint serves it (2026-11-20T10:00:30+00:00). */
export const OffsetTimestamp = z.iso.datetime({ offset: true }).refine((s) => /[+-]\d{2}:\d{2}$/.test(s), 'expected a timestamp with a UTC offset such as +00:00');
/** YYYY-MM-DD, as webhooks serve dates. */
export const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date');

export const PARTNER_CODE = z.string().regex(/^[A-Z0-9]{2,32}$/, 'capital letters and digits, 2 to 32 characters');
export const PRODUCT_SKU = z.string().regex(/^[A-Z0-9]{2,32}-[A-Z0-9]{1,32}$/, 'a product SKU <PARTNER>-<PRODUCT> in capitals and digits');
export const PRICING_SKU = z.string().regex(/^[A-Z0-9]{2,32}-[A-Z0-9]{1,32}-[A-Z0-9]{1,32}$/, 'a pricing SKU <PARTNER>-<PRODUCT>-<PRICING> in capitals and digits');
export const SLUG = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and hyphens, starting with a letter or digit');

export const MODES = ['plan_month', 'plan_year', 'tokens'] as const;
export const Mode = z.enum(MODES);
export type Mode = z.infer<typeof Mode>;
/** `inactive` names the deactivated state, which the spec (section 3) leaves unnamed. */
export const AuthorizationStatus = z.enum(['active', 'inactive']);
export const EVENT_TYPES = ['authorization.create', 'authorization.disable', 'tokens.debit'] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/* ---------------------------------------------------------------- */
/* Operator inputs                                                   */
/* ---------------------------------------------------------------- */

export const StoreInput = z.object({ slug: SLUG, name: z.string().trim().min(1).max(200) });
export const PartnerInput = z.object({ code: PARTNER_CODE, name: z.string().trim().min(1).max(200) });
export const WebhookUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).max(2000);

/** An option of a price plan; a purchase carries the options chosen, served in `extras`. */
export const PlanOption = z.object({
  code: z.string().regex(/^[a-z0-9_]{1,40}$/, 'lowercase letters, digits and underscores'),
  name: z.string().trim().min(1).max(200),
});
export type PlanOption = z.infer<typeof PlanOption>;

export const PlanInput = z
  .object({
    sku: PRICING_SKU,
    name: z.string().trim().min(1).max(200),
    mode: Mode,
    /** Tokens granted by a purchase (tokens mode only). */
    tokens: z.number().int().positive().max(1_000_000_000).optional(),
    /** Validity of a tokens authorization in months (subscriptions: their period). */
    validity_months: z.number().int().positive().max(120).optional(),
    options: z.array(PlanOption).max(50).default([]),
  })
  .superRefine((p, ctx) => {
    if (p.mode === 'tokens' && p.tokens === undefined) ctx.addIssue({ code: 'custom', path: ['tokens'], message: 'a tokens plan needs its number of tokens' });
    if (p.mode !== 'tokens' && p.tokens !== undefined) ctx.addIssue({ code: 'custom', path: ['tokens'], message: `a ${p.mode} plan has no tokens` });
    if (p.mode !== 'tokens' && p.validity_months !== undefined) ctx.addIssue({ code: 'custom', path: ['validity_months'], message: `the period of a ${p.mode} plan is fixed by its mode` });
    if (new Set(p.options.map((o) => o.code)).size !== p.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'option codes must be distinct' });
  });
export type PlanInput = z.input<typeof PlanInput>;

const HEX_COLOR = z.string().regex(/^(#[0-9A-Fa-f]{6})?$/, 'a hexadecimal color such as #1A2B3C (or empty)');
const URL_OR_EMPTY = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]);
const TEXTS = z.object({ fr: z.string().max(5000).default(''), en: z.string().max(5000).default(''), es: z.string().max(5000).default('') }).strict();
const ADDRESS = {
  address1: z.string().max(200).default(''),
  address2: z.string().max(200).default(''),
  city: z.string().max(100).default(''),
  country: z.string().max(100).default(''),
  province: z.string().max(100).default(''),
  zipcode: z.string().max(20).default(''),
};

/**
 * The marketplace-only fields of a client profile (spec 2.3). Identity, names, phone,
 * picture, languages, agency and sign-in count come from the shared account model.
 * Text fields not filled in are served as "" (2.3 types them as strings, never null).
 */
export const ClientProfileInput = z
  .object({
    public_email: z.union([z.literal(''), z.email()]).optional(),
    phone_sms: z.string().max(40).default(''),
    phone_office: z.string().max(40).nullable().default(null),
    phone_visibility: z.number().int().min(0).max(1).default(0),
    corporate_account: z.number().int().min(0).max(1).default(0),
    website: URL_OR_EMPTY.default(''),
    facebook_url: URL_OR_EMPTY.default(''),
    twitter_url: URL_OR_EMPTY.default(''),
    linkedin_url: URL_OR_EMPTY.default(''),
    pinterest_url: URL_OR_EMPTY.default(''),
    google_plus_url: URL_OR_EMPTY.default(''),
    instagram_url: URL_OR_EMPTY.default(''),
    youtube_url: URL_OR_EMPTY.default(''),
    color1: HEX_COLOR.default(''),
    color2: HEX_COLOR.default(''),
    color1_print: z.string().max(40).default(''),
    color2_print: z.string().max(40).default(''),
    company_name: z.string().max(200).default(''),
    company_email: z.union([z.literal(''), z.email()]).default(''),
    company_logo_url: URL_OR_EMPTY.default(''),
    presentation_text: TEXTS.default({ fr: '', en: '', es: '' }),
    bio: TEXTS.default({ fr: '', en: '', es: '' }),
    baseline: TEXTS.default({ fr: '', en: '', es: '' }),
    billing_address: z.object(ADDRESS).strict().default({ address1: '', address2: '', city: '', country: '', province: '', zipcode: '' }),
    shipping_address: z
      .object({ ...ADDRESS, same_as_billing: z.number().int().min(0).max(1).default(0) })
      .strict()
      .default({ address1: '', address2: '', city: '', country: '', province: '', zipcode: '', same_as_billing: 0 }),
    /** Identities of the client at other providers, besides its account uid. */
    uids: z.array(z.object({ uid: z.string().min(1).max(200), provider: z.string().regex(/^[a-z0-9_.-]{1,40}$/) }).strict()).max(20).default([]),
  })
  .strict();
export type ClientProfileInput = z.input<typeof ClientProfileInput>;
export type ClientProfileFields = z.output<typeof ClientProfileInput>;

/* ---------------------------------------------------------------- */
/* Responses                                                         */
/* ---------------------------------------------------------------- */

const Texts = z.object({ fr: z.string(), en: z.string(), es: z.string() });
const Address = z.object({ address1: z.string(), address2: z.string(), city: z.string(), country: z.string(), province: z.string(), zipcode: z.string() });
const UrlOrEmpty = z.union([z.literal(''), z.url()]);

/** Client profile (spec 2.3). */
export const Profile = z.object({
  id: z.number().int(),
  reference: z.number().int(),
  profile_id: z.number().int(),
  agency_id: z.number().int(),
  uid: z.string(),
  username: z.string(),
  country: z.string(),
  sign_in_count: z.number().int(),
  phone_visibility: z.number().int(),
  corporate_account: z.number().int(),
  public_email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  phone_sms: z.string(),
  phone_office: z.string().nullable(),
  picture_url: UrlOrEmpty,
  website: UrlOrEmpty,
  spoken_languages: z.string().describe('comma-separated language codes'),
  facebook_url: UrlOrEmpty,
  twitter_url: UrlOrEmpty,
  linkedin_url: UrlOrEmpty,
  pinterest_url: UrlOrEmpty,
  google_plus_url: UrlOrEmpty,
  instagram_url: UrlOrEmpty,
  youtube_url: UrlOrEmpty,
  color1: z.string(),
  color2: z.string(),
  color1_print: z.string(),
  color2_print: z.string(),
  company_name: z.string(),
  company_email: z.string(),
  company_logo_url: UrlOrEmpty,
  presentation_text: Texts,
  bio: Texts,
  baseline: Texts,
  billing_address: Address,
  shipping_address: Address.extend({ same_as_billing: z.number().int() }),
  created_at: OffsetTimestamp,
  updated_at: OffsetTimestamp,
  uids: z.array(z.object({ uid: z.string(), provider: z.string() })),
});
export type Profile = z.infer<typeof Profile>;

const AuthorizationBase = z.object({
  id: z.number().int(),
  pricing_sku: PRICING_SKU,
  product_sku: PRODUCT_SKU,
  status: AuthorizationStatus,
  name: z.string(),
  mode: Mode,
  extras: z.array(PlanOption).describe('the plan options chosen at purchase'),
});

/** An authorization as the services endpoint serves it (spec 2.4): timestamps with offset. */
export const EndpointAuthorization = AuthorizationBase.extend({
  validity_date_start: OffsetTimestamp,
  validity_date_end: OffsetTimestamp,
  tokens: z.number().int().min(0).optional().describe('tokens authorizations only: tokens remaining'),
  updated: z.boolean().optional().describe('tokens authorizations only: true once a debit has touched it'),
});
export type EndpointAuthorization = z.infer<typeof EndpointAuthorization>;

/** An authorization as webhooks carry it (spec 2.4): dates, and inactive_date. */
export const WebhookAuthorization = AuthorizationBase.extend({
  validity_date_start: DateOnly,
  validity_date_end: DateOnly,
  inactive_date: DateOnly.nullable(),
  tokens: z.number().int().min(0).optional(),
});
export type WebhookAuthorization = z.infer<typeof WebhookAuthorization>;

export const ServicesResponse = z.object({
  profile: Profile,
  authorizations: z.object({ plans: z.array(EndpointAuthorization), tokens: z.array(EndpointAuthorization) }),
});
export type ServicesResponse = z.infer<typeof ServicesResponse>;

export const DebitResponse = z.object({ status: z.literal('ok') });

/** The webhook envelope (spec 2.5). */
export const WebhookEnvelope = z.object({
  webhook: EventType,
  store: z.object({ id: z.number().int(), slug: z.string() }),
  client: z.object({ id: z.number().int(), uid: z.string(), email: z.string(), first_name: z.string(), last_name: z.string() }),
  data: WebhookAuthorization,
});
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>;

/** The test event a partner triggers (POST .../webhooks/test): about no client and no authorization. */
export const WebhookTestEnvelope = z.object({
  webhook: z.literal('webhook.test'),
  store: z.object({ id: z.number().int(), slug: z.string() }),
  data: z.object({ message: z.string(), requested_at: OffsetTimestamp }),
});
export type WebhookTestEnvelope = z.infer<typeof WebhookTestEnvelope>;

/** What the test-event route answers: the delivery to follow in the log. */
export const WebhookTestResponse = z.object({ status: z.literal('ok'), webhook_id: z.string(), delivery_id: z.number().int() });

export const DeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
/** One entry of the delivery log a partner reads back. */
export const Delivery = z.object({
  id: z.number().int(),
  webhook_id: z.string().describe('the webhook-id header, the same on every attempt'),
  event: z.enum([...EVENT_TYPES, 'webhook.test']),
  authorization_id: z.number().int().nullable().describe('null for webhook.test'),
  client_id: z.number().int().nullable().describe('null for webhook.test'),
  url: z.string(),
  status: DeliveryStatus,
  attempts: z.array(z.object({ at: OffsetTimestamp, status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number().int() })),
  next_attempt_at: OffsetTimestamp.nullable(),
  delivered_at: OffsetTimestamp.nullable(),
  created_at: OffsetTimestamp,
  payload: z.union([WebhookEnvelope, WebhookTestEnvelope]),
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryLogResponse = z.object({ deliveries: z.array(Delivery), next_before: z.number().int().nullable() });

/* ---------------------------------------------------------------- */
/* Errors                                                            */
/* ---------------------------------------------------------------- */

/**
 * Error codes of the marketplace routes and their HTTP status (spec section 7; the body is
 * ours since the spec leaves it open).
 */
export const MARKET_ERROR_STATUS = {
  invalid_parameter: 400,
  not_a_tokens_authorization: 400,
  unauthorized: 401,
  invalid_access_token: 401,
  insufficient_tokens: 402,
  authorization_inactive: 402,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  request_head_too_large: 431,
  store_not_found: 404,
  client_not_found: 404,
  authorization_not_found: 404,
  no_webhook_url: 402,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const;
export type MarketErrorCode = keyof typeof MARKET_ERROR_STATUS;

/** The marketplace error body: the same shape for every 4xx and 5xx under the store prefix. */
export const MarketErrorBody = z.object({
  status: z.literal('error'),
  error: z.object({
    code: z.enum(Object.keys(MARKET_ERROR_STATUS) as [MarketErrorCode, ...MarketErrorCode[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
  request_id: z.string(),
});
export type MarketErrorBody = z.infer<typeof MarketErrorBody>;
