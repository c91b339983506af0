import { statSync } from 'node:fs';
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

describe('progress of every job', () => {
  it('shows each job run on the samples with its file, its rows, the share of its bytes read and done', async () => {
    const { samplesDataDir } = await import('../../helpers/samples.ts');
    const { JOBS } = await import('../../../ingest/jobs.ts');
    const { progress } = await samplesDataDir('lds-progress-');
    const done = progress.split('\n').filter((l) => /: \d+ rows, \d+ rows\/s, 100\.0%, done$/.test(l));
    // A job deriving its tables from others (fr.properties) reads no file of its own.
    const reading = JOBS.filter((j) => j.samples.some((argv) => argv.length > 0));
    const silent = reading.filter((j) => !done.some((l) => [j.id, ...j.sources.map((s) => s.id)].some((id) => l.startsWith(`${id} `))));
    expect(silent.map((j) => j.id)).toEqual([]);
    expect(reading.length).toBeGreaterThan(30);
  }, 300_000); // the samples, ingested once per run: minutes on a loaded machine
});

describe('progress from the readers', () => {
  it('gives the share of a GeoJSON file and of a shapefile read so far, feature by feature', async () => {
    const { readFeatures } = await import('../../../ingest/core/readers/features.ts');
    const { REPO_ROOT } = await import('../../../ingest/jobs.ts');
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'lds-progress-features-'));
    // 3 MB of features: three read chunks (1 MiB), so the share grows as they are read.
    const feature = (i: number) => JSON.stringify({ type: 'Feature', properties: { id: i, pad: 'x'.repeat(1000) }, geometry: { type: 'Point', coordinates: [2.35, 48.85] } });
    const file = join(dir, 'big.geojson');
    await writeFile(file, `{"type":"FeatureCollection","features":[${Array.from({ length: 3000 }, (_, i) => feature(i)).join(',')}]}`);
    const shares: number[] = [];
    for await (const row of readFeatures(file)) shares.push(row.bytes!.read / row.bytes!.total);
    expect(shares).toHaveLength(3000);
    expect(shares[0]).toBeLessThan(0.5);
    expect(shares.at(-1)).toBe(1);
    expect(shares.every((s, i) => i === 0 || s >= shares[i - 1]!)).toBe(true);
    const lines: string[] = [];
    const out = { isTTY: false, write: (l: string) => { lines.push(l); return true; } } as unknown as NodeJS.WriteStream;
    const shp = join(REPO_ROOT, 'datasets/fr/contours-iris/CONTOURS-IRIS.shp');
    let features = 0;
    for await (const row of readFeatures(shp, { progress: { label: 'fr.zones contours-iris', out } })) {
      features++;
      expect(row.bytes!.total).toBe(statSync(shp).size);
    }
    expect(lines.at(-1)).toBe(`fr.zones contours-iris: ${features} rows, ${lines.at(-1)!.split(', ')[1]!.split(' ')[0]} rows/s, 100.0%, done\n`);
  });

  it('gives readCsv a percentage of the file and a final line', async () => {
    const { readCsv } = await import('../../../ingest/core/readers/csv.ts');
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(await mkdtemp(join(tmpdir(), 'lds-progress-csv-')), 'rows.csv');
    await writeFile(file, `a;b\n${Array.from({ length: 100 }, (_, i) => `${i};x`).join('\n')}\n`);
    const lines: string[] = [];
    const out = { isTTY: false, write: (l: string) => { lines.push(l); return true; } } as unknown as NodeJS.WriteStream;
    let n = 0;
    for await (const row of readCsv(file, { progress: { label: 'fr.test rows.csv', out } })) if (!row.error) n++;
    expect(n).toBe(100);
    expect(lines).toEqual([expect.stringMatching(/^fr\.test rows\.csv: 100 rows, \d+ rows\/s, 100\.0%, done\n$/)]);
  });
});
