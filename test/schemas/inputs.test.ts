import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  bodyInt, findUnstorable, INT4, INT8, isSecretParameter, maskFormSecrets, maskUrlSecrets, parseInput, pgDate, pgTimestamp,
  queryDecimal, queryInt, safeText, storable, textProblem,
} from '../../schemas/inputs.ts';

describe('text the store can hold', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones', () => {
    expect(textProblem('Montréal 😀')).toBeNull();
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    expect(textProblem('\ud800')).toMatch(/surrogate/);
    expect(textProblem('x\udc00')).toMatch(/surrogate/);
    expect(textProblem('\ud800\udc00')).toBeNull();
    const t = safeText({ max: 5, trim: true });
    expectTypeOf(t.parse(' ab ')).toEqualTypeOf<string>();
    expect(t.parse(' ab ')).toBe('ab');
    expect(t.safeParse('a\u0000').success).toBe(false);
    expect(t.safeParse('abcdef').success).toBe(false);
  });
  it('finds the first unstorable string of an object, keys included, with its path', () => {
    expect(findUnstorable({ a: [1, { b: 'ok', c: 'x\u0000' }] })).toEqual({ path: ['a', 1, 'c'], problem: expect.stringMatching(/NUL/) });
    expect(findUnstorable({ ['k\ud800']: 1 })?.path).toEqual(['k\ud800']);
    expect(storable(z.object({ phone: z.string() })).safeParse({ phone: '\ud800' }).error?.issues[0]?.path).toEqual(['phone']);
  });
});

describe('integers and numbers', () => {
  it('query integers are decimal digits only, within the column', () => {
    const q = queryInt(INT4, { min: 0 });
    expectTypeOf(q.parse('1')).toEqualTypeOf<number>();
    expect(q.parse('2147483647')).toBe(2147483647);
    for (const bad of ['2147483648', '0x1F', '1e0', '+1', ' 1', '1 ', '1.0', '-1', '', 'Infinity']) expect(q.safeParse(bad).success, bad).toBe(false);
    expect(queryInt(INT4).parse('-2147483648')).toBe(-2147483648);
    expect(queryInt(INT8, { min: 1 }).safeParse('9007199254740992').success).toBe(false);
  });
  it('body integers within the column, decimals in digits', () => {
    expect(bodyInt(INT8, { min: 1 }).safeParse(2 ** 63).success).toBe(false);
    expect(bodyInt(INT4).safeParse(1.5).success).toBe(false);
    expect(queryDecimal({ max: 100 }).parse('99.5')).toBe(99.5);
    for (const bad of ['1e2', '0x10', 'Infinity', '101', '-1', '.5']) expect(queryDecimal({ max: 100 }).safeParse(bad).success, bad).toBe(false);
  });
});

describe('timestamps and dates PostgreSQL holds', () => {
  it('years 0001 to 9999, real days, offsets -12:00 to +14:00', () => {
    for (const ok of ['0001-01-01T00:00:00Z', '2028-02-29T23:59:59.123456+14:00', '9999-12-31T00:00-12:00']) expect(pgTimestamp.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['0000-01-01T00:00:00Z', '2026-02-29T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+23:59', '2026-01-01T00:00:00+14:01', '2026-01-01T00:00:00-12:30', '2026-01-01T00:00:00', '10000-01-01T00:00:00Z']) {
      expect(pgTimestamp.safeParse(bad).success, bad).toBe(false);
    }
    expect(pgDate.safeParse('2024-02-29').success).toBe(true);
    expect(pgDate.safeParse('0000-12-31').success).toBe(false);
  });
});

describe('parseInput', () => {
  const Q = z.strictObject({ uid: safeText({ max: 10 }).optional(), limit: queryInt(INT4, { min: 1, max: 100 }).default(20) });
  it('reports the first problem by parameter, never the value', () => {
    expect(parseInput(Q, {})).toEqual({ ok: true, data: { limit: 20 } });
    const nul = parseInput(Q, { uid: 'secret\u0000' });
    expect(nul.ok).toBe(false);
    if (!nul.ok) {
      expect(nul.issue).toMatchObject({ parameter: 'uid', repeated: false, unknown: false });
      expect(JSON.stringify(nul)).not.toContain('secret');
    }
    const twice = parseInput(Q, { uid: ['a', 'b'] });
    expect(!twice.ok && twice.issue.repeated).toBe(true);
    const unknown = parseInput(Q, { UID: 'a' });
    expect(!unknown.ok && unknown.issue).toMatchObject({ parameter: 'UID', unknown: true });
  });
});

describe('secret parameters', () => {
  it('are recognised by decoded name, in any case, and masked in URLs and forms', () => {
    expect(['access_token', 'ACCESS_TOKEN', 'apiToken', 'client_secret', 'code', 'password'].every(isSecretParameter)).toBe(true);
    expect(isSecretParameter('uid')).toBe(false);
    expect(maskUrlSecrets('/s?access%5Ftoken=T&uid=1&Code=C#frag')).toBe('/s?access%5Ftoken=[redacted]&uid=1&Code=[redacted]#frag');
    expect(maskFormSecrets('client_secret=S&password=p+w&x=%zz')).toBe('client_secret=[redacted]&password=[redacted]&x=%zz');
    expect(maskUrlSecrets('/no-query')).toBe('/no-query');
  });
});
