import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration } from '../../../ingest/core/progress.ts';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { out, s: { isTTY, write: (x: string) => { out.push(x); return true; } } as unknown as NodeJS.WriteStream };
}

describe('progress', () => {
  it('draws a bar with rows/s on a terminal, rewritten in place', () => {
    let now = 0;
    const { out, s } = stream(true);
    const p = createProgress('fr.ban adresses-75', 1000, s, () => now);
    now = 1000; p.tick(50_000, 500);
    now = 2000; p.done();
    // Half the bytes in one second: about one second left.
    expect(out[0]).toMatch(/^\rfr\.ban adresses-75 \[#{15}\.{15}\]  50% 50,000 rows 50,000 rows\/s ~1 s left$/);
    expect(out.at(-1)).toMatch(/\n$/);
  });

  it('writes plain lines every few seconds elsewhere', () => {
    let now = 0;
    const { out, s } = stream(false);
    const p = createProgress('fr.zones', null, s, () => now);
    now = 1000; p.tick(10);
    now = 6000; p.tick(600);
    p.done();
    expect(out).toEqual(['fr.zones: 600 rows, 100 rows/s\n', 'fr.zones: 600 rows, 100 rows/s, done\n']);
  });

  it('says the remaining time from the share of bytes read, on plain lines too', () => {
    let now = 0;
    const { out, s } = stream(false);
    const p = createProgress('fr.dvf', 10_000, s, () => now);
    now = 30_000; p.tick(1_000, 2_500);
    expect(out[0]).toBe('fr.dvf: 1000 rows, 33 rows/s, 25.0% ~1 min 30 s left\n');
    expect([formatDuration(42), formatDuration(75), formatDuration(4000)]).toEqual(['42 s', '1 min 15 s', '1 h 06 min']);
  });
});
