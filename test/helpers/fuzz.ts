/**
 * Generated bad input for the property-based suites (issue 21, section 5): text with control
 * characters, NUL, lone surrogates and great length; numbers at and past every bound in every
 * notation; dates PostgreSQL refuses; values of the wrong type; parameters repeated.
 *
 * Seeded and bounded: FUZZ_SEED (default 21) and FUZZ_RUNS (runs per property, default 40) so
 * the normal run takes seconds and a long run is one variable away, e.g.
 *   FUZZ_RUNS=2500 npx vitest run test/api/marketplace/bad-input.property.test.ts
 */
import fc from 'fast-check';

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 21);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);
export const fuzzParams = { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, endOnFailure: true } as const;

/** Strings of numbers where a type or column bound lies, and notations a lax parser would take. */
const NUMBER_TEXT = [
  '0', '-0', '1', '-1', '01', '1.0', '1.5', '1e0', '1E3', '0x1F', '0b1', '0o7', '+1', ' 1', '1 ', '\t1', '1_000', 'Infinity', '-Infinity', 'NaN',
  '32767', '32768', '2147483647', '2147483648', '-2147483648', '-2147483649', '4294967296', '9007199254740991', '9007199254740992',
  '9223372036854775807', '9223372036854775808', '-9223372036854775809', '1'.repeat(40), '999999999', '1000000000', '200', '201', '100', '101',
];
/** Timestamps and dates at the edges of what timestamptz holds. */
const DATE_TEXT = [
  '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '-0001-01-01T00:00:00Z',
  '2026-02-29T00:00:00Z', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z',
  '2026-01-01T00:00:00+14:00', '2026-01-01T00:00:00+14:01', '2026-01-01T00:00:00-12:00', '2026-01-01T00:00:00+23:59', '2026-01-01T00:00:00+99:99',
  '2026-01-01', '2026-01-01T00:00:00', '2026-01-01T00:00:00.1234567Z', '4713-01-01T00:00:00Z',
];
const SPECIAL_TEXT = ['', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udbff\udfff', '\u2028', '\ufeff', '%', '%00', '%zz', '\\', '"', "'", '<script>', '${x}', '__proto__', 'constructor', 'toString', 'null', 'true', '[]', '{}'];

const controlChar = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: controlChar },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_TEXT) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
);

/** Hostile text: mixtures of the pieces above, known edge strings, and long strings. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(piece, { maxLength: 6 }).map((a) => a.join('')) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...DATE_TEXT) },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_TEXT) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '\u0000', 'é', '1'), fc.integer({ min: 100, max: 20_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Numbers at and past every bound (int2, int4, int8, JavaScript's exact integers), fractions, huge. */
export const boundaryNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 1.5, 200, 201, 32767, 32768, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, 2 ** 63, -(2 ** 63) - 1, 1e12, 1e12 + 1, 1e20, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, biased to wrong types and edge values. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: hostileText },
    { weight: 3, arbitrary: boundaryNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileText, tie('value'), { maxKeys: 3 }) },
  ),
})).value;

/**
 * Percent-encodes a query component as a client would, or as a careless one would: lone
 * surrogates (which UTF-8 cannot carry) become the invalid bytes a broken encoder sends.
 */
export function encodeComponent(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(s[i]!);
  }
  return out;
}

/** One query parameter: a known name (sometimes in another case) or a hostile one, a hostile value. */
export function queryPair(names: readonly string[], value: fc.Arbitrary<string> = hostileText): fc.Arbitrary<[string, string]> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => n.toUpperCase()) },
    { weight: 1, arbitrary: hostileText.map((s) => s.slice(0, 40)) },
  );
  return fc.tuple(name, value);
}

/**
 * A query string of 0 to 5 pairs (names may repeat: duplicated parameters), some raw (not
 * encoded at all: stray `%`, `&`, `=`), joined to `base` (which may hold valid pairs already).
 */
export function queryString(names: readonly string[], base: Record<string, string> = {}, value?: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(queryPair(names, value), { maxLength: 5 }), fc.boolean(), fc.subarray(Object.keys(base)))
    .map(([pairs, raw, keep]) => {
      const enc = raw ? (s: string) => s.replace(/[\s#\u0000-\u001f\u007f-\uffff]/g, (ch) => encodeComponent(ch)) : encodeComponent;
      const parts = [...keep.map((k) => `${k}=${encodeComponent(base[k]!)}`), ...pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`)];
      return parts.join('&');
    });
}

/** A path segment: hostile text percent-encoded. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXT).map(encodeComponent),
  hostileText.map((s) => encodeComponent(s.slice(0, 200))),
);

/** Counts of what a suite sent and how it was answered: printed once, asserted. */
export class Tally {
  requests = 0;
  serverErrors: string[] = [];
  byStatus = new Map<number, number>();
  record(status: number, what: string): void {
    this.requests++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (status >= 500) this.serverErrors.push(`${status} ${what}`.slice(0, 300));
  }
  summary(module: string): string {
    const statuses = [...this.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
    return `${module}: ${this.requests} requests (seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs per property), ${this.serverErrors.length} answered >= 500; statuses ${statuses}`;
  }
}
