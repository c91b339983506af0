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
/** The key exists but was revoked already: nothing to do (a form posted twice, another user first). */
export class KeyRevokedError extends Error {
  override readonly name = 'KeyRevokedError';
  constructor(
    message: string,
    readonly record: KeyRecord,
  ) {
    super(message);
  }
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
  /** The agency whose users manage the key in the client space; null: the operator's key. */
  agencyId: z
    .number({ error: 'agency must be an agency id (a positive integer)' })
    .int({ error: 'agency must be an agency id (a positive integer)' })
    .positive({ error: 'agency must be an agency id (a positive integer)' })
    .max(Number.MAX_SAFE_INTEGER)
    .nullish()
    .transform((v) => v ?? null),
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
  /** The agency that manages the key in the client space; null: the operator's. */
  agencyId: number | null;
}

/** Who made a key action, as the audit (key_actions) keeps it. */
export interface KeyActor {
  /** The signed-in user of the client space; null for the operator. */
  userId: number | null;
  /** As shown in the list of actions. */
  name: string;
}
export const OPERATOR: KeyActor = Object.freeze({ userId: null, name: 'operator (keys CLI)' });

/** Restricts a revocation or replacement to the keys of one agency (the client space). */
export interface KeyActionOptions {
  actor?: KeyActor;
  /** Only a key of this agency matches; any other is "not found", never "not yours". */
  agencyId?: number;
}

export interface KeyRepository {
  /** Creates a key; `key` is the plaintext, to show once and never again. */
  create(input: CreateKeyInput, actor?: KeyActor): Promise<{ key: string; record: KeyRecord }>;
  /** The non-revoked key matching this plaintext, or null. */
  findActive(key: string): Promise<KeyRecord | null>;
  /** All keys, revoked ones included, oldest first. */
  list(): Promise<KeyRecord[]>;
  /**
   * Revokes the key whose fingerprint is, or starts with (≥ 4 hex chars),
   * the argument. Throws KeyNotFoundError / AmbiguousKeyError.
   */
  revoke(fingerprintOrPrefix: string, options?: KeyActionOptions): Promise<{ record: KeyRecord; alreadyRevoked: boolean }>;
  /**
   * Revokes an active key and creates its replacement (same countries, domains, sandbox flag,
   * label and agency) in one transaction. Throws KeyNotFoundError, KeyRevokedError.
   */
  replace(fingerprint: string, options?: KeyActionOptions): Promise<{ key: string; record: KeyRecord; replaced: KeyRecord }>;
  /** The keys of an agency, revoked ones included, newest first. */
  listForAgency(agencyId: number): Promise<KeyRecord[]>;
  /**
   * Atomically adds `units` to the period counter and, when `day` (YYYY-MM-DD, UTC) is given,
   * to that day's counter, in one statement; returns the period total after.
   */
  addUsage(fingerprint: string, periodStart: string, units: number, day?: string): Promise<number>;
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
  agency_id: number | null;
}

const COLUMNS = `fingerprint, prefix_hint, label, sandbox, countries, domains, created_at, revoked_at, agency_id::int AS agency_id`;

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
    agencyId: row.agency_id === null ? null : Number(row.agency_id),
  };
}

function checkFingerprint(fp: string): void {
  if (!FINGERPRINT_PATTERN.test(fp)) throw new KeyValidationError(`invalid fingerprint: expected 64 lowercase hex chars`);
}

function checkPeriod(periodStart: string, what = 'period start'): void {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(periodStart);
  const d = m ? new Date(`${periodStart}T00:00:00Z`) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== periodStart) {
    throw new KeyValidationError(`invalid ${what} ${JSON.stringify(periodStart)}: expected YYYY-MM-DD`);
  }
}

/** The agency given to `keys create --agency` does not exist. */
function explainAgency(err: unknown, agencyId: number | null): never {
  if ((err as { code?: string }).code === '23503' && agencyId !== null) throw new KeyValidationError(`agency ${agencyId} does not exist`);
  throw err;
}

async function logAction(tx: Sql, fp: string, action: 'create' | 'revoke' | 'replace', actor: KeyActor, replacement: string | null = null): Promise<void> {
  await tx.query(
    `INSERT INTO key_actions (fingerprint, action, replacement, actor_user_id, actor) VALUES ($1, $2, $3, $4, $5)`,
    [fp, action, replacement, actor.userId, actor.name],
  );
}

async function insertKey(tx: Sql, data: z.output<typeof createKeyInputSchema>): Promise<{ key: string; record: KeyRecord }> {
  const key = generateKey({ sandbox: data.sandbox });
  const rows = await tx
    .query<KeyRow>(
      `INSERT INTO api_keys (fingerprint, prefix_hint, label, sandbox, countries, domains, agency_id)
       VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7)
       RETURNING ${COLUMNS}`,
      [fingerprint(key), prefixHint(key), data.label, data.sandbox, data.countries, data.domains, data.agencyId],
    )
    .catch((err: unknown) => explainAgency(err, data.agencyId));
  return { key, record: toRecord(rows[0]) };
}

function toCount(value: unknown): number {
  // bigint comes back as a string from pg and a number from PGlite.
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`usage counter out of range: ${String(value)}`);
  return n;
}

export function createKeyRepository(sql: Sql): KeyRepository {
  return {
    async create(input, actor = OPERATOR) {
      const data = parseCreateKeyInput(input);
      return sql.transaction(async (tx) => {
        const created = await insertKey(tx, data);
        await logAction(tx, created.record.fingerprint, 'create', actor);
        return created;
      });
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

    async revoke(fingerprintOrPrefix, options = {}) {
      const prefix = String(fingerprintOrPrefix).trim().toLowerCase();
      if (!/^[0-9a-f]{4,64}$/.test(prefix)) {
        throw new KeyValidationError(
          `expected a key fingerprint or a prefix of it (4 to 64 hex characters), got ${JSON.stringify(fingerprintOrPrefix)}`,
        );
      }
      return sql.transaction(async (tx) => {
        // Hex only, so no LIKE wildcard can slip in.
        const matches = await tx.query<{ fingerprint: string }>(
          `SELECT fingerprint FROM api_keys WHERE fingerprint LIKE $1 AND ($2::bigint IS NULL OR agency_id = $2)
            ORDER BY fingerprint LIMIT 6`,
          [`${prefix}%`, options.agencyId ?? null],
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
        if (updated[0]) {
          await logAction(tx, fp, 'revoke', options.actor ?? OPERATOR);
          return { record: toRecord(updated[0]), alreadyRevoked: false };
        }
        const current = await tx.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE fingerprint = $1`, [fp]);
        return { record: toRecord(current[0]), alreadyRevoked: true };
      });
    },

    async replace(fp, options = {}) {
      checkFingerprint(fp);
      return sql.transaction(async (tx) => {
        // FOR UPDATE: of two replacements of one key at once, the second sees it revoked.
        const [old] = await tx.query<KeyRow>(
          `SELECT ${COLUMNS} FROM api_keys WHERE fingerprint = $1 AND ($2::bigint IS NULL OR agency_id = $2) FOR UPDATE`,
          [fp, options.agencyId ?? null],
        );
        if (!old) throw new KeyNotFoundError(`no key with fingerprint ${fp.slice(0, 12)}…`);
        const current = toRecord(old);
        if (current.revokedAt) throw new KeyRevokedError(`key ${fp.slice(0, 12)}… was already revoked`, current);
        const [revoked] = await tx.query<KeyRow>(`UPDATE api_keys SET revoked_at = now() WHERE fingerprint = $1 RETURNING ${COLUMNS}`, [fp]);
        const created = await insertKey(tx, {
          countries: current.countries, domains: current.domains, sandbox: current.sandbox, label: current.label, agencyId: current.agencyId,
        });
        const actor = options.actor ?? OPERATOR;
        await logAction(tx, fp, 'replace', actor, created.record.fingerprint);
        await logAction(tx, created.record.fingerprint, 'create', actor);
        return { ...created, replaced: toRecord(revoked) };
      });
    },

    async listForAgency(agencyId) {
      const rows = await sql.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE agency_id = $1 ORDER BY created_at DESC, fingerprint`,
        [agencyId],
      );
      return rows.map(toRecord);
    },

    async addUsage(fp, periodStart, units, day) {
      checkFingerprint(fp);
      checkPeriod(periodStart);
      if (day !== undefined) checkPeriod(day, 'day');
      if (!Number.isSafeInteger(units) || units < 0) {
        throw new KeyValidationError(`units must be a non-negative integer, got ${units}`);
      }
      // One statement: the day's counter is written with the period's, never one without the other.
      const rows = await sql.query<{ units: unknown }>(
        `WITH by_day AS (
           INSERT INTO key_usage_days AS d (fingerprint, day, units)
           SELECT $1, $4::date, $3 WHERE $4::date IS NOT NULL
           ON CONFLICT (fingerprint, day) DO UPDATE SET units = d.units + EXCLUDED.units
         )
         INSERT INTO quota_usage AS q (fingerprint, period_start, units)
         VALUES ($1, $2::date, $3)
         ON CONFLICT (fingerprint, period_start) DO UPDATE SET units = q.units + EXCLUDED.units
         RETURNING q.units`,
        [fp, periodStart, units, day ?? null],
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
