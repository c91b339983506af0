/**
 * Validation of what a browser sends the client space (form fields and query parameters):
 * strings only (a repeated parameter arrives as a list and is refused), no NUL or other control
 * character, no unpaired surrogate, bounded length, then the field's own pattern.
 * Each failure is a message the page shows as it is.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

// C0 controls (tab, LF, CR included: no field of the space spans lines), DEL and C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface FieldRule {
  name: string;
  max: number;
  pattern?: RegExp;
  /** Shown when the pattern does not match. */
  expected?: string;
}

export function field(raw: unknown, rule: FieldRule): Checked<string> {
  if (raw === undefined || raw === null || raw === '') return { ok: false, message: `${rule.name}: missing` };
  if (typeof raw !== 'string') return { ok: false, message: `${rule.name}: sent more than once` };
  if (raw.length > rule.max) return { ok: false, message: `${rule.name}: longer than ${rule.max} characters` };
  if (CONTROL.test(raw)) return { ok: false, message: `${rule.name}: contains a control character` };
  if (LONE_SURROGATE.test(raw)) return { ok: false, message: `${rule.name}: not valid Unicode text` };
  if (rule.pattern && !rule.pattern.test(raw)) return { ok: false, message: `${rule.name}: ${rule.expected ?? 'not in the expected form'}` };
  return { ok: true, value: raw };
}

/** An optional field: absent or empty gives null. */
export function optionalField(raw: unknown, rule: FieldRule): Checked<string | null> {
  if (raw === undefined || raw === '') return { ok: true, value: null };
  return field(raw, rule);
}

export const RULES = {
  fingerprint: { name: 'key', max: 64, pattern: /^[0-9a-f]{64}$/, expected: 'expected a key fingerprint (64 hexadecimal characters)' },
  csrf: { name: 'csrf', max: 64, pattern: /^[A-Za-z0-9_-]{43}$/, expected: 'malformed token' },
  lang: { name: 'lang', max: 2, pattern: /^(fr|en)$/, expected: 'fr or en' },
  store: { name: 'store', max: 63, pattern: /^[a-z0-9][a-z0-9-]{0,62}$/, expected: 'a store slug' },
  product: { name: 'product', max: 65, pattern: /^[A-Z0-9]{2,32}-[A-Z0-9]{1,32}$/, expected: 'a product SKU' },
  code: { name: 'code', max: 256, pattern: /^[A-Za-z0-9_-]+$/, expected: 'malformed code' },
  state: { name: 'state', max: 64, pattern: /^[A-Za-z0-9_-]{43}$/, expected: 'malformed state' },
  oauthError: { name: 'error', max: 64, pattern: /^[a-z_]+$/, expected: 'malformed error code' },
} as const satisfies Record<string, FieldRule>;
