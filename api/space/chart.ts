/**
 * The chart of a key's units per day, as server-rendered SVG: one bar per day, no script, no
 * style sheet (presentation attributes only, which the page's Content-Security-Policy allows).
 * The same figures are given in a table beside it for screen readers (page.ts).
 */
import { escapeHtml } from '../signin/pages.ts';

export interface DayUnits { day: string; units: number }

/** The `days` days ending with `today` (YYYY-MM-DD, UTC), oldest first, 0 where nothing was counted. */
export function lastDays(today: string, days: number, counted: ReadonlyMap<string, number> | undefined): DayUnits[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, units: counted?.get(day) ?? 0 };
  });
}

const W = 600, H = 160, PAD_L = 44, PAD_B = 22, PAD_T = 10;

/** A round top of the scale (1, 2, 5 × 10^n) at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= max)!;
}

export function usageChart(series: DayUnits[], opts: { id: string; title: string; fmt: (n: number) => string }): string {
  const top = niceMax(Math.max(0, ...series.map((d) => d.units)));
  const plotW = W - PAD_L - 4, plotH = H - PAD_B - PAD_T;
  const step = plotW / series.length;
  const bars = series.map((d, i) => {
    const h = Math.round((d.units / top) * plotH * 10) / 10;
    const x = Math.round((PAD_L + i * step + step * 0.15) * 10) / 10;
    const y = Math.round((PAD_T + plotH - h) * 10) / 10;
    return `<rect x="${x}" y="${y}" width="${Math.round(step * 0.7 * 10) / 10}" height="${h}" fill="#1f5fa8"><title>${escapeHtml(`${d.day}: ${opts.fmt(d.units)}`)}</title></rect>`;
  });
  const first = series[0]?.day ?? '', last = series.at(-1)?.day ?? '';
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${opts.id}-t" focusable="false">
<title id="${opts.id}-t">${escapeHtml(opts.title)}</title>
<line x1="${PAD_L}" y1="${PAD_T + plotH}" x2="${W - 4}" y2="${PAD_T + plotH}" stroke="#4a5568"/>
<line x1="${PAD_L}" y1="${PAD_T}" x2="${W - 4}" y2="${PAD_T}" stroke="#cbd5e0" stroke-dasharray="4 4"/>
<text x="${PAD_L - 6}" y="${PAD_T + 4}" text-anchor="end" font-size="12" fill="#1d2430">${escapeHtml(opts.fmt(top))}</text>
<text x="${PAD_L - 6}" y="${PAD_T + plotH}" text-anchor="end" font-size="12" fill="#1d2430">0</text>
${bars.join('\n')}
<text x="${PAD_L}" y="${H - 4}" font-size="12" fill="#1d2430">${escapeHtml(first)}</text>
<text x="${W - 4}" y="${H - 4}" text-anchor="end" font-size="12" fill="#1d2430">${escapeHtml(last)}</text>
</svg>`;
}
