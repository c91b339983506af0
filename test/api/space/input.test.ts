import { describe, expect, it } from 'vitest';
import { lastDays, niceMax, usageChart } from '../../../api/space/chart.ts';
import { field, optionalField, RULES } from '../../../api/space/input.ts';

describe('space fields', () => {
  const fp = 'a'.repeat(64);
  it('accept a well-formed value', () => {
    expect(field(fp, RULES.fingerprint)).toEqual({ ok: true, value: fp });
    expect(optionalField(undefined, RULES.lang)).toEqual({ ok: true, value: null });
    expect(optionalField('en', RULES.lang)).toEqual({ ok: true, value: 'en' });
  });
  it('refuse missing, repeated, long, control, unpaired-surrogate and malformed values, naming the field', () => {
    expect(field(undefined, RULES.fingerprint)).toEqual({ ok: false, message: 'key: missing' });
    expect(field([fp, fp], RULES.fingerprint)).toEqual({ ok: false, message: 'key: sent more than once' });
    expect(field('a'.repeat(65), RULES.fingerprint)).toEqual({ ok: false, message: 'key: longer than 64 characters' });
    for (const c of ['\u0000', '\n', '\u001b', '\u007f', '\u0085']) {
      expect(field(`VVP${c}TOURS`, RULES.product)).toEqual({ ok: false, message: 'product: contains a control character' });
    }
    expect(field('VVP-\uD800', RULES.product)).toEqual({ ok: false, message: 'product: not valid Unicode text' });
    expect(field('VVP-\uDC00X', RULES.product)).toEqual({ ok: false, message: 'product: not valid Unicode text' });
    expect(field('maison-😀', RULES.store).ok).toBe(false);
    expect(field('Maison', RULES.store)).toEqual({ ok: false, message: 'store: a store slug' });
    expect(optionalField('de', RULES.lang)).toEqual({ ok: false, message: 'lang: fr or en' });
  });
});

describe('usage chart', () => {
  it('gives the last 30 days oldest first, 0 where nothing was counted', () => {
    const days = lastDays('2026-03-01', 30, new Map([['2026-02-28', 7], ['2026-01-31', 99]]));
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-01-31', units: 99 });
    expect(days.at(-2)).toEqual({ day: '2026-02-28', units: 7 });
    expect(days.at(-1)).toEqual({ day: '2026-03-01', units: 0 });
  });
  it('scales to a round maximum', () => {
    expect([0, 1, 3, 7, 10, 11, 57, 100_001].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 100, 200_000]);
  });
  it('draws one bar per day with its figure, heights against a round scale, text escaped', () => {
    const series = lastDays('2026-11-20', 30, new Map([['2026-11-18', 40], ['2026-11-20', 20]]));
    const svg = usageChart(series, { id: 'k0', title: 'Units <of> "Site"', fmt: String });
    expect(svg.match(/<rect /g)).toHaveLength(30);
    expect(svg).toContain('role="img" aria-labelledby="k0-t"');
    expect(svg).toContain('<title id="k0-t">Units &lt;of&gt; &quot;Site&quot;</title>');
    expect(svg).toContain('<title>2026-11-18: 40</title>');
    const height = (day: string) => Number(new RegExp(`height="([\\d.]+)" fill="#1f5fa8"><title>${day}`).exec(svg)![1]);
    expect(height('2026-11-18')).toBe(102.4); // 40 of a scale of 50 on a 128-unit plot
    expect(height('2026-11-20')).toBe(51.2);
    expect(height('2026-11-19')).toBe(0);
    expect(svg).not.toMatch(/style=|<script/);
  });
});
