/**
 * API keys: generation, fingerprinting and the repository over the state
 * store (see api/core/state). Only the SHA-256 fingerprint of a key is
 * stored; the plaintext is returned once, at creation.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Country as CountryEnum } from '../../../schemas/common.ts';
import { Domain as DomainEnum } from '../../../schemas/domain.ts';
import type { Sql } from '../state/sql.ts';

// The contract's lists (schemas/): a key names countries and domains the service knows.
export const COUNTRIES = CountryEnum.options;
export const DOMAINS = DomainEnum.options;
export type Country = (typeof COUNTRIES)[number];
export type Domain = (typeof DOMAINS)[number];

export const KEY_PREFIX_LIVE = 'svc_live_';
export const KEY_PREFIX_TEST = 'svc_test_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
/** Prefix + 4 random characters, e.g. `svc_test_ab12`: enough to recognise a key. */
const HINT_LENGTH = KEY_PREFIX_LIVE.length + 4;
const KEY_PATTERN = /^svc_(live|test)_[0-9A-Za-z]{32}$/;
const FINGERPRINT_PATTERN = /^[0-9a-f]{64}$/;

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

export class KeyValidationError extends Error {
  override readonly name = 'KeyValidationError';
}
export class KeyNotFoundError extends Error {
  override readonly name = 'KeyNotFoundError';
}
export class AmbiguousKeyError extends Error {
  override readonly name = 'AmbiguousKeyError';
  constructor(
    message: string,
    readonly candidates: string[],
  ) {
    super(message);
  }
}

/* ------------------------------------------------------------------ */
/* Pure helpers                                                        */
/* ------------------------------------------------------------------ */

/** `svc_live_` / `svc_test_` + 32 uniformly random base62 characters. */
export function generateKey(options: { sandbox: boolean }): string {
  const prefix = options.sandbox ? KEY_PREFIX_TEST : KEY_PREFIX_LIVE;
  let out = '';
  while (out.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      // Rejection sampling: 248 = 4 × 62, so bytes below it map uniformly.
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === RANDOM_LENGTH) break;
    }
  }
  return prefix + out;
}

/** Hex SHA-256 of the full key: what the database stores and looks up. */
export function fingerprint(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a string has the shape of a key (does not say it exists). */
export function isKeyShaped(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** What is shown of a key after creation, e.g. `svc_test_ab12`. */
export function prefixHint(key: string): string {
  return key.slice(0, HINT_LENGTH);
}

/* ------------------------------------------------------------------ */
/* Validation                                                          */
/* ------------------------------------------------------------------ */

const countrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(COUNTRIES, {
      error: (iss) => `unknown country ${JSON.stringify(iss.input)} (allowed: ${COUNTRIES.join(', ')})`,
    }),
  );
const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(DOMAINS, {
      error: (iss) => `unknown domain ${JSON.stringify(iss.input)} (allowed: ${DOMAINS.join(', ')})`,
    }),
  );

function canonical<T extends string>(values: T[], order: readonly T[]): T[] {
  const set = new Set(values);
  return order.filter((v) => set.has(v));
}

export const createKeyInputSchema = z.object({
  countries: z
    .array(countrySchema, { error: 'countries must be a list' })
    .min(1, { error: `at least one country is required (allowed: ${COUNTRIES.join(', ')})` })
    .transform((v) => canonical(v, COUNTRIES)),
  /** Omitted or null: every domain. */
  domains: z
    .array(domainSchema, { error: 'domains must be a list' })
    .min(1, { error: 'domains, when given, must not be empty (omit it to allow all)' })
    .transform((v) => canonical(v, DOMAINS))
    .nullish()
    .transform((v) => v ?? null),
  sandbox: z.boolean().default(false),
  label: z
    .string()
    .trim()
    .max(200, { error: 'label must be at most 200 characters' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateKeyInput = z.input<typeof createKeyInputSchema>;

/** Validates and normalises creation input; throws KeyValidationError. */
export function parseCreateKeyInput(input: CreateKeyInput): z.output<typeof createKeyInputSchema> {
  return parseOrThrow(createKeyInputSchema, input);
}

function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const messages = result.error.issues.map((i) => i.message);
  throw new KeyValidationError([...new Set(messages)].join('; '));
}

/* ------------------------------------------------------------------ */
/* Repository                                                          */
/* ------------------------------------------------------------------ */

export interface KeyRecord {
  fingerprint: string;
  prefixHint: string;
  label: string | null;
  sandbox: boolean;
  countries: Country[];
  /** null: all domains. */
  domains: Domain[] | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface KeyRepository {
  /** Creates a key; `key` is the plaintext, to show once and never again. */
  create(input: CreateKeyInput): Promise<{ key: string; record: KeyRecord }>;
  /** The non-revoked key matching this plaintext, or null. */
  findActive(key: string): Promise<KeyRecord | null>;
  /** All keys, revoked ones included, oldest first. */
  list(): Promise<KeyRecord[]>;
  /**
   * Revokes the key whose fingerprint is, or starts with (≥ 4 hex chars),
   * the argument. Throws KeyNotFoundError / AmbiguousKeyError.
   */
  revoke(fingerprintOrPrefix: string): Promise<{ record: KeyRecord; alreadyRevoked: boolean }>;
  /** Atomically adds `units` to the counter; returns the total after. */
  addUsage(fingerprint: string, periodStart: string, units: number): Promise<number>;
  /** The counter (0 when nothing recorded). */
  getUsage(fingerprint: string, periodStart: string): Promise<number>;
}

interface KeyRow {
  fingerprint: string;
  prefix_hint: string;
  label: string | null;
  sandbox: boolean;
  countries: string[];
  domains: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = `fingerprint, prefix_hint, label, sandbox, countries, domains, created_at, revoked_at`;

function toRecord(row: KeyRow): KeyRecord {
  return {
    fingerprint: row.fingerprint,
    prefixHint: row.prefix_hint,
    label: row.label,
    sandbox: row.sandbox,
    countries: row.countries as Country[],
    domains: row.domains as Domain[] | null,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  };
}

function checkFingerprint(fp: string): void {
  if (!FINGERPRINT_PATTERN.test(fp)) throw new KeyValidationError(`invalid fingerprint: expected 64 lowercase hex chars`);
}

function checkPeriod(periodStart: string): void {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(periodStart);
  const d = m ? new Date(`${periodStart}T00:00:00Z`) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== periodStart) {
    throw new KeyValidationError(`invalid period start ${JSON.stringify(periodStart)}: expected YYYY-MM-DD`);
  }
}

function toCount(value: unknown): number {
  // bigint comes back as a string from pg and a number from PGlite.
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`usage counter out of range: ${String(value)}`);
  return n;
}

export function createKeyRepository(sql: Sql): KeyRepository {
  return {
    async create(input) {
      const data = parseCreateKeyInput(input);
      const key = generateKey({ sandbox: data.sandbox });
      const rows = await sql.query<KeyRow>(
        `INSERT INTO api_keys (fingerprint, prefix_hint, label, sandbox, countries, domains)
         VALUES ($1, $2, $3, $4, $5::text[], $6::text[])
         RETURNING ${COLUMNS}`,
        [fingerprint(key), prefixHint(key), data.label, data.sandbox, data.countries, data.domains],
      );
      return { key, record: toRecord(rows[0]) };
    },

    async findActive(key) {
      if (typeof key !== 'string' || !isKeyShaped(key)) return null;
      const digest = createHash('sha256').update(key, 'utf8').digest();
      const rows = await sql.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE fingerprint = $1 AND revoked_at IS NULL`,
        [digest.toString('hex')],
      );
      const row = rows[0];
      if (!row) return null;
      const stored = Buffer.from(row.fingerprint, 'hex');
      if (stored.length !== digest.length || !timingSafeEqual(stored, digest)) return null;
      return toRecord(row);
    },

    async list() {
      const rows = await sql.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, fingerprint`);
      return rows.map(toRecord);
    },

    async revoke(fingerprintOrPrefix) {
      const prefix = String(fingerprintOrPrefix).trim().toLowerCase();
      if (!/^[0-9a-f]{4,64}$/.test(prefix)) {
        throw new KeyValidationError(
          `expected a key fingerprint or a prefix of it (4 to 64 hex characters), got ${JSON.stringify(fingerprintOrPrefix)}`,
        );
      }
      return sql.transaction(async (tx) => {
        // Hex only, so no LIKE wildcard can slip in.
        const matches = await tx.query<{ fingerprint: string }>(
          `SELECT fingerprint FROM api_keys WHERE fingerprint LIKE $1 ORDER BY fingerprint LIMIT 6`,
          [`${prefix}%`],
        );
        if (matches.length === 0) throw new KeyNotFoundError(`no key with fingerprint ${prefix}…`);
        if (matches.length > 1) {
          const candidates = matches.map((m) => m.fingerprint);
          throw new AmbiguousKeyError(
            `${prefix} matches several keys (${candidates.map((c) => c.slice(0, 12)).join(', ')}${candidates.length > 5 ? ', …' : ''}); give more characters`,
            candidates,
          );
        }
        const fp = matches[0].fingerprint;
        const updated = await tx.query<KeyRow>(
          `UPDATE api_keys SET revoked_at = now()
            WHERE fingerprint = $1 AND revoked_at IS NULL
            RETURNING ${COLUMNS}`,
          [fp],
        );
        if (updated[0]) return { record: toRecord(updated[0]), alreadyRevoked: false };
        const current = await tx.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE fingerprint = $1`, [fp]);
        return { record: toRecord(current[0]), alreadyRevoked: true };
      });
    },

    async addUsage(fp, periodStart, units) {
      checkFingerprint(fp);
      checkPeriod(periodStart);
      if (!Number.isSafeInteger(units) || units < 0) {
        throw new KeyValidationError(`units must be a non-negative integer, got ${units}`);
      }
      const rows = await sql.query<{ units: unknown }>(
        `INSERT INTO quota_usage AS q (fingerprint, period_start, units)
         VALUES ($1, $2::date, $3)
         ON CONFLICT (fingerprint, period_start) DO UPDATE SET units = q.units + EXCLUDED.units
         RETURNING q.units`,
        [fp, periodStart, units],
      );
      return toCount(rows[0].units);
    },

    async getUsage(fp, periodStart) {
      checkFingerprint(fp);
      checkPeriod(periodStart);
      const rows = await sql.query<{ units: unknown }>(
        `SELECT units FROM quota_usage WHERE fingerprint = $1 AND period_start = $2::date`,
        [fp, periodStart],
      );
      return rows[0] ? toCount(rows[0].units) : 0;
    },
  };
}
