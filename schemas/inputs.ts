/**
 * Building blocks for request inputs (query, path, headers, JSON and form bodies) that bound every
 * value to what the state store can hold, so a value PostgreSQL would refuse is answered as the
 * client's mistake (each module's own error) instead of reaching a SQL statement:
 * - text: PostgreSQL refuses NUL (U+0000) in text and jsonb, and an unpaired UTF-16 surrogate in
 *   jsonb (`safeText`, and `storable` for a whole object whatever its schema says);
 * - integers: a query integer is decimal digits only (no `0x1F`, `1e0`, `+1`, ` 1`) and stays in
 *   its column's type (`queryInt(INT4)`, `bodyInt(INT8)`);
 * - timestamps: years 0001 to 9999 (PostgreSQL has no year 0000), a real calendar day, and an
 *   offset within the world's range, -12:00 to +14:00 (PostgreSQL itself refuses past ±15:59)
 *   (`pgTimestamp`, `pgDate`).
 * `parseInput` runs a schema over a whole input object and reports the first problem by parameter
 * name, so each module turns it into its own error body. Imports nothing from api/.
 */
import { z } from 'zod';

/** Why `s` cannot be stored as PostgreSQL text or jsonb, or null when it can. */
export function textProblem(s: string): string | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return 'must not contain the NUL character (U+0000)';
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) { i++; continue; }
      return 'must not contain an unpaired UTF-16 surrogate (invalid Unicode)';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'must not contain an unpaired UTF-16 surrogate (invalid Unicode)';
  }
  return null;
}

/** The first string (value or key) of `value` that cannot be stored, with its path; null when all can. */
export function findUnstorable(value: unknown, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : null;
  }
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const keyProblem = textProblem(k);
    if (keyProblem) return { path: [...path, k], problem: `the name of this field ${keyProblem}` };
    const found = findUnstorable(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/** A check refusing NUL and unpaired surrogates, for any string schema. */
export const storableText = z.string().check((ctx) => {
  const problem = textProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, continue: false });
});

/**
 * Text PostgreSQL can store: no NUL, no unpaired surrogate; `max` characters at most (after trim
 * when `trim`), at least `min` (default 1).
 */
export function safeText(opts: { max: number; min?: number; trim?: boolean }) {
  const base = opts.trim ? z.string().trim() : z.string();
  return base.min(opts.min ?? 1).max(opts.max).pipe(storableText);
}

/**
 * Runs `schema` only on input whose every string (values and keys, at any depth) can be stored:
 * the one guard for fields a schema takes as free text (jsonb objects, pass-through strings).
 */
export function storable<S extends z.ZodType>(schema: S) {
  return z
    .unknown()
    .check((ctx) => {
      const found = findUnstorable(ctx.value);
      if (found) ctx.issues.push({ code: 'custom', message: found.problem, path: found.path, input: ctx.value, continue: false });
    })
    .pipe(schema);
}

/** The integer column types and what they hold (int8 within JavaScript's exact integers). */
export const INT2 = { min: -32_768, max: 32_767, name: 'int2' } as const;
export const INT4 = { min: -2_147_483_648, max: 2_147_483_647, name: 'int4' } as const;
export const INT8 = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, name: 'int8' } as const;
export type IntRange = { min: number; max: number; name?: string };

/**
 * An integer sent as text (query string, path): decimal digits only, with a leading `-` only when
 * the range allows negatives; then bounded to `range`. `0x1F`, `1e0`, `+1`, ` 1`, `01.0` are refused.
 */
export function queryInt(range: IntRange, bounds: { min?: number; max?: number } = {}) {
  const min = Math.max(range.min, bounds.min ?? range.min);
  const max = Math.min(range.max, bounds.max ?? range.max);
  const pattern = min < 0 ? /^-?\d{1,20}$/ : /^\d{1,20}$/;
  return z
    .string()
    .regex(pattern, min < 0 ? 'an integer in decimal digits' : 'a whole number in decimal digits')
    .transform((s) => Number(s))
    .pipe(z.number().int().min(min, `at least ${min}`).max(max, `at most ${max}`));
}

/** An integer in a JSON body, bounded to its column's type (and narrower `bounds` when given). */
export function bodyInt(range: IntRange, bounds: { min?: number; max?: number } = {}) {
  const min = Math.max(range.min, bounds.min ?? range.min);
  const max = Math.min(range.max, bounds.max ?? range.max);
  return z.number().int().min(min, `at least ${min}`).max(max, `at most ${max}`);
}

/**
 * A non-negative decimal number sent as text (amounts, areas in a query string): digits with an
 * optional fraction, bounded; `1e3`, `0x10`, `Infinity`, ` 1` are refused.
 */
export function queryDecimal(bounds: { min?: number; max: number }) {
  return z
    .string()
    .regex(/^\d{1,15}(\.\d{1,6})?$/, 'a number in decimal digits, such as 1250 or 1250.50')
    .transform((s) => Number(s))
    .pipe(z.number().min(bounds.min ?? 0, `at least ${bounds.min ?? 0}`).max(bounds.max, `at most ${bounds.max}`));
}

/** A number of a JSON body that `numeric`/`double precision` columns hold: finite (JSON has no NaN anyway). */
export const finiteNumber = z.number().refine(Number.isFinite, 'a finite number');

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when year-month-day is a real day of years 0001..9999. */
function realDay(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

/** Why an ISO 8601 timestamp with offset cannot be stored as timestamptz, or null. */
export function timestampProblem(s: string): string | null {
  const m = TIMESTAMP.exec(s);
  if (!m) return 'an ISO 8601 timestamp with offset, such as 2026-11-20T10:00:00Z or 2026-11-20T10:00:00+01:00';
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  if (!realDay(y!, mo!, d!)) return 'a real calendar day of years 0001 to 9999';
  if (h! > 23 || mi! > 59 || sec! > 59) return 'a time of day from 00:00:00 to 23:59:59';
  if (m[9]) {
    const minutes = Number(m[10]) * 60 + Number(m[11]);
    if (Number(m[11]) > 59 || (m[9] === '+' ? minutes > 14 * 60 : minutes > 12 * 60)) return 'a UTC offset from -12:00 to +14:00';
  }
  return null;
}

/** An ISO 8601 timestamp with offset that timestamptz holds, kept as the string sent. */
export const pgTimestamp = z.string().max(40).check((ctx) => {
  const problem = timestampProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, continue: false });
});

/** A calendar date YYYY-MM-DD of years 0001 to 9999 (what `date` holds, both sides agreeing on the calendar). */
export const pgDate = z.string().max(10).check((ctx) => {
  const m = DATE.exec(ctx.value);
  if (!m || !realDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    ctx.issues.push({ code: 'custom', message: 'a real calendar date YYYY-MM-DD of years 0001 to 9999', input: ctx.value, continue: false });
  }
});

/** The first problem of an input, by the name of the parameter (top-level key) it concerns. */
export interface InputIssue {
  /** The top-level parameter or field; '' when the input as a whole is wrong. */
  parameter: string;
  /** The full path, dotted (`address.city`). */
  path: string;
  message: string;
  /** The parameter was sent more than once (a query string repeating it). */
  repeated: boolean;
  /** The parameter is not one the route takes. */
  unknown: boolean;
  /** The parameter is required and absent. */
  missing: boolean;
}

export type InputResult<T> = { ok: true; data: T } | { ok: false; issue: InputIssue; issues: InputIssue[] };

/**
 * Parses a whole query, path, headers or body object with `schema`, after refusing any string
 * (value or key, any depth) PostgreSQL cannot store. The caller turns the issue into its module's
 * error; the issue never carries the value sent (secrets stay out of error bodies).
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): InputResult<z.output<S>> {
  const obj = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const issueOf = (path: PropertyKey[], message: string, unknownKey = false): InputIssue => {
    const parameter = path.length ? String(path[0]) : '';
    const value = parameter ? obj[parameter] : raw;
    return {
      parameter, path: path.map(String).join('.'), message,
      repeated: parameter !== '' && Array.isArray(value) && !unknownKey,
      unknown: unknownKey,
      missing: parameter !== '' && value === undefined && !unknownKey,
    };
  };
  const found = findUnstorable(raw ?? {});
  if (found) {
    const issue = issueOf(found.path, found.problem);
    return { ok: false, issue, issues: [issue] };
  }
  const r = schema.safeParse(raw ?? {});
  if (r.success) return { ok: true, data: r.data };
  const issues = r.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' ? i.keys.map((k) => issueOf([...i.path, k], 'unknown field', true)) : [issueOf(i.path, i.message)],
  );
  return { ok: false, issue: issues[0]!, issues };
}

/** Parameter names whose values are secrets, compared without case: never logged, never echoed. */
export const SECRET_PARAMETERS = [
  'access_token', 'refresh_token', 'id_token', 'token', 'code', 'code_verifier', 'client_secret', 'client_assertion',
  'password', 'apikey', 'apitoken', 'api_key', 'api_token', 'secret', 'webhook_secret', 'csrf', 'authorization',
] as const;
const SECRET_SET = new Set<string>(SECRET_PARAMETERS);

/** True when a parameter named `name` (already decoded) carries a secret. */
export const isSecretParameter = (name: string): boolean => SECRET_SET.has(name.trim().toLowerCase());

/**
 * A URL (path and query) with the value of every secret parameter replaced, the names compared
 * after percent-decoding (`access%5Ftoken` is `access_token`). Malformed escapes are kept as sent.
 */
export function maskUrlSecrets(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  return url.slice(0, q + 1) + maskFormSecrets(query) + (hash < 0 ? '' : url.slice(hash));
}

/** An x-www-form-urlencoded string with the value of every secret parameter replaced. */
export function maskFormSecrets(form: string): string {
  return form
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name: string;
      try { name = decodeURIComponent(rawName.replace(/\+/g, ' ')); } catch { name = rawName; }
      return isSecretParameter(name) && eq >= 0 ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
}

/** `value` as it may appear in an error body: the value itself, or a mark when `name` is a secret. */
export const echoable = (name: string, value: unknown): unknown => (isSecretParameter(name) ? '[redacted]' : value);
