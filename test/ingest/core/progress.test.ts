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

describe('withProgress', () => {
  it('carries DuckDB\'s percentage of a running query onto the file\'s bytes', async () => {
    const { withProgress } = await import('../../../ingest/core/progress.ts');
    let percentage = -1;
    const ticks: [number, number | undefined][] = [];
    const fake = { get progress() { return { percentage, rows_processed: BigInt(Math.max(percentage, 0) * 10) }; } };
    const progress = { tick: (n: number, b?: number) => { ticks.push([n, b]); }, done: () => {} };
    await withProgress(fake, progress, async () => {
      for (const p of [-1, 40, 80]) {
        percentage = p;
        // Each step lasts more than one poll (every 250 ms).
        await new Promise((r) => setTimeout(r, 300));
      }
    }, 2000);
    expect(ticks).toContainEqual([400, 800]);
    expect(ticks).toContainEqual([800, 1600]);
    expect(ticks.every(([, b]) => b !== undefined && b <= 2000)).toBe(true);
  });

  it('gives fr.dvf a percentage and a final line per input', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { ingestDvf } = await import('../../../ingest/fr/dvf.ts');
    const { silentContext } = await import('../../helpers/fixture-data.ts');
    const lines: string[] = [];
    const out = { write: (s: string) => { lines.push(s); return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-progress-')), 'data');
    const input = new URL('../../../datasets/fr/dvf/csv/2023/departements/75.csv', import.meta.url).pathname;
    await ingestDvf({ ...silentContext(dataDir), progressOut: out }, [{ path: input }]);
    expect(lines.filter((l) => /^fr\.dvf \S+: \d+ rows, \d+ rows\/s, 100\.0%, done\n$/.test(l))).toHaveLength(1);
  });
});
