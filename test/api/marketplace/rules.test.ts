import { describe, expect, it } from 'vitest';
import { allocate } from '../../../api/marketplace/debit.ts';
import { addMonths, endpointAuthorization, offsetTimestamp, utcDate, webhookAuthorization, type AuthorizationRow } from '../../../api/marketplace/format.ts';
import { parseRetrySchedule, retryDelayMs, RETRY_SCHEDULE_MS } from '../../../api/marketplace/webhooks/worker.ts';
import { EndpointAuthorization, PlanInput, WebhookAuthorization } from '../../../schemas/marketplace.ts';

describe('debit allocation (spec 4.2 rules 1 and 2)', () => {
  const rows = [{ id: 3, tokens: 5 }, { id: 7, tokens: 10 }, { id: 9, tokens: 4 }];
  it('takes from the named authorization alone when it has enough', () => {
    expect(allocate(7, rows, 10)).toEqual([{ authorizationId: 7, debited: 10, remaining: 0 }]);
  });
  it('takes the named one first, then the others in purchase order', () => {
    expect(allocate(7, rows, 17)).toEqual([
      { authorizationId: 7, debited: 10, remaining: 0 },
      { authorizationId: 3, debited: 5, remaining: 0 },
      { authorizationId: 9, debited: 2, remaining: 2 },
    ]);
  });
  it('takes the others in the order given (purchase date, then id), not by id', () => {
    expect(allocate(7, [{ id: 9, tokens: 4 }, { id: 3, tokens: 5 }, { id: 7, tokens: 1 }], 6)).toEqual([
      { authorizationId: 7, debited: 1, remaining: 0 },
      { authorizationId: 9, debited: 4, remaining: 0 },
      { authorizationId: 3, debited: 1, remaining: 4 },
    ]);
  });
  it('skips empty authorizations and refuses a total that is short', () => {
    expect(allocate(3, [{ id: 3, tokens: 0 }, { id: 4, tokens: 2 }], 2)).toEqual([{ authorizationId: 4, debited: 2, remaining: 0 }]);
    expect(allocate(7, rows, 20)).toBeNull();
  });
});

describe('periods and formats', () => {
  it('counts months from the purchase, clamping the day to the month', () => {
    const jan31 = new Date('2026-01-31T09:30:00Z');
    expect([1, 2, 3, 13].map((m) => addMonths(jan31, m).toISOString())).toEqual([
      '2026-02-28T09:30:00.000Z', '2026-03-31T09:30:00.000Z', '2026-04-30T09:30:00.000Z', '2027-02-28T09:30:00.000Z',
    ]);
    expect(addMonths(new Date('2027-12-15T00:00:00Z'), 12).toISOString()).toBe('2028-12-15T00:00:00.000Z');
  });
  it('serves timestamps with their UTC offset in the endpoint and dates in webhooks', () => {
    const row: AuthorizationRow = {
      id: 1, store_id: 1, user_id: 1, product_id: 1, pricing_sku: 'ACME-TOURS-T10', product_sku: 'ACME-TOURS', plan_name: '10 tours', product_name: 'Tours',
      mode: 'tokens', status: 'inactive', validity_start: new Date('2026-11-20T10:00:00.123Z'), validity_end: new Date('2027-11-20T10:00:00Z'),
      inactive_at: new Date('2027-01-02T03:04:05Z'), tokens: 3, debited: true, extras: [],
    };
    expect(offsetTimestamp(row.validity_start)).toBe('2026-11-20T10:00:00+00:00');
    expect(utcDate(row.validity_end)).toBe('2027-11-20');
    expect(EndpointAuthorization.parse(endpointAuthorization(row))).toMatchObject({ validity_date_start: '2026-11-20T10:00:00+00:00', tokens: 3, updated: true });
    expect(WebhookAuthorization.parse(webhookAuthorization(row))).toMatchObject({ validity_date_start: '2026-11-20', inactive_date: '2027-01-02', tokens: 3 });
    const plan = endpointAuthorization({ ...row, mode: 'plan_month', tokens: null });
    expect('tokens' in plan || 'updated' in plan).toBe(false);
  });
  it('validates plans: tokens only in tokens mode, distinct option codes', () => {
    expect(PlanInput.safeParse({ sku: 'A1-B-C', name: 'x', mode: 'tokens' }).success).toBe(false);
    expect(PlanInput.safeParse({ sku: 'A1-B-C', name: 'x', mode: 'plan_year', tokens: 4 }).success).toBe(false);
    expect(PlanInput.safeParse({ sku: 'A1-B-C', name: 'x', mode: 'plan_year', options: [{ code: 'a', name: 'A' }, { code: 'a', name: 'B' }] }).success).toBe(false);
    expect(PlanInput.safeParse({ sku: 'a1-b-c', name: 'x', mode: 'plan_year' }).success).toBe(false);
  });
});

describe('webhook retry schedule', () => {
  it('retries 13 times after the first attempt, the last about three days after it, then gives up', () => {
    const waits = Array.from({ length: 14 }, (_, i) => retryDelayMs(i + 1));
    expect(waits.slice(0, 4)).toEqual([5_000, 60_000, 300_000, 1_800_000]);
    expect(waits[13]).toBeNull();
    const lastAttemptAfterH = RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(lastAttemptAfterH).toBeGreaterThan(72);
    expect(lastAttemptAfterH).toBeLessThan(80);
    expect(retryDelayMs(0)).toBeNull();
  });
  it('reads a schedule from the configuration, refusing what it cannot read', () => {
    expect(parseRetrySchedule('5s, 1m,2h,1d,250ms')).toEqual([5_000, 60_000, 7_200_000, 86_400_000, 250]);
    expect(parseRetrySchedule('5 s')).toEqual([5_000]);
    for (const bad of ['', '5', '5x', '1m,,2m', '-1s', '1.5h']) expect(parseRetrySchedule(bad), bad).toBeNull();
  });
});
