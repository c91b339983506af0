import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../ingest/core/progress.ts';

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
    expect(out[0]).toMatch(/^\rfr\.ban adresses-75 \[#{15}\.{15}\]  50% 50,000 rows 50,000 rows\/s$/);
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
});
